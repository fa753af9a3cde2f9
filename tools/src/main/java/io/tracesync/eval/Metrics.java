package io.tracesync.eval;

import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.numeric.DoubleDouble;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongPredicate;

/** Tracesync's replayed factors measured against the ground truth (docs/ACCURACY.md). */
public final class Metrics {

    private Metrics() {
    }

    /**
     * The true error F(local_node(T)) − local_reference(T) of every recorded factor of a node other than its
     * reference, at its drain time and at each later interval while it stays in force, and whether it lies
     * inside [−down, up].
     */
    public static ErrorStats factorErrors(Replay.Result replay, TrueClocks truth) {
        return factorErrors(replay, truth, 0);
    }

    /**
     * With {@code aheadNs} &gt; 0, each factor is instead sampled once, that long after it was computed (while
     * the run lasts): how far a factor kept by a consumer drifts from the truth, and whether its growing bounds
     * still hold it.
     */
    public static ErrorStats factorErrors(Replay.Result replay, TrueClocks truth, long aheadNs) {
        ErrorStats stats = new ErrorStats();
        ErrorSample add = (row, t, e) -> {
            long local = truth.localAt(row.node(), t);
            stats.add(e, row.bounded(), row.contains(local, e));
            if (row.bounded()) {
                stats.width((row.upAtPs(local) + row.downAtPs(local)) / 1e3);
            }
        };
        if (aheadNs <= 0) {
            forEachError(replay, truth, add);
            return stats;
        }
        for (FactorRow row : replay.factors()) {
            long t = row.trueNs() + aheadNs;
            if (!row.node().equals(row.reference()) && t <= replay.endNs()) {
                add.accept(row, t, errorNs(row, t, truth));
            }
        }
        return stats;
    }

    /**
     * Every sample of the factors in force ({@link #forEachError}: node n at true time τ) converted again at each
     * age after the fact: n's reading at τ converted with its factor history holding every factor of n drained up to
     * τ + age ({@link HistorySweep}), and with the newest of them alone, against the true clock, at τ, of the
     * reference the answer names. At age 0 the history ends with the factor in force, whose answer it gives.
     */
    public static List<AgeErrors> afterTheFact(Replay.Result replay, TrueClocks truth, List<Age> ages,
            HistoryGate gate) {
        int n = ages.size();
        HistorySweep[] histories = new HistorySweep[n];
        HistorySweep[] newest = new HistorySweep[n];
        ErrorStats[] historyStats = new ErrorStats[n];
        ErrorStats[] newestStats = new ErrorStats[n];
        long[] interpolated = new long[n];
        for (int i = 0; i < n; i++) {
            histories[i] = new HistorySweep(replay.factors(), ages.get(i), Integer.MAX_VALUE, gate);
            newest[i] = new HistorySweep(replay.factors(), ages.get(i), 1, gate);
            historyStats[i] = new ErrorStats();
            newestStats[i] = new ErrorStats();
        }
        forEachError(replay, truth, (row, t, e) -> {
            long local = truth.localAt(row.node(), t);
            for (int i = 0; i < n; i++) {
                HistoricConversion c = histories[i].convert(row.node(), t, local);
                add(historyStats[i], c, truth, t);
                if (c.basis() == HistoricConversion.Basis.INTERPOLATED) {
                    interpolated[i]++;
                }
                add(newestStats[i], newest[i].convert(row.node(), t, local), truth, t);
            }
        });
        List<AgeErrors> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new AgeErrors(ages.get(i), historyStats[i], interpolated[i], newestStats[i]));
        }
        return out;
    }

    /**
     * {@link #afterTheFact} under the datasheet alone: every sample of {@code datasheet}'s bounds in force
     * ({@link DatasheetPolicy}'s replay) converted again at each age with the bounds drained up to τ + age, those
     * around τ intersected ({@link HistorySweep#convertUnderDatasheet}), and with the newest of them alone. No answer
     * is interpolated: the datasheet bounds no curvature.
     */
    public static List<AgeErrors> afterTheFactUnderDatasheet(Replay.Result datasheet, TrueClocks truth,
            List<Age> ages, HistoryGate gate) {
        int n = ages.size();
        HistorySweep[] histories = new HistorySweep[n];
        HistorySweep[] newest = new HistorySweep[n];
        ErrorStats[] historyStats = new ErrorStats[n];
        ErrorStats[] newestStats = new ErrorStats[n];
        for (int i = 0; i < n; i++) {
            histories[i] = new HistorySweep(datasheet.factors(), ages.get(i), Integer.MAX_VALUE, gate, true);
            newest[i] = new HistorySweep(datasheet.factors(), ages.get(i), 1, gate, true);
            historyStats[i] = new ErrorStats();
            newestStats[i] = new ErrorStats();
        }
        forEachError(datasheet, truth, (row, t, e) -> {
            long local = truth.localAt(row.node(), t);
            for (int i = 0; i < n; i++) {
                add(historyStats[i], histories[i].convertUnderDatasheet(row.node(), t, local), truth, t, e);
                add(newestStats[i], newest[i].convertUnderDatasheet(row.node(), t, local), truth, t, e);
            }
        });
        List<AgeErrors> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new AgeErrors(ages.get(i), historyStats[i], 0, newestStats[i]));
        }
        return out;
    }

    /**
     * {@link #add(ErrorStats, HistoricConversion, TrueClocks, long)} for an answer under the datasheet; where there is
     * none (no bound around the time), the bound in force's error {@code errorNs}, unbounded.
     */
    private static void add(ErrorStats stats, HistorySweep.Sheet s, TrueClocks truth, long trueNs, double errorNs) {
        if (s == null) {
            stats.add(errorNs, false, false);
            return;
        }
        long reference = truth.localAt(s.reference(), trueNs);
        Conversion c = s.conversion();
        stats.add(c.referenceNs().subtract(BigDecimal.valueOf(reference)).doubleValue(), true,
                c.lowerNs() <= reference && reference <= c.upperNs());
        stats.width(c.upperNs() - c.lowerNs());
    }

    /** The true error of an answer for true time {@code trueNs}, whether its interval holds the truth, its width. */
    private static void add(ErrorStats stats, HistoricConversion c, TrueClocks truth, long trueNs) {
        long reference = truth.localAt(c.version().reference(), trueNs);
        boolean bounded = c.bounded();
        stats.add(c.referenceNs().subtract(BigDecimal.valueOf(reference)).doubleValue(), bounded,
                bounded && c.lowerNs() <= reference && reference <= c.upperNs());
        if (bounded) {
            stats.width(c.upperNs() - c.lowerNs());
        }
    }

    /** Receives one sampled true error of a factor row. */
    interface ErrorSample {
        void accept(FactorRow row, long trueNs, double errorNs);
    }

    /**
     * Every factor of a node other than its reference, sampled at its drain time and at each later interval while
     * it stays in force, with its true error there.
     */
    static void forEachError(Replay.Result replay, TrueClocks truth, ErrorSample sample) {
        FactorHistory history = new FactorHistory(replay.factors());
        for (FactorRow row : replay.factors()) {
            if (row.node().equals(row.reference())) {
                continue;
            }
            long until = history.until(row, replay.endNs());
            long t = row.trueNs();
            do {
                sample.accept(row, t, errorNs(row, t, truth));
                t += replay.intervalNs();
            } while (t < until);
        }
    }

    /** The true error of {@code row} at true time {@code trueNs}, in ns of the reference clock. */
    static double errorNs(FactorRow row, long trueNs, TrueClocks truth) {
        DoubleDouble e = row.apply(truth.localAt(row.node(), trueNs))
                .subtract(DoubleDouble.of(truth.localAt(row.reference(), trueNs)));
        return e.hi() + e.lo();
    }

    /**
     * Per link, every message corrected with the factors in force when it was received (so never with factors
     * that already knew it): inversions and messages faster than the minimum delay (Poirier 2010 §4.1, Ashton
     * 1995 §6.1).
     */
    public static Map<LinkKey, LinkChecks> linkChecks(BufferedReader truthPairs, String source, Replay.Result replay,
            TrueClocks truth) throws IOException {
        return linkChecks(truthPairs, source, replay, truth, t -> false);
    }

    /** As above, counting apart the inversions received at a true time in a detection window ({@link Departures}). */
    static Map<LinkKey, LinkChecks> linkChecks(BufferedReader truthPairs, String source, Replay.Result replay,
            TrueClocks truth, LongPredicate inWindow) throws IOException {
        FactorHistory history = new FactorHistory(replay.factors());
        return linkChecks(truthPairs, source, truth, inWindow, p -> {
            SendReceive m = p.pair();
            FactorRow s = history.at(m.sender(), p.trueRecvNs());
            FactorRow r = history.at(m.receiver(), p.trueRecvNs());
            if (s == null || r == null || !s.reference().equals(r.reference())) {
                return null;
            }
            DoubleDouble d = r.apply(m.recvNs()).subtract(s.apply(m.sendNs()));
            return d.hi() + d.lo();
        });
    }

    /**
     * Per link, every message corrected after the fact: both its ends converted with their nodes' factor histories
     * as known {@code age} after it was received ({@link HistorySweep}, which the history's {@code gate} keeps),
     * as a consumer converting an archived trace answers; counted as {@link #linkChecks}. The truth's pairs must be
     * in the order they were received.
     */
    static Map<LinkKey, LinkChecks> linkChecksAfterTheFact(BufferedReader truthPairs, String source,
            Replay.Result replay, TrueClocks truth, Age age, HistoryGate gate, LongPredicate inWindow)
            throws IOException {
        HistorySweep histories = new HistorySweep(replay.factors(), age, Integer.MAX_VALUE, gate);
        return linkChecks(truthPairs, source, truth, inWindow, p -> {
            SendReceive m = p.pair();
            HistoricConversion s = histories.convert(m.sender(), p.trueRecvNs(), m.sendNs());
            HistoricConversion r = histories.convert(m.receiver(), p.trueRecvNs(), m.recvNs());
            if (s == null || r == null || !s.version().reference().equals(r.version().reference())) {
                return null;
            }
            return r.referenceNs().subtract(s.referenceNs()).doubleValue();
        });
    }

    /** Counts every message of the truth by the corrected delay {@code delayNs} gives it (null: not corrected). */
    private static Map<LinkKey, LinkChecks> linkChecks(BufferedReader truthPairs, String source, TrueClocks truth,
            LongPredicate inWindow, Function<TruthPair, Double> delayNs) throws IOException {
        Map<LinkKey, LinkChecks> out = new TreeMap<>();
        TruthPair.read(truthPairs, source, p -> {
            Double d = delayNs.apply(p);
            if (d == null) {
                return;
            }
            SendReceive m = p.pair();
            Long min = truth.minDelayNs(m.sender(), m.receiver());
            out.put(m.link(), out.getOrDefault(m.link(), LinkChecks.NONE).plus(d, min == null ? 0 : min,
                    inWindow.test(p.trueRecvNs()), p.trueRecvNs()));
        });
        return out;
    }
}
