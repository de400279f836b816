package org.iolab.report.model;

/** Which JMH benchmark a measurement comes from. */
public enum Bench {
    /** {@code org.iolab.bench.ReadBenchmark.pass}: a whole-file read. */
    READ("org.iolab.bench.ReadBenchmark.pass"),
    /** {@code org.iolab.bench.WriteBenchmark.pass}: a whole-file write. */
    WRITE("org.iolab.bench.WriteBenchmark.pass"),
    /** {@code org.iolab.bench.RandomAccessBenchmark.pass}: probes at a stride. */
    RANDOM("org.iolab.bench.RandomAccessBenchmark.pass"),
    /** {@code org.iolab.bench.JournalAppendBenchmark.append}: appends per second to iolab's journal. */
    JOURNAL_APPEND("org.iolab.bench.JournalAppendBenchmark.append"),
    /** {@code org.iolab.bench.JournalReplayBenchmark.pass}: one full replay of a journal. */
    JOURNAL_REPLAY("org.iolab.bench.JournalReplayBenchmark.pass"),
    /**
     * {@code org.iolab.bench.JournalBulkBenchmark.pass}: one pass writing {@code totalSize} bytes of records into a
     * fresh journal, then a sync (fio's counterpart).
     */
    JOURNAL_BULK("org.iolab.bench.JournalBulkBenchmark.pass"),
    /** {@code org.iolab.bench.ChronicleAppendBenchmark.append}: appends per second to Chronicle Queue. */
    CHRONICLE_APPEND("org.iolab.bench.ChronicleAppendBenchmark.append"),
    /** {@code org.iolab.bench.ChronicleReplayBenchmark.pass}: one full pass of a Chronicle Queue tailer. */
    CHRONICLE_REPLAY("org.iolab.bench.ChronicleReplayBenchmark.pass"),
    /**
     * {@code org.iolab.bench.store.StoreBenchmark.phase}: one phase of Bruno's employee workload on an embedded
     * store (iolab's or a peer's), in milliseconds.
     */
    STORE("org.iolab.bench.store.StoreBenchmark.phase");

    private final String jmhName;

    Bench(String jmhName) {
        this.jmhName = jmhName;
    }

    /** @return the JMH benchmark name */
    public String jmhName() {
        return jmhName;
    }

    /**
     * @return whether it measures a journal (iolab's or Chronicle Queue) rather than a catalogue method; such
     *     measurements are in {@link ResultSet#journal()}, not {@link ResultSet#measurements()}
     */
    public boolean journal() {
        return this != READ && this != WRITE && this != RANDOM && this != STORE;
    }

    /**
     * @return whether it measures an embedded store; such measurements are in {@link ResultSet#store()}, not
     *     {@link ResultSet#measurements()}
     */
    public boolean store() {
        return this == STORE;
    }

    /** @return whether it measures appends (a rate per second) rather than replay or write-then-sync passes */
    public boolean append() {
        return this == JOURNAL_APPEND || this == CHRONICLE_APPEND;
    }

    /** @return whether it measures replay passes (iolab's journal or Chronicle Queue's tailer) */
    public boolean replay() {
        return this == JOURNAL_REPLAY || this == CHRONICLE_REPLAY;
    }

    /** @return whether it measures Chronicle Queue, the journal's peer */
    public boolean chronicle() {
        return this == CHRONICLE_APPEND || this == CHRONICLE_REPLAY;
    }

    /**
     * @param jmhName a JMH benchmark name
     * @return the matching bench, or null for a benchmark iolab does not know
     */
    public static Bench ofJmhName(String jmhName) {
        for (Bench b : values()) {
            if (b.jmhName.equals(jmhName)) {
                return b;
            }
        }
        return null;
    }
}
