package io.tracesync.sim;

/**
 * One simulated host: its name ({@code n} and the zero-padded index, so names sort like indexes), its IPv4
 * address, its true clock, and when it is traced: from {@code joinNs} (inclusive) to {@code leaveNs} (exclusive),
 * in true time. Its clock runs, and is in the ground truth, for the whole simulation.
 */
public record NodeSpec(int index, String name, String address, ClockParams clock, long joinNs, long leaveNs) {

    /** Whether the node records events at true time {@code t}. */
    public boolean present(long t) {
        return t >= joinNs && t < leaveNs;
    }

    /** 10.x.y.z numbered from 10.0.0.1 upwards. */
    static String address(int index) {
        int k = index + 1;
        return "10." + (k >>> 16 & 255) + "." + (k >>> 8 & 255) + "." + (k & 255);
    }

    /** {@code n} plus the index, zero-padded to the width of the largest index of {@code count} nodes. */
    static String name(int index, int count) {
        int width = String.valueOf(count - 1).length();
        String digits = String.valueOf(index);
        return "n" + "0".repeat(width - digits.length()) + digits;
    }
}
