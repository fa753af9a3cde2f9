package io.tracesync.streams.matcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tracesync.core.matching.PacketFlow.Sighting;
import io.tracesync.core.matching.PacketFlow;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class SegmentFlowsTest {

    /** The layout is DataOutputStream's, byte for byte. */
    @Property(tries = 500)
    void encodesExactlyAsADataOutputStreamAndDecodesBack(@ForAll("flows") List<PacketFlow> flows) throws IOException {
        SegmentFlows held = new SegmentFlows(flows);
        byte[] bytes = held.encode();
        assertArrayEquals(reference(flows), bytes);
        assertArrayEquals(bytes, SegmentFlows.decode(bytes).encode());
    }

    @Test
    void aTruncatedStateIsRefused() {
        byte[] bytes = new SegmentFlows(List.of(new PacketFlow(null, null, 1, 2, null, null, false))).encode();
        assertThrows(IllegalArgumentException.class,
                () -> SegmentFlows.decode(java.util.Arrays.copyOf(bytes, bytes.length - 1)));
    }

    @Provide
    Arbitrary<List<PacketFlow>> flows() {
        Arbitrary<byte[]> address = Arbitraries.of(4, 16).flatMap(n -> Arbitraries.bytes().array(byte[].class)
                .ofSize(n)).injectNull(0.3);
        // ASCII, the NUL that modified UTF-8 writes in two bytes, two- and three-byte characters, surrogates
        Arbitrary<String> node = Arbitraries.strings().withChars("abz09-.").withChars('\0', 'é', 'ß', '€', '中')
                .withCharRange('\uD800', '\uDFFF').ofMinLength(1).ofMaxLength(40);
        Arbitrary<Sighting> sighting = Combinators.combine(node, Arbitraries.longs().greaterOrEqual(0))
                .as(Sighting::new).injectNull(0.3);
        Arbitrary<PacketFlow> flow = Combinators.combine(address, address, Arbitraries.integers().between(-1, 65535),
                Arbitraries.integers().between(-1, 65535), sighting, sighting,
                Arbitraries.of(true, false)).as(PacketFlow::new);
        return flow.list().ofMinSize(0).ofMaxSize(4).map(ArrayList::new);
    }

    /** Layout version 2 as DataOutputStream writes it (SegmentFlows' javadoc). */
    private static byte[] reference(List<PacketFlow> flows) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(2);
        out.writeShort(flows.size());
        for (PacketFlow f : flows) {
            out.writeByte((f.saddr() != null ? 1 : 0) | (f.daddr() != null ? 2 : 0) | (f.send() != null ? 4 : 0)
                    | (f.recv() != null ? 8 : 0) | (f.matched() ? 16 : 0));
            for (byte[] a : new byte[][] {f.saddr(), f.daddr()}) {
                if (a != null) {
                    out.writeByte(a.length);
                    out.write(a);
                }
            }
            out.writeInt(f.sport());
            out.writeInt(f.dport());
            for (Sighting s : new Sighting[] {f.send(), f.recv()}) {
                if (s != null) {
                    out.writeUTF(s.node());
                    out.writeLong(s.tsNs());
                }
            }
        }
        return bytes.toByteArray();
    }
}
