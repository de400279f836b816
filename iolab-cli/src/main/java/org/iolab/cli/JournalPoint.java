package org.iolab.cli;

import java.util.Locale;
import org.iolab.Sizes;
import org.iolab.storage.Durability;

/**
 * One measured journal configuration.
 *
 * @param bench the JMH benchmark
 * @param backend storage backend label ({@code segment}, ...); null for Chronicle Queue
 * @param durability appends to iolab's journal: the durability level; null otherwise
 * @param recordSize payload bytes per record
 * @param records replays: records written, then replayed per pass; 0 for appends
 * @param warmups warm-up iterations (appends) or passes (replays) per fork
 * @param runs measured iterations or passes per fork
 * @param forks JMH forks
 * @param iterationSeconds appends: seconds per iteration; replays: estimated seconds per pass
 * @param wallSeconds estimated seconds for the whole point
 */
record JournalPoint(JournalBench bench, String backend, Durability durability, long recordSize, long records,
                    int warmups, int runs, int forks, double iterationSeconds, double wallSeconds) implements Task {

    @Override
    public String describe() {
        StringBuilder b = new StringBuilder(bench.chronicle() ? "chronicle-queue" : "journal " + backend);
        b.append(bench.append() ? " append" : " replay").append(" record=").append(Sizes.format(recordSize));
        if (durability != null) {
            b.append(" durability=").append(durability.name().toLowerCase(Locale.ROOT));
        }
        if (records > 0) {
            b.append(" records=").append(records);
        }
        return b.toString();
    }

    /** @return the durability as the benchmark parameter, e.g. {@code batch} */
    String durabilityParam() {
        return durability.name().toLowerCase(Locale.ROOT);
    }
}
