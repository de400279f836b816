package org.iolab.bench;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.checksum.Checksum64;
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
 * One full replay of a journal of {@code records} records of {@code recordSize} bytes through the
 * zero-copy visitor {@link Journal#read(long, org.iolab.journal.RecordVisitor)}, checksumming every
 * payload with {@link Checksum64} through a {@code MemorySegment} view of it (as {@code ChronicleReplayBenchmark}
 * does with Chronicle's excerpts); the count and the checksum are checked against what was written.
 *
 * <p>The score is the time of one pass (ms); records/s = {@code records / (score / 1000)} and
 * payload MB/s = {@code records × recordSize / (score × 1000)}.
 *
 * <p>The trial setup writes the journal (durability {@code none}, then one {@code sync()}) in a new
 * sub-folder of {@code dir}; the trial teardown closes it and deletes the folder. The pages stay in the
 * page cache, so this measures warm replay.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g",
    "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@State(Scope.Benchmark)
public class JournalReplayBenchmark {
    /** Storage backend: {@code raf}, {@code channel-heap}, {@code channel-direct}, {@code mapped}, {@code segment}. */
    @Param("segment")
    public String backend;

    /** Number of records written and replayed, e.g. {@code 1000000} (or {@code 1m}). */
    @Param("1000000")
    public String records;

    /** Payload bytes of each record. */
    @Param("64")
    public String recordSize;

    /** Size of each segment file, e.g. {@code 256m} (the journal's default). */
    @Param("256m")
    public String segmentSize;

    /**
     * Folder in which the journal's own sub-folder is created; empty for a temporary folder in
     * {@code java.io.tmpdir}. The sub-folder is deleted at the end of the trial.
     */
    @Param("")
    public String dir;

    private FileHome home;
    private Path folder;
    private Journal journal;
    private long count;
    private long expectedChecksum;
    private long expectedBytes;

    /** Creates the state; JMH sets the parameters. */
    public JournalReplayBenchmark() {
    }

    /** Checks the parameters and writes the journal. */
    @Setup(Level.Trial)
    public void setupTrial() {
        JournalOptions options = JournalFolder.options(backend, "none", segmentSize);
        int size = (int) Params.size(recordSize, "recordSize", Math.min(options.maxRecordSize(), Params.MAX_BUFFER));
        count = Params.fileSize(records, "records");
        home = FileHome.open(dir);
        try {
            folder = JournalFolder.create(home);
            journal = Journal.open(folder, options);
            ByteBuffer payload = ByteBuffer.allocate(size);
            Checksum64 sum = new Checksum64();
            for (long i = 0; i < count; i++) {
                payload.clear();
                for (int j = 0; j + Long.BYTES <= size; j += Long.BYTES) {
                    payload.putLong(j, i * 0x9E3779B97F4A7C15L + j);
                }
                for (int j = size & ~7; j < size; j++) {
                    payload.put(j, (byte) (i + j));
                }
                sum.update(payload.array(), 0, size);
                journal.append(payload);
            }
            journal.sync();
            expectedChecksum = sum.value();
            expectedBytes = sum.length();
        } catch (RuntimeException e) {
            tearDownTrial();
            throw e;
        }
    }

    /**
     * Replays every record once.
     *
     * @return the checksum of the payloads
     * @throws IllegalStateException when the count, byte total or checksum differs from what was written
     */
    @Benchmark
    public long pass() {
        Checksum64 sum = new Checksum64();
        long[] bytes = {0};
        long n = journal.read(0, (seq, p) -> {
            int len = p.remaining();
            bytes[0] += len;
            // through a segment view, as ChronicleReplayBenchmark checksums its excerpts (the ByteBuffer path of
            // Checksum64 copies the buffer's state and checks every read)
            sum.update(MemorySegment.ofBuffer(p), 0, len);
            return true;
        });
        if (n != count || bytes[0] != expectedBytes || sum.value() != expectedChecksum) {
            throw new IllegalStateException(String.format(
                    "replay mismatch: %s: %d records of %d bytes, checksum %016x; expected %d records of %d bytes,"
                            + " checksum %016x", describe(), n, bytes[0], sum.value(), count, expectedBytes,
                    expectedChecksum));
        }
        return sum.value();
    }

    /** Closes the journal and deletes its folder. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        try {
            if (journal != null) {
                journal.close();
            }
        } catch (IolabException e) {
            System.err.println("iolab: closing journal " + folder + ": " + e.getMessage());
        } finally {
            journal = null;
            JournalFolder.delete(folder);
            folder = null;
            if (home != null) {
                home.close();
                home = null;
            }
        }
    }

    /** @return the journal's folder, while the trial runs (for tests) */
    Path folder() {
        return folder;
    }

    private String describe() {
        return "backend=" + backend + " records=" + records + " recordSize=" + recordSize
                + " segmentSize=" + segmentSize;
    }
}
