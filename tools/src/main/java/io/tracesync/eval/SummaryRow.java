package io.tracesync.eval;

/** One row of an evaluation's summary: what was replayed, what its errors mean, and the errors measured. */
public record SummaryRow(String label, String meaning, ErrorStats errors) {
}
