package org.iolab.bench.store;

import java.util.Locale;
import org.iolab.storage.Durability;

/**
 * What one {@link StoreLatency} point measured: the puts per second of a closed loop of puts into a fresh store
 * and the latency distribution of the recorded puts (warm-up excluded).
 *
 * @param engine the engine's name, e.g. {@code iolab} or {@code sqlite}
 * @param durability the durability level
 * @param mode {@value StoreLatency#PUT} (from the call of {@code put} to its return) or
 *     {@value StoreLatency#DURABLE} (from the call of {@code put} to the moment the store reported it durable;
 *     iolab's store at BATCH only)
 * @param puts puts recorded
 * @param warmup puts made before them into the same store, not recorded
 * @param putsPerSecond recorded puts over the time from the first recorded call to the last return
 * @param p50Nanos median latency, nanoseconds
 * @param p90Nanos 90th percentile, nanoseconds
 * @param p99Nanos 99th percentile, nanoseconds
 * @param p999Nanos 99.9th percentile, nanoseconds
 * @param maxNanos largest latency, nanoseconds
 * @param meanNanos mean latency, nanoseconds
 */
public record StoreLatencyResult(String engine, Durability durability, String mode, long puts, long warmup,
        double putsPerSecond, long p50Nanos, long p90Nanos, long p99Nanos, long p999Nanos, long maxNanos,
        double meanNanos) {
    /**
     * @return every field as one line of JSON (no line break), the durability as its command-line label, e.g.
     *     {@code {"engine":"iolab","durability":"always","mode":"put","puts":2000,...}}
     */
    public String toJson() {
        return String.format(Locale.ROOT, "{\"engine\":%s,\"durability\":\"%s\",\"mode\":\"%s\",\"puts\":%d,"
                        + "\"warmup\":%d,\"putsPerSecond\":%.3f,\"p50Nanos\":%d,\"p90Nanos\":%d,\"p99Nanos\":%d,"
                        + "\"p999Nanos\":%d,\"maxNanos\":%d,\"meanNanos\":%.1f}",
                StoreLatency.quote(engine), durability.name().toLowerCase(Locale.ROOT), mode, puts, warmup,
                putsPerSecond, p50Nanos, p90Nanos, p99Nanos, p999Nanos, maxNanos, meanNanos);
    }
}
