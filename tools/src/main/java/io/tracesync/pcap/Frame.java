package io.tracesync.pcap;

/**
 * One captured packet: its link type (LINKTYPE_* number), its timestamp in nanoseconds of the capturing node's clock,
 * the captured bytes, its number in the file (from 1) and the file offset just past its record.
 */
public record Frame(int linkType, long tsNs, byte[] data, long number, long end) {
}
