package io.tracesync.sim;

import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * Runs a {@link Scenario}: one priority queue of pending happenings ordered by (true time, creation order) —
 * each link's next new message, transmissions and retransmissions, arrivals, responses — processed in true-time
 * order, so memory is one cursor per link plus the segments in flight, however long the run.
 *
 * <p>TCP-like transmission: every attempt is a SEND on the sender; the network loses it with probability
 * {@code loss}, and it also goes unreceived when the receiver is not traced at arrival time (it left, or the
 * trace ended). The sender then retransmits the same segment (same ports, seq and ack) after the RTO, doubling it
 * each time, up to the retry limit; a segment is received at most once, so a pair is always (first SEND, the one
 * RECV). Retransmission only follows a loss — no spurious retransmits. Sequence numbers advance by the payload
 * size; the ack of a segment is the peer's ISN plus the bytes received from the peer so far (mod 2³²).
 */
public final class Simulator {

    private static final int NEW_MESSAGE = 0;
    private static final int TRANSMIT = 1;
    private static final int ARRIVE = 2;
    private static final int RESPOND = 3;

    private static final long UINT32 = 1L << 32;
    private static final int MIN_PAYLOAD = 64;
    private static final int MAX_PAYLOAD = 1460;

    private final Scenario scenario;
    private final SimulationConfig config;
    private final DelayModel delays;
    private final SplittableRandom[] traffic;
    /** Per link and direction (2j forward = client → server, 2j+1 backward): next seq, bytes received. */
    private final long[] nextSeq;
    private final long[] received;
    private final PriorityQueue<Happening> queue = new PriorityQueue<>();
    private final SimulationStats stats = new SimulationStats();
    private long created;

    public Simulator(Scenario scenario) {
        this.scenario = scenario;
        this.config = scenario.config();
        this.delays = scenario.delays();
        RandomStreams streams = new RandomStreams(config.seed());
        int links = scenario.linkCount();
        this.traffic = new SplittableRandom[links];
        this.nextSeq = new long[2 * links];
        this.received = new long[2 * links];
        for (int j = 0; j < links; j++) {
            traffic[j] = streams.stream(RandomStreams.Purpose.TRAFFIC, j);
            nextSeq[2 * j] = scenario.link(j).clientIsn();
            nextSeq[2 * j + 1] = scenario.link(j).serverIsn();
        }
    }

    /** The last progress {@link #run} reports, its whole simulated time: the total of a progress bar. */
    public long progressTotal() {
        return config.durationNs();
    }

    /**
     * Runs the whole simulation into {@code sink}; {@code progress} gets the simulated ns elapsed at every clock
     * step, rising to {@link #progressTotal()} at the end. Can run once.
     */
    public SimulationStats run(SimulationSink sink, LongConsumer progress) {
        if (created != 0) {
            throw new IllegalStateException("a simulator runs once");
        }
        long start = SimulationConfig.START_NS;
        long end = scenario.endNs();
        RandomStreams streams = new RandomStreams(config.seed());
        DriftingClock[] clocks = new DriftingClock[scenario.nodeCount()];
        for (int i = 0; i < clocks.length; i++) {
            int node = i;
            clocks[i] = new DriftingClock(scenario.node(i).clock(), start, config.stepNs(),
                    streams.stream(RandomStreams.Purpose.WANDER, i),
                    streams.stream(RandomStreams.Purpose.CLOCK_EVENTS, i), new DriftingClock.Truth() {
                        @Override
                        public void breakpoint(long trueNs, long localNs) {
                            stats.breakpoints++;
                            sink.clockBreakpoint(node, trueNs, localNs);
                        }

                        @Override
                        public void event(long trueNs, ClockEvent kind, double value) {
                            if (kind == ClockEvent.JUMP) {
                                stats.jumps++;
                            }
                            sink.clockEvent(node, trueNs, kind, value);
                        }
                    });
        }
        for (int j = 0; j < scenario.linkCount(); j++) {
            scheduleNewMessage(j, activeFrom(j));
        }
        long step = 0;
        long stepEnd = start + config.stepNs();
        while (!queue.isEmpty() && queue.peek().time < end) {
            Happening h = queue.poll();
            if (h.time >= stepEnd) {
                long target = (h.time - start) / config.stepNs();
                for (long s = step + 1; s <= target; s++) {
                    for (DriftingClock c : clocks) {
                        c.advanceTo(s);
                    }
                    progress.accept(s * config.stepNs());
                }
                step = target;
                stepEnd = start + (step + 1) * config.stepNs();
            }
            switch (h.kind) {
                case NEW_MESSAGE -> newMessage(h, clocks, sink);
                case TRANSMIT -> transmit(h.segment, h.time, clocks, sink);
                case ARRIVE -> arrive(h.segment, h.time, clocks, sink);
                case RESPOND -> transmit(response(h.segment), h.time, clocks, sink);
                default -> throw new AssertionError(h.kind);
            }
        }
        long lastStep = (end - 1 - start) / config.stepNs();
        for (long s = step + 1; s <= lastStep; s++) {
            for (DriftingClock c : clocks) {
                c.advanceTo(s);
            }
        }
        for (DriftingClock c : clocks) {
            c.finish();
        }
        progress.accept(progressTotal());
        return stats;
    }

    private long activeFrom(int j) {
        LinkSpec l = scenario.link(j);
        return Math.max(scenario.node(l.client()).joinNs(), scenario.node(l.server()).joinNs());
    }

    private long activeUntil(int j) {
        LinkSpec l = scenario.link(j);
        return Math.min(scenario.node(l.client()).leaveNs(), scenario.node(l.server()).leaveNs());
    }

    private void scheduleNewMessage(int j, long after) {
        long gap = Math.max(1, (long) DelayModel.exponential(1e9 / scenario.link(j).ratePerS(), traffic[j]));
        queue.add(new Happening(after + gap, created++, NEW_MESSAGE, j, null));
    }

    private void newMessage(Happening h, DriftingClock[] clocks, SimulationSink sink) {
        int j = h.link;
        if (h.time >= activeUntil(j)) {
            return;
        }
        LinkSpec l = scenario.link(j);
        transmit(segment(j, true, !l.oneWay()), h.time, clocks, sink);
        scheduleNewMessage(j, h.time);
    }

    /** A new segment on link j in the given direction, taking its seq range and the current ack. */
    private Segment segment(int j, boolean forward, boolean request) {
        int dir = 2 * j + (forward ? 0 : 1);
        int peer = 2 * j + (forward ? 1 : 0);
        LinkSpec l = scenario.link(j);
        long peerIsn = forward ? l.serverIsn() : l.clientIsn();
        int size = MIN_PAYLOAD + traffic[j].nextInt(MAX_PAYLOAD - MIN_PAYLOAD + 1);
        long seq = nextSeq[dir];
        nextSeq[dir] = (seq + size) % UINT32;
        return new Segment(j, forward, request, seq, (peerIsn + received[peer]) % UINT32, size);
    }

    private Segment response(Segment request) {
        return segment(request.link, false, false);
    }

    private void transmit(Segment s, long t, DriftingClock[] clocks, SimulationSink sink) {
        LinkSpec l = scenario.link(s.link);
        int from = s.forward ? l.client() : l.server();
        int to = s.forward ? l.server() : l.client();
        if (!scenario.node(from).present(t)) {
            return;
        }
        long local = clocks[from].localAt(t);
        sink.traceEvent(event(s, from, t, local, true));
        stats.sends++;
        if (s.attempts == 0) {
            s.firstSendTrue = t;
            s.firstSendLocal = local;
        } else {
            stats.retransmissions++;
        }
        s.attempts++;
        SplittableRandom r = traffic[s.link];
        boolean lost = r.nextDouble() < config.loss();
        long arrival = lost ? 0 : t + delays.sample(l.minDelayNs(s.forward), r);
        if (lost) {
            stats.dropped++;
        }
        if (!lost && scenario.node(to).present(arrival)) {
            queue.add(new Happening(arrival, created++, ARRIVE, s.link, s));
        } else if (s.attempts <= config.maxRetries()) {
            queue.add(new Happening(t + (config.rtoNs() << (s.attempts - 1)), created++, TRANSMIT, s.link, s));
        } else {
            stats.abandoned++;
        }
    }

    private void arrive(Segment s, long t, DriftingClock[] clocks, SimulationSink sink) {
        LinkSpec l = scenario.link(s.link);
        int from = s.forward ? l.client() : l.server();
        int to = s.forward ? l.server() : l.client();
        long local = clocks[to].localAt(t);
        sink.traceEvent(event(s, to, t, local, false));
        stats.recvs++;
        sink.pair(new SimulationSink.MatchedSegment(from, s.firstSendLocal, to, local, s.firstSendTrue, t));
        received[2 * s.link + (s.forward ? 0 : 1)] += s.size;
        if (s.request) {
            long service = (long) DelayModel.exponential(config.serviceTimeNs(), traffic[s.link]);
            queue.add(new Happening(t + service, created++, RESPOND, s.link, s));
        }
    }

    private SimulationSink.TraceEvent event(Segment s, int node, long t, long local, boolean send) {
        LinkSpec l = scenario.link(s.link);
        return s.forward
                ? new SimulationSink.TraceEvent(node, t, local, send, l.client(), l.server(), l.clientPort(),
                        l.serverPort(), s.seq, s.ack)
                : new SimulationSink.TraceEvent(node, t, local, send, l.server(), l.client(), l.serverPort(),
                        l.clientPort(), s.seq, s.ack);
    }

    /** A TCP segment: its identity (link, direction, seq, ack) and the first time it was sent. */
    private static final class Segment {
        final int link;
        final boolean forward;
        final boolean request;
        final long seq;
        final long ack;
        final int size;
        int attempts;
        long firstSendTrue;
        long firstSendLocal;

        Segment(int link, boolean forward, boolean request, long seq, long ack, int size) {
            this.link = link;
            this.forward = forward;
            this.request = request;
            this.seq = seq;
            this.ack = ack;
            this.size = size;
        }
    }

    /** Something due at a true time; ties are taken in creation order. */
    private record Happening(long time, long order, int kind, int link, Segment segment)
            implements Comparable<Happening> {

        @Override
        public int compareTo(Happening o) {
            return time != o.time ? Long.compare(time, o.time) : Long.compare(order, o.order);
        }
    }
}
