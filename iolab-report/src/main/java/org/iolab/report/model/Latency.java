package org.iolab.report.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One journal latency run ({@code org.iolab.bench.JournalLatency}): appends at a fixed rate, each append's
 * latency measured from the moment it was due (not when it was issued), so a stall counts against every
 * append it delayed (corrected for coordinated omission).
 *
 * @param mode {@code tail} (append until a tailer sees the record) or {@code durable} (append until it is
 *     durable)
 * @param backend storage backend
 * @param durability durability level
 * @param recordSize payload bytes per record
 * @param rate target appends per second
 * @param count appends measured
 * @param p50Nanos median latency, ns
 * @param p90Nanos 90th percentile, ns
 * @param p99Nanos 99th percentile, ns
 * @param p999Nanos 99.9th percentile, ns
 * @param maxNanos largest, ns
 * @param meanNanos mean, ns
 * @param achievedRate appends per second actually made
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Latency(String mode, String backend, String durability, long recordSize, double rate, long count,
                      double p50Nanos, double p90Nanos, double p99Nanos, double p999Nanos, double maxNanos,
                      double meanNanos, double achievedRate) {
}
