package io.tracesync.bench;

import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The nearest double-double of a 60-digit decimal (what Duda's bisector hands to its clock map, once per new
 * estimate): {@code DoubleDouble.of(BigDecimal)}, against the same through {@code BigDecimal.doubleValue()}, which
 * JDK 17 computes by printing the decimal and parsing the string. Slopes near 1 and offsets of hours in ns.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DoubleDoubleConversionBenchmark {

    static final int VALUES = 1024;
    final BigDecimal[] values = new BigDecimal[VALUES];

    @Setup
    public void generate() {
        Random r = new Random(1);
        MathContext mc = new MathContext(60);
        for (int i = 0; i < VALUES; i++) {
            values[i] = i % 2 == 0
                    ? BigDecimal.ONE.add(BigDecimal.valueOf(r.nextGaussian() * 1e-4)).divide(BigDecimal.valueOf(3), mc)
                    : BigDecimal.valueOf(r.nextLong() % 3_600_000_000_000L).divide(BigDecimal.valueOf(7), mc);
        }
    }

    @Benchmark
    @OperationsPerInvocation(VALUES)
    public double binary() {
        double sum = 0;
        for (BigDecimal v : values) {
            sum += DoubleDouble.of(v).lo();
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(VALUES)
    public double throughDecimalStrings() {
        double sum = 0;
        for (BigDecimal v : values) {
            double hi = v.doubleValue();
            sum += DoubleDouble.of(hi, v.subtract(new BigDecimal(hi)).doubleValue()).lo();
        }
        return sum;
    }
}
