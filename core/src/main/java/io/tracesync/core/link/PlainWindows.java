package io.tracesync.core.link;

import io.tracesync.core.numeric.ClockMap;

/**
 * Under an excursion Φ ({@link LinkOptions#excursionNs}), the clock model's windows on the pairs as they are,
 * unshifted. The bounds rest on the shifted windows, whose corridors hold the chord of the curve the relation departs
 * from by at most Φ; but a corridor every point of which moved outward by Φ has its extreme lines on farther points,
 * and its bisector is looser than the pairs allow. So the estimate is the unshifted windows' own — the narrowest of
 * them at the latest tick, chosen as the link chooses its answering window — wherever the answering window admits
 * it: a line of its corridor, inside its bounds at any time and with a slope in its range. On clocks that keep to
 * the model it is the estimate the link would give without Φ; a pair that contradicts an unshifted window (an
 * excursion the bounds allow) starts them all again, as it would that link's windows, so that they follow the
 * relation's excursions.
 */
final class PlainWindows {

    private final Window[] plain;
    /** The link's version {@link #agrees} was decided for. */
    private long checkedVersion = -1;
    /** The unshifted window whose estimate is the link's, -1 for none. */
    private int chosen = -1;

    PlainWindows(LinkOptions options) {
        this.plain = options.excursionNs() == 0 ? new Window[0] : WindowSet.of(options, 0);
    }

    /** The unshifted windows, shortest first; none without an excursion. */
    Window[] windows() {
        return plain;
    }

    /**
     * Pairs contradicted an unshifted window, or the model (shifted by Φ), at x: every unshifted window starts again,
     * as a link without Φ does.
     */
    void restartAt(long x) {
        for (Window w : plain) {
            w.restartAt(x);
        }
    }

    /**
     * Whether an unshifted window gives the estimate: the narrowest at the latest tick ({@link WindowSet#narrowest})
     * is ACCURATE and its bisector is a line of the answering window's corridor. A function of the windows and the
     * latest tick, decided again when the link's {@code version} moved — which it does whenever a window's corridor
     * changes or the tick moves — so not for every pair.
     */
    boolean agrees(long version, long latestX, WindowSet set) {
        if (plain.length == 0) {
            return false;
        }
        if (checkedVersion != version) {
            checkedVersion = version;
            int i = WindowSet.narrowest(plain, set.tickOf(latestX));
            Window a = set.answering();
            boolean admitted = plain[i].quality() == LinkQuality.ACCURATE && a.quality() == LinkQuality.ACCURATE
                    && a.older().admits(plain[i].estimate());
            chosen = admitted ? i : -1;
        }
        return chosen >= 0;
    }

    /** The estimate {@link #agrees} approved. */
    ClockMap estimate() {
        return plain[chosen].estimate();
    }
}
