package org.iolab.report.model;

/** Which JMH benchmark a measurement comes from. */
public enum Bench {
    /** {@code org.iolab.bench.ReadBenchmark.pass}: a whole-file read. */
    READ("org.iolab.bench.ReadBenchmark.pass"),
    /** {@code org.iolab.bench.WriteBenchmark.pass}: a whole-file write. */
    WRITE("org.iolab.bench.WriteBenchmark.pass"),
    /** {@code org.iolab.bench.RandomAccessBenchmark.pass}: probes at a stride. */
    RANDOM("org.iolab.bench.RandomAccessBenchmark.pass");

    private final String jmhName;

    Bench(String jmhName) {
        this.jmhName = jmhName;
    }

    /** @return the JMH benchmark name */
    public String jmhName() {
        return jmhName;
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
