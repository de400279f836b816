package org.iolab.cli;

import org.iolab.bench.BenchmarkNames;

/**
 * The journal workload's JMH benchmarks: iolab's journal and its peer, Chronicle Queue. Three kinds: appends
 * (JMH throughput), replay passes (single shot) and write-then-sync passes ({@link #BULK}: single shot with a
 * durability and a byte total, fio's counterpart).
 */
enum JournalBench {
    /** Appends to iolab's journal (throughput, one op = one record). */
    APPEND(BenchmarkNames.JOURNAL_APPEND, true),
    /** One full replay of iolab's journal (single shot). */
    REPLAY(BenchmarkNames.JOURNAL_REPLAY, false),
    /** One pass writing a byte total into a fresh journal, then {@code sync()} (single shot). */
    BULK(BenchmarkNames.JOURNAL_BULK, false),
    /** Appends to Chronicle Queue (throughput). */
    CHRONICLE_APPEND(BenchmarkNames.CHRONICLE_APPEND, true),
    /** One full pass of a Chronicle Queue tailer (single shot). */
    CHRONICLE_REPLAY(BenchmarkNames.CHRONICLE_REPLAY, false);

    private final String jmhName;
    private final boolean append;

    JournalBench(String jmhName, boolean append) {
        this.jmhName = jmhName;
        this.append = append;
    }

    /** @return the JMH benchmark name */
    String jmhName() {
        return jmhName;
    }

    /** @return whether it measures appends (JMH throughput) rather than replay or bulk passes (single shot) */
    boolean append() {
        return append;
    }

    /** @return whether one pass writes a byte total into a fresh journal and syncs it */
    boolean bulk() {
        return this == BULK;
    }

    /** @return whether it measures Chronicle Queue */
    boolean chronicle() {
        return this == CHRONICLE_APPEND || this == CHRONICLE_REPLAY;
    }
}
