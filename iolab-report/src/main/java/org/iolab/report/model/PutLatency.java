package org.iolab.report.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * One point of the store's per-put latency runs ({@code org.iolab.bench.store.StoreLatency}): a closed loop of
 * puts of Bruno's employees into a fresh store of one engine at one durability level, each put timed on its own.
 *
 * @param engine the engine, e.g. {@code iolab}, {@code sqlite}
 * @param durability {@code none}, {@code batch} or {@code always}
 * @param mode {@code put} (call to return) or {@code durable} (call to durable: iolab's store at BATCH)
 * @param puts puts recorded
 * @param warmup puts made first into the same store, not recorded
 * @param putsPerSecond recorded puts over the loop's time
 * @param p50Nanos median latency, ns
 * @param p90Nanos 90th percentile, ns
 * @param p99Nanos 99th percentile, ns
 * @param p999Nanos 99.9th percentile, ns
 * @param maxNanos largest, ns
 * @param meanNanos mean, ns
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PutLatency(String engine, String durability, String mode, long puts, long warmup,
                         double putsPerSecond, double p50Nanos, double p90Nanos, double p99Nanos, double p999Nanos,
                         double maxNanos, double meanNanos) {
    /** {@link #mode()} of the call-to-return latency. */
    public static final String PUT = "put";
    /** {@link #mode()} of the call-to-durable latency. */
    public static final String DURABLE = "durable";
}
