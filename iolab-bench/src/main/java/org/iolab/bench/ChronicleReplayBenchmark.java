package org.iolab.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.iolab.checksum.Checksum64;
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
 * The peer of {@link JournalReplayBenchmark}: one full replay of a Chronicle Queue of {@code records}
 * excerpts of {@code recordSize} bytes by a new tailer reading from the start, each excerpt read in place
 * ({@code readingDocument()}, no copy) and checksummed with {@link Checksum64}; the count and the checksum are
 * checked against what was written.
 *
 * <p>The score is the time of one pass (ms); records/s = {@code records / (score / 1000)} and payload MB/s =
 * {@code records × recordSize / (score × 1000)}. The payloads are the same bytes
 * {@link JournalReplayBenchmark} writes, so the two checksums are equal.
 *
 * <p>The trial setup writes the queue in a new sub-folder of {@code dir}; the trial teardown closes it and
 * deletes the folder. The pages stay in the page cache, so this measures warm replay.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g", ChronicleQueues.NATIVE, ChronicleQueues.UNSAFE,
    ChronicleQueues.OPEN_NIO_CH, ChronicleQueues.OPEN_REFLECT, ChronicleQueues.EXPORT_REF,
    ChronicleQueues.NO_ANALYTICS, ChronicleQueues.NO_BANNER, ChronicleQueues.LOG_WARN})
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@State(Scope.Benchmark)
public class ChronicleReplayBenchmark {
    /** Number of records written and replayed, e.g. {@code 1000000} (or {@code 1m}). */
    @Param("1000000")
    public String records;

    /** Payload bytes of each record. */
    @Param("64")
    public String recordSize;

    /**
     * Folder in which the queue's own sub-folder is created; empty for a temporary folder in
     * {@code java.io.tmpdir}. The sub-folder is deleted at the end of the trial.
     */
    @Param("")
    public String dir;

    private FileHome home;
    private Path folder;
    private SingleChronicleQueue queue;
    private long count;
    private long expectedChecksum;
    private long expectedBytes;

    /** Creates the state; JMH sets the parameters. */
    public ChronicleReplayBenchmark() {
    }

    /** Checks the parameters and writes the queue. */
    @Setup(Level.Trial)
    public void setupTrial() {
        int size = (int) Params.size(recordSize, "recordSize", ChronicleQueues.MAX_RECORD);
        count = Params.fileSize(records, "records");
        home = FileHome.open(dir);
        Bytes<?> buffer = null;
        try {
            folder = JournalFolder.create(home);
            queue = ChronicleQueues.open(folder);
            buffer = Bytes.allocateDirect(size);
            ByteBuffer payload = ByteBuffer.allocate(size).order(ByteOrder.BIG_ENDIAN);
            Checksum64 sum = new Checksum64();
            try (ExcerptAppender appender = queue.createAppender()) {
                for (long i = 0; i < count; i++) {
                    // The same bytes as JournalReplayBenchmark (a heap buffer's default byte order).
                    for (int j = 0; j + Long.BYTES <= size; j += Long.BYTES) {
                        payload.putLong(j, i * 0x9E3779B97F4A7C15L + j);
                    }
                    for (int j = size & ~7; j < size; j++) {
                        payload.put(j, (byte) (i + j));
                    }
                    sum.update(payload.array(), 0, size);
                    buffer.clear();
                    buffer.write(payload.array(), 0, size);
                    appender.writeBytes(buffer);
                }
            }
            expectedChecksum = sum.value();
            expectedBytes = sum.length();
        } catch (RuntimeException e) {
            tearDownTrial();
            throw e;
        } finally {
            if (buffer != null) {
                buffer.releaseLast();
            }
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
        long n = 0;
        long bytes = 0;
        try (ExcerptTailer tailer = queue.createTailer()) {
            for (;;) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    bytes += ChronicleQueues.checksum(dc.wire().bytes(), sum);
                    n++;
                }
            }
        }
        if (n != count || bytes != expectedBytes || sum.value() != expectedChecksum) {
            throw new IllegalStateException(String.format(
                    "replay mismatch: %s: %d records of %d bytes, checksum %016x; expected %d records of %d bytes,"
                            + " checksum %016x", describe(), n, bytes, sum.value(), count, expectedBytes,
                    expectedChecksum));
        }
        return sum.value();
    }

    /** Closes the queue and deletes its folder. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        try {
            if (queue != null) {
                queue.close();
            }
        } finally {
            queue = null;
            JournalFolder.delete(folder);
            folder = null;
            if (home != null) {
                home.close();
                home = null;
            }
        }
    }

    /** @return the queue's folder, while the trial runs (for tests) */
    Path folder() {
        return folder;
    }

    /** @return the open queue, while the trial runs (for tests) */
    SingleChronicleQueue queue() {
        return queue;
    }

    /** @return the checksum a correct pass returns (for tests) */
    long expectedChecksum() {
        return expectedChecksum;
    }

    private String describe() {
        return "chronicle records=" + records + " recordSize=" + recordSize;
    }
}
