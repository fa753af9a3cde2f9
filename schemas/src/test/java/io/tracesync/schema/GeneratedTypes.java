package io.tracesync.schema;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.DatasheetBound;
import io.tracesync.avro.Line;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.NetworkInput;
import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.avro.TreeSnapshot;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** The record classes generated from src/main/avro, one per .avsc file ({@code GeneratedTypesTest} checks). */
final class GeneratedTypes {

    static final List<Class<? extends SpecificRecord>> ALL = List.of(ClockMap.class, DatasheetBound.class, Line.class, LinkId.class,
            LinkSummary.class, MatchedPair.class, MatchedPairs.class, NetworkInput.class, SegmentKey.class,
            SyncFactor.class, TraceEvent.class, TreeSnapshot.class);

    /** The types used as record keys, whose schemas never change. */
    static final List<Class<? extends SpecificRecord>> KEYS = List.of(SegmentKey.class, LinkId.class);

    private GeneratedTypes() {
    }
}
