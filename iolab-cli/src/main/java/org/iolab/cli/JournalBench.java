package org.iolab.cli;

import org.iolab.bench.BenchmarkNames;

/** The journal workload's JMH benchmarks: iolab's journal and its peer, Chronicle Queue. */
enum JournalBench {
    /** Appends to iolab's journal (throughput, one op = one record). */
    APPEND(BenchmarkNames.JOURNAL_APPEND, true),
    /** One full replay of iolab's journal (single shot). */
    REPLAY(BenchmarkNames.JOURNAL_REPLAY, false),
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

    /** @return whether it measures appends (JMH throughput) rather than replay passes (single shot) */
    boolean append() {
        return append;
    }

    /** @return whether it measures Chronicle Queue */
    boolean chronicle() {
        return this == CHRONICLE_APPEND || this == CHRONICLE_REPLAY;
    }
}
