package io.tracesync.otel;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tracesync.client.ReferenceTime;
import io.tracesync.core.history.HistoricConversion.Basis;
import io.tracesync.core.network.Conversion;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Rewrites the times of every span (start, end, its events) from its host's clock to its reference's, adding:
 * {@code tracesync.status} ({@code corrected}, or {@code no_factor} with the span left as it was),
 * {@code tracesync.reference} (the reference of the span's start: every time of a span converts to it, so a span
 * that straddles a change of its host's reference keeps one clock), {@code tracesync.local_start_ns} and {@code tracesync.local_end_ns} (the times as
 * recorded), {@code tracesync.basis} (how the times were converted: {@code interpolated} — each between two
 * versions of the host's factor, as tightly as when they were new — or, if either was not, {@code extrapolated}:
 * carried from one version, past the newest data for a span newer than its host's factor; {@code contradicted}
 * where the versions around it exclude each other, a clock step), {@code tracesync.from_data_ns} (the larger
 * distance of the two times from the data behind their answers), and, when the factor is bounded,
 * {@code tracesync.bound_ns}: the largest distance from a corrected time (start or end) to the edges of its
 * guaranteed interval, so the true time lies within ± that; where the host's latest factor carries one (the
 * application's {@code link.max.drift.ppm}), {@code tracesync.datasheet_bound_ns}: the same under the datasheet
 * alone, every clock's rate within ±R of true and no clock model (docs/LINK-CORE.md, "The datasheet bound").
 */
public final class SpanTimeCorrection {

    public static final String STATUS = "tracesync.status";
    public static final String REFERENCE = "tracesync.reference";
    public static final String LOCAL_START_NS = "tracesync.local_start_ns";
    public static final String LOCAL_END_NS = "tracesync.local_end_ns";
    public static final String BOUND_NS = "tracesync.bound_ns";
    public static final String BASIS = "tracesync.basis";
    public static final String FROM_DATA_NS = "tracesync.from_data_ns";
    public static final String DATASHEET_BOUND_NS = "tracesync.datasheet_bound_ns";

    private final HostIdentity hosts;
    private final Conversions convert;
    private final Function<String, OptionalLong> newestData;
    private final DatasheetConversions datasheet;

    /** A host's local times in a reference's time, as {@code SyncClock.convert} gives them. */
    @FunctionalInterface
    public interface Conversions {
        /** {@code localNs} of the host's clock in {@code reference}'s time (null: its reference then), if known. */
        Optional<ReferenceTime> convert(String host, long localNs, String reference);
    }

    /** A host's local times in a reference's time under the datasheet alone, as SyncClock.convertUnderDatasheet. */
    @FunctionalInterface
    public interface DatasheetConversions {
        /** {@code localNs} of the host's clock in {@code reference}'s time under the datasheet alone, if known. */
        Optional<Conversion> convert(String host, long localNs, String reference);
    }

    /** Without the datasheet bound. */
    public SpanTimeCorrection(HostIdentity hosts, Conversions convert,
            Function<String, OptionalLong> newestData) {
        this(hosts, convert, newestData, (host, t, reference) -> Optional.empty());
    }

    /**
     * @param convert a host's local time to a reference's (as {@code SyncClock.convert})
     * @param newestData the newest local time of the data behind a host's factors, the newest factor's anchor (empty
     *     while it has none)
     * @param datasheet the same under the datasheet alone (as {@code SyncClock.convertUnderDatasheet})
     */
    public SpanTimeCorrection(HostIdentity hosts, Conversions convert,
            Function<String, OptionalLong> newestData, DatasheetConversions datasheet) {
        this.hosts = hosts;
        this.convert = convert;
        this.newestData = newestData;
        this.datasheet = datasheet;
    }

    /**
     * Per host of the request, the latest time of its spans (start, end, events): once the data behind the host's
     * factors reach it, every time converts between two versions ({@link #ready}).
     */
    public Map<String, Long> latestTimes(ExportTraceServiceRequest request) {
        Map<String, Long> latest = new TreeMap<>();
        for (ResourceSpans rs : request.getResourceSpansList()) {
            hosts.of(OtlpSpans.attributes(rs.getResource())).ifPresent(host -> {
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    for (Span span : ss.getSpansList()) {
                        long t = Math.max(span.getStartTimeUnixNano(), span.getEndTimeUnixNano());
                        for (Span.Event e : span.getEventsList()) {
                            t = Math.max(t, e.getTimeUnixNano());
                        }
                        latest.merge(host, t, Math::max);
                    }
                }
            });
        }
        return latest;
    }

    /** Whether the data behind every host's factors reach its latest time of {@link #latestTimes}. */
    public boolean ready(Map<String, Long> latestTimes) {
        for (Map.Entry<String, Long> e : latestTimes.entrySet()) {
            OptionalLong newest = newestData.apply(e.getKey());
            if (newest.isEmpty() || newest.getAsLong() < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    public ExportTraceServiceRequest correct(ExportTraceServiceRequest request) {
        ExportTraceServiceRequest.Builder out = request.toBuilder();
        for (ResourceSpans.Builder rs : out.getResourceSpansBuilderList()) {
            String host = hosts.of(OtlpSpans.attributes(rs.getResource())).orElse(null);
            for (ScopeSpans.Builder ss : rs.getScopeSpansBuilderList()) {
                for (Span.Builder s : ss.getSpansBuilderList()) {
                    correct(host, s);
                }
            }
        }
        return out.build();
    }

    private void correct(String host, Span.Builder s) {
        Optional<ReferenceTime> start = host == null ? Optional.empty()
                : convert.convert(host, s.getStartTimeUnixNano(), null);
        String reference = start.map(ReferenceTime::reference).orElse(null);
        Optional<ReferenceTime> end = start.isEmpty() ? Optional.empty()
                : convert.convert(host, s.getEndTimeUnixNano(), reference);
        if (start.isEmpty() || end.isEmpty()) {
            s.addAttributes(string(STATUS, "no_factor"));
            return;
        }
        s.addAttributes(string(STATUS, "corrected"))
                .addAttributes(string(REFERENCE, start.get().reference()))
                .addAttributes(integer(LOCAL_START_NS, s.getStartTimeUnixNano()))
                .addAttributes(integer(LOCAL_END_NS, s.getEndTimeUnixNano()))
                .addAttributes(string(BASIS, basis(start.get(), end.get()).name().toLowerCase(Locale.ROOT)))
                .addAttributes(integer(FROM_DATA_NS, Math.max(start.get().fromDataNs(), end.get().fromDataNs())));
        if (start.get().bounded() && end.get().bounded()) {
            s.addAttributes(integer(BOUND_NS, Math.max(bound(start.get()), bound(end.get()))));
        }
        Optional<Conversion> sheetStart = datasheet.convert(host, s.getStartTimeUnixNano(), reference);
        Optional<Conversion> sheetEnd = datasheet.convert(host, s.getEndTimeUnixNano(), reference);
        if (sheetStart.isPresent() && sheetEnd.isPresent()) {
            s.addAttributes(integer(DATASHEET_BOUND_NS, Math.max(bound(start.get().referenceNs(), sheetStart.get()),
                    bound(end.get().referenceNs(), sheetEnd.get()))));
        }
        s.setStartTimeUnixNano(start.get().referenceNs()).setEndTimeUnixNano(end.get().referenceNs());
        for (Span.Event.Builder e : s.getEventsBuilderList()) {
            convert.convert(host, e.getTimeUnixNano(), reference).ifPresent(c -> e.setTimeUnixNano(c.referenceNs()));
        }
    }

    /** The less tight of the two answers' bases: contradicted, then extrapolated, then interpolated. */
    private static Basis basis(ReferenceTime a, ReferenceTime b) {
        return a.basis().compareTo(b.basis()) >= 0 ? a.basis() : b.basis();
    }

    private static long bound(ReferenceTime c) {
        return Math.max(c.upperNs().getAsLong() - c.referenceNs(), c.referenceNs() - c.lowerNs().getAsLong());
    }

    /** The largest distance from a corrected time to the edges of an interval under the datasheet alone. */
    private static long bound(long correctedNs, Conversion c) {
        return Math.max(c.upperNs() - correctedNs, correctedNs - c.lowerNs());
    }

    private static KeyValue string(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    private static KeyValue integer(String key, long value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setIntValue(value)).build();
    }
}
