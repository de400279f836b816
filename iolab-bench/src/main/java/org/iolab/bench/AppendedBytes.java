package org.iolab.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The append benchmarks' secondary metric {@code bytes}: payload bytes appended, reported by JMH as a rate
 * (bytes/s; MB/s is {@code bytes / 1e6}). Reset at the start of every iteration. Shared by
 * {@link JournalAppendBenchmark} and {@link ChronicleAppendBenchmark} so both report the same metric.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class AppendedBytes {
    /** Payload bytes appended in this iteration. */
    public long bytes;

    /** Creates the counter. */
    public AppendedBytes() {
    }

    /** Zeroes the counter. */
    @Setup(Level.Iteration)
    public void reset() {
        bytes = 0;
    }
}
