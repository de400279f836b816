package org.iolab.cli;

import java.util.Locale;
import org.iolab.Sizes;
import org.iolab.storage.Durability;

/**
 * One measured journal configuration.
 *
 * @param bench the JMH benchmark
 * @param backend storage backend label ({@code segment}, ...); null for Chronicle Queue
 * @param durability appends to and bulk passes of iolab's journal: the durability level; null otherwise
 * @param recordSize payload bytes per record
 * @param records replays: records written, then replayed per pass; bulk: records written per pass (the pass
 *     writes {@code records × recordSize} bytes, see {@link #totalSize()}); 0 for appends
 * @param warmups warm-up iterations (appends) or passes (replays) per fork
 * @param runs measured iterations or passes per fork
 * @param forks JMH forks
 * @param iterationSeconds appends: seconds per iteration; replays and bulk: estimated seconds per pass
 * @param wallSeconds estimated seconds for the whole point
 */
record JournalPoint(JournalBench bench, String backend, Durability durability, long recordSize, long records,
                    int warmups, int runs, int forks, double iterationSeconds, double wallSeconds) implements Task {

    @Override
    public String describe() {
        StringBuilder b = new StringBuilder(bench.chronicle() ? "chronicle-queue" : "journal " + backend);
        b.append(bench.append() ? " append" : bench.bulk() ? " write+sync" : " replay").append(" record=")
                .append(Sizes.format(recordSize));
        if (durability != null) {
            b.append(" durability=").append(durability.name().toLowerCase(Locale.ROOT));
        }
        if (bench.bulk()) {
            b.append(" total=").append(Sizes.format(totalSize()));
        } else if (records > 0) {
            b.append(" records=").append(records);
        }
        return b.toString();
    }

    /** @return payload bytes a replay or bulk pass moves: records × record size */
    long totalSize() {
        return records * recordSize;
    }

    /** @return the durability as the benchmark parameter, e.g. {@code batch} */
    String durabilityParam() {
        return durability.name().toLowerCase(Locale.ROOT);
    }
}
