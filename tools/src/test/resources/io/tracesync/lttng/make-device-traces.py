"""Writes the fixture device-traces/: two small CTF 1.8 kernel traces (node-a, node-b), two streams (CPUs) each, of
net_dev_queue and net_if_receive_skb events in the field layout of lttng-modules' net_dev_template (IPv4 and TCP
headers copied into network_header), for ImportLttngCommandTest. Usage: python3 make-device-traces.py OUT_DIR"""
import os, struct, sys

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace {
	major = 1;
	minor = 8;
	byte_order = le;
	packet.header := struct {
		uint32_t magic;
		uint32_t stream_id;
	};
};
env {
	hostname = "%s";
	domain = "kernel";
	tracer_name = "lttng-modules";
};
clock {
	name = "monotonic";
	freq = 1000000000;
	offset = %d;
};
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;
stream {
	id = 0;
	packet.context := struct {
		uint64_clock_monotonic_t timestamp_begin;
		uint64_clock_monotonic_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint32_t cpu_id;
	};
	event.header := struct {
		uint32_t id;
		uint64_clock_monotonic_t timestamp;
	};
};
""" 
FIELDS = """	fields := struct {
		integer { size = 64; align = 8; signed = 0; base = 16; } _skbaddr;
		integer { size = 32; align = 8; signed = 0; base = 10; } _len;
		string _name;
		enum : integer { size = 8; align = 8; signed = 0; } { "_unknown" = 0, "_ipv4" = 1, "_ipv6" = 2 } _network_header_type;
		variant <_network_header_type> {
			struct { } _unknown;
			struct {
				integer { size = 4; align = 1; signed = 0; byte_order = be; } _version;
				integer { size = 4; align = 1; signed = 0; byte_order = be; } _ihl;
				integer { size = 8; align = 8; signed = 0; byte_order = be; } _tos;
				integer { size = 16; align = 8; signed = 0; byte_order = be; } _tot_len;
				integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _id;
				integer { size = 16; align = 8; signed = 0; byte_order = be; } _frag_off;
				integer { size = 8; align = 8; signed = 0; byte_order = be; } _ttl;
				enum : integer { size = 8; align = 8; signed = 0; byte_order = be; } { "_unknown" = 0 ... 5, "_tcp" = 6, "_unknown" = 7 ... 255 } _protocol;
				integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _checksum;
				integer { size = 8; align = 8; signed = 0; byte_order = be; } _saddr[4];
				integer { size = 8; align = 8; signed = 0; byte_order = be; } _daddr[4];
				enum : integer { size = 8; align = 8; signed = 0; } { "_unknown" = 0, "_tcp" = 1 } _transport_header_type;
				variant <_transport_header_type> {
					struct { } _unknown;
					struct {
						integer { size = 16; align = 8; signed = 0; byte_order = be; } _source_port;
						integer { size = 16; align = 8; signed = 0; byte_order = be; } _dest_port;
						integer { size = 32; align = 8; signed = 0; byte_order = be; } _seq;
						integer { size = 32; align = 8; signed = 0; byte_order = be; } _ack_seq;
						integer { size = 4; align = 1; signed = 0; byte_order = be; } _data_offset;
						integer { size = 3; align = 1; signed = 0; byte_order = be; } _reserved;
						integer { size = 9; align = 1; signed = 0; byte_order = be; base = 16; } _flags;
						integer { size = 16; align = 8; signed = 0; byte_order = be; } _window_size;
						integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _checksum;
						integer { size = 16; align = 8; signed = 0; byte_order = be; } _urg_ptr;
					} align(32) _tcp;
				} _transport_header;
			} align(16) _ipv4;
		} _network_header;
	};
};
"""

def event_classes():
    out = ""
    for i, name in enumerate(["net_dev_queue", "net_if_receive_skb"]):
        out += "event {\n\tname = %s;\n\tid = %d;\n\tstream_id = 0;\n" % (name, i) + FIELDS
    return out

class Buf:
    def __init__(self):
        self.b = bytearray()
    def align(self, n):
        while len(self.b) % n:
            self.b.append(0)
    def put(self, fmt, *v, align=None):
        self.align(align or struct.calcsize(fmt.lstrip("<>")))
        self.b += struct.pack(fmt, *v)

def tcp_event(buf, eid, ts, saddr, daddr, sport, dport, seq, ack, flags, dev="eth0"):
    buf.put("<I", eid); buf.put("<Q", ts)
    buf.put("<Q", 0xFFFF88001D513100); buf.put("<I", 60)
    buf.b += dev.encode() + b"\0"
    buf.put("<B", 1)
    buf.align(2)                       # ipv4 struct align(16)
    buf.b += bytes([0x45, 0]); buf.put(">H", 60); buf.put(">H", 0x1C46); buf.put(">H", 16384)
    buf.b += bytes([64, 6]); buf.put(">H", 0xB1E6)
    buf.b += bytes(saddr) + bytes(daddr)
    buf.put("<B", 1)
    buf.align(4)                       # tcp struct align(32)
    buf.put(">H", sport); buf.put(">H", dport); buf.put(">I", seq); buf.put(">I", ack)
    buf.put(">H", (10 << 12) | flags)  # data offset 4 bits, reserved 3, flags 9
    buf.put(">H", 14600); buf.put(">H", 0x2847); buf.put(">H", 0)

def stream(path, cpu, events):
    buf = Buf()
    buf.put("<I", 0xC1FC1FC1); buf.put("<I", 0)
    buf.put("<Q", events[0][1]); buf.put("<Q", events[-1][1])
    sizes = len(buf.b)
    buf.put("<Q", 0); buf.put("<Q", 0); buf.put("<I", cpu)
    for e in events:
        tcp_event(buf, *e)
    content = len(buf.b) * 8
    size = ((len(buf.b) + 7) // 8) * 8 * 8
    buf.b[sizes:sizes + 16] = struct.pack("<QQ", content, size)
    buf.b += b"\0" * (size // 8 - len(buf.b))
    open(path, "wb").write(bytes(buf.b))

A = [10, 0, 10, 4]; B = [10, 0, 10, 21]
# a TCP handshake: node-a's clock reads true time + 5 s, node-b's true time + 2 s; one-way delays of 100 us;
# node-a also sends a packet to itself over the loopback device
HOSTS = {
    "node-a": {0: [(0, 5_000_000_000, A, B, 48361, 22, 2769203724, 0, 0x02),
                   (0, 5_000_350_000, A, B, 48361, 22, 2769203725, 1629881573, 0x10)],
               1: [(1, 5_000_300_000, B, A, 22, 48361, 1629881572, 2769203725, 0x12),
                   (0, 5_000_400_000, [127, 0, 0, 1], [127, 0, 0, 1], 40000, 5432, 1, 0, 0x02, "lo")]},
    "node-b": {0: [(1, 2_000_100_000, A, B, 48361, 22, 2769203724, 0, 0x02),
                   (0, 2_000_200_000, B, A, 22, 48361, 1629881572, 2769203725, 0x12)],
               1: [(1, 2_000_450_000, A, B, 48361, 22, 2769203725, 1629881573, 0x10)]},
}
out = sys.argv[1]
for host, cpus in HOSTS.items():
    d = os.path.join(out, host)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "metadata"), "w").write(METADATA % (host, 1_361_203_559_332_331_489) + event_classes())
    for cpu, events in cpus.items():
        stream(os.path.join(d, "channel0_%d" % cpu), cpu, events)
