package org.iolab.cli;

import org.iolab.catalogue.Kind;

/** The three JMH benchmarks of iolab-bench. */
enum Bench {
    /** Whole-file reads (bytes and chars). */
    READ("org.iolab.bench.ReadBenchmark.pass"),
    /** Whole-file writes. */
    WRITE("org.iolab.bench.WriteBenchmark.pass"),
    /** Probes every {@code stride} bytes. */
    RANDOM("org.iolab.bench.RandomAccessBenchmark.pass");

    private final String jmhName;

    Bench(String jmhName) {
        this.jmhName = jmhName;
    }

    /** @return the benchmark's JMH name */
    String jmhName() {
        return jmhName;
    }

    /**
     * @param kind a catalogue kind
     * @return the benchmark that runs methods of that kind
     */
    static Bench of(Kind kind) {
        return switch (kind) {
            case READ, READ_CHARS -> READ;
            case WRITE -> WRITE;
            case RANDOM_ACCESS -> RANDOM;
        };
    }
}
