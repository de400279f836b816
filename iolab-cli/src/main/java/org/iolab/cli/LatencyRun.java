package org.iolab.cli;

import java.util.Locale;
import org.iolab.Sizes;
import org.iolab.storage.Durability;

/**
 * One run of {@code org.iolab.bench.JournalLatency} in a child JVM: appends at a fixed rate, latency
 * percentiles corrected for coordinated omission.
 *
 * @param mode {@code tail} (append to visible to a tailer) or {@code durable} (append to durable)
 * @param backend storage backend label
 * @param durability durability level
 * @param recordSize payload bytes per record
 * @param rate target appends per second
 * @param seconds measured seconds
 * @param warmup warm-up seconds
 */
record LatencyRun(String mode, String backend, Durability durability, long recordSize, long rate, double seconds,
                  double warmup) implements Task {
    /** Starting the child JVM and opening its journal. */
    static final double START = 1.0;

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "journal latency %s %s durability=%s record=%s rate=%d/s for %.1fs", mode,
                backend, durabilityParam(), Sizes.format(recordSize), rate, seconds);
    }

    @Override
    public double wallSeconds() {
        return START + seconds + warmup;
    }

    /** @return the durability as the command-line value, e.g. {@code batch} */
    String durabilityParam() {
        return durability.name().toLowerCase(Locale.ROOT);
    }
}
