package org.iolab.bench;

import java.util.Locale;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * What one {@link JournalLatency} run measured: the latency distribution of the recorded records (warm-up
 * excluded), each latency measured from the record's <em>intended</em> append time, so corrected for
 * coordinated omission (see {@link JournalLatency}).
 *
 * @param mode what was measured
 * @param backend the journal's storage backend
 * @param durability the journal's durability level
 * @param recordSize payload bytes of each record
 * @param rate the requested rate, records per second
 * @param count records recorded in the histogram
 * @param p50Nanos median latency, nanoseconds
 * @param p90Nanos 90th percentile, nanoseconds
 * @param p99Nanos 99th percentile, nanoseconds
 * @param p999Nanos 99.9th percentile, nanoseconds
 * @param maxNanos largest latency, nanoseconds
 * @param meanNanos mean latency, nanoseconds
 * @param achievedRate records per second actually appended over the recorded part (below {@code rate} when
 *     the journal could not keep up)
 */
public record LatencyResult(LatencySpec.Mode mode, Backend backend, Durability durability, int recordSize,
        long rate, long count, long p50Nanos, long p90Nanos, long p99Nanos, long p999Nanos, long maxNanos,
        double meanNanos, double achievedRate) {
    /**
     * @return every field as one line of JSON (no line break), enums as their command-line labels, e.g.
     *     {@code {"mode":"tail","backend":"segment","durability":"none","recordSize":64,...}}
     */
    public String toJson() {
        return String.format(Locale.ROOT, "{\"mode\":\"%s\",\"backend\":\"%s\",\"durability\":\"%s\","
                        + "\"recordSize\":%d,\"rate\":%d,\"count\":%d,\"p50Nanos\":%d,\"p90Nanos\":%d,"
                        + "\"p99Nanos\":%d,\"p999Nanos\":%d,\"maxNanos\":%d,\"meanNanos\":%.1f,"
                        + "\"achievedRate\":%.3f}",
                mode.label(), backend.label(), durability.name().toLowerCase(Locale.ROOT), recordSize, rate, count,
                p50Nanos, p90Nanos, p99Nanos, p999Nanos, maxNanos, meanNanos, achievedRate);
    }
}
