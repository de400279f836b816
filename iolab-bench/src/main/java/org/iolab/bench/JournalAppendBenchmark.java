package org.iolab.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Appends of {@code recordSize}-byte records to a {@link Journal} by a single writer thread.
 *
 * <p>The primary score is appends per second (one operation = one append of {@code recordSize} payload
 * bytes). The secondary metric {@code bytes} ({@link AppendedBytes}) is payload bytes per second, i.e.
 * {@code bytes/s = ops/s × recordSize}; divide by 1,000,000 for MB/s. With {@code durability=always}
 * every append waits for an fsync, so expect a few thousand appends per second.
 *
 * <p>Each trial opens a fresh journal in a new sub-folder of {@code dir}; at the end of the trial the
 * journal is closed, its record count checked against the appends made, and the folder deleted.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g",
    "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class JournalAppendBenchmark {
    /** Records read back at the end of a trial to check the journal (the last ones appended). */
    static final long CHECKED = 1000;

    /** Storage backend: {@code raf}, {@code channel-heap}, {@code channel-direct}, {@code mapped}, {@code segment}. */
    @Param("segment")
    public String backend;

    /** {@code none}, {@code batch} or {@code always}. */
    @Param("none")
    public String durability;

    /** Payload bytes of each record, e.g. {@code 64}, {@code 1024}, {@code 4096}, {@code 65536} (or {@code 4k}). */
    @Param("64")
    public String recordSize;

    /** Size of each segment file, e.g. {@code 256m} (the journal's default). */
    @Param("256m")
    public String segmentSize;

    /** {@code true} or {@code false}: {@link JournalOptions#withPrefault(boolean)}. */
    @Param("true")
    public String prefault;

    /**
     * Folder in which the journal's own sub-folder is created; empty for a temporary folder in
     * {@code java.io.tmpdir}. The sub-folder is deleted at the end of the trial.
     */
    @Param("")
    public String dir;

    private FileHome home;
    private Path folder;
    private Journal journal;
    private ByteBuffer payload;
    private int size;
    private long appended;

    /** Creates the state; JMH sets the parameters. */
    public JournalAppendBenchmark() {
    }

    /** Checks the parameters and opens a fresh journal in a new folder. */
    @Setup(Level.Trial)
    public void setupTrial() {
        JournalOptions options = JournalFolder.options(backend, durability, segmentSize)
                .withPrefault(Params.bool(prefault, "prefault"));
        long max = options.maxRecordSize();
        size = (int) Params.size(recordSize, "recordSize", Math.min(max, Params.MAX_BUFFER));
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        payload = ByteBuffer.wrap(bytes);
        appended = 0;
        home = FileHome.open(dir);
        try {
            folder = JournalFolder.create(home);
            journal = Journal.open(folder, options);
        } catch (RuntimeException e) {
            JournalFolder.delete(folder);
            home.close();
            throw e;
        }
    }

    /**
     * Appends one record.
     *
     * @param counters the byte counter
     * @return the record's sequence
     */
    @Benchmark
    public long append(AppendedBytes counters) {
        payload.clear();
        long seq = journal.append(payload);
        appended++;
        counters.bytes += size;
        return seq;
    }

    /**
     * Closes the journal, checks that it holds exactly the records appended, and deletes its folder.
     *
     * @throws IllegalStateException when the record count is wrong
     */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        try {
            if (journal != null) {
                verify();
            }
        } finally {
            if (journal != null) {
                journal.close();
                journal = null;
            }
            JournalFolder.delete(folder);
            folder = null;
            if (home != null) {
                home.close();
                home = null;
            }
        }
    }

    private void verify() {
        long next = journal.nextSequence();
        if (next != appended) {
            throw new IllegalStateException("journal " + describe() + " ends at sequence " + next + " after "
                    + appended + " appends");
        }
        long from = Math.max(0, appended - CHECKED);
        long[] bad = {0};
        long n = journal.read(from, (seq, p) -> {
            if (p.remaining() != size) {
                bad[0]++;
            }
            return true;
        });
        if (n != appended - from || bad[0] != 0) {
            throw new IllegalStateException("journal " + describe() + ": read " + n + " records from " + from
                    + " (expected " + (appended - from) + "), " + bad[0] + " of the wrong length");
        }
    }

    /** @return appends made in this trial (for tests) */
    long appended() {
        return appended;
    }

    /** @return the journal's folder, while the trial runs (for tests) */
    Path folder() {
        return folder;
    }

    private String describe() {
        return "backend=" + backend + " durability=" + durability + " recordSize=" + recordSize
                + " segmentSize=" + segmentSize + " prefault=" + prefault;
    }
}
