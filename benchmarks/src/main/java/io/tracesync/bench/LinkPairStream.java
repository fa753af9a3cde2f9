package io.tracesync.bench;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.PairEffect;
import java.util.Random;

/**
 * A simulated link's matched pairs, alternately a→b and b→a: b's clock 1 h ahead and 37 ppm fast; delays 50 us +
 * exponential(200 us) with 1 % interrupt spikes of 2 ms, or, adversarial, each pair faster than all before it.
 */
final class LinkPairStream {

    final boolean[] aToB;
    final long[] send;
    final long[] recv;

    /** {@code n} pairs, one every {@code spacingNs} of a's time. */
    LinkPairStream(int n, double spacingNs, boolean adversarial, Random r) {
        aToB = new boolean[n];
        send = new long[n];
        recv = new long[n];
        long offB = 3_600_000_000_000L;
        double drift = 1 + 37e-6;
        for (int i = 0; i < n; i++) {
            double t = i * spacingNs;
            double delay = adversarial
                    ? 50_000 + 1e12 / (i + 1.0)
                    : 50_000 - 200_000 * Math.log(1 - r.nextDouble()) + (r.nextInt(100) == 0 ? 2e6 : 0);
            aToB[i] = (i & 1) == 0;
            if (aToB[i]) {
                send[i] = Math.round(t);
                recv[i] = offB + Math.round((t + delay) * drift);
            } else {
                send[i] = offB + Math.round(t * drift);
                recv[i] = Math.round(t + delay);
            }
        }
    }

    int size() {
        return aToB.length;
    }

    /** Displaces a quarter of the pairs by up to 64 positions (partitions, directions). */
    void reorder(Random r) {
        int n = size();
        for (int i = 0; i < n / 4; i++) {
            int k = r.nextInt(n - 64);
            swap(k, k + 1 + r.nextInt(63));
        }
    }

    private void swap(int i, int j) {
        boolean d = aToB[i];
        aToB[i] = aToB[j];
        aToB[j] = d;
        long s = send[i];
        send[i] = send[j];
        send[j] = s;
        long v = recv[i];
        recv[i] = recv[j];
        recv[j] = v;
    }

    /** Pair i into {@code link}. */
    PairEffect add(ConvexHullLink link, int i) {
        return aToB[i] ? link.addAtoB(send[i], recv[i]) : link.addBtoA(send[i], recv[i]);
    }
}
