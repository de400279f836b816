package org.iolab.bench;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
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
 * The peer of {@link JournalAppendBenchmark}: appends of {@code recordSize}-byte records to a Chronicle Queue
 * by a single writer thread, through its fastest path for opaque bytes,
 * {@link ExcerptAppender#writeBytes(net.openhft.chronicle.bytes.BytesStore)} from a native buffer (one
 * excerpt per record, no wire encoding of the payload). Chronicle never syncs by itself (its appends reach
 * the page cache only), which is what iolab's {@code Durability.NONE} does, so compare with that level.
 *
 * <p>The primary score is appends per second; the secondary metric {@code bytes} ({@link AppendedBytes}) is payload
 * bytes per second, as in {@link JournalAppendBenchmark}.
 *
 * <p>Each trial opens a fresh queue in a new sub-folder of {@code dir} (see {@link ChronicleQueues#open}); at
 * the end of the trial the queue's excerpt count is checked against the appends made, the last
 * 1000 excerpts are read back and compared with the payload, and the folder is deleted. A
 * mismatch fails the trial. The fork gets the JVM flags Chronicle needs on JDK 25 ({@link ChronicleQueues}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g", ChronicleQueues.NATIVE, ChronicleQueues.UNSAFE,
    ChronicleQueues.OPEN_NIO_CH, ChronicleQueues.OPEN_REFLECT, ChronicleQueues.EXPORT_REF,
    ChronicleQueues.NO_ANALYTICS, ChronicleQueues.NO_BANNER, ChronicleQueues.LOG_WARN})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class ChronicleAppendBenchmark {
    /** Excerpts read back at the end of a trial to check the queue (the last ones appended). */
    static final int CHECKED = 1000;

    /** Payload bytes of each record, e.g. {@code 64}, {@code 1024}, {@code 4096}, {@code 65536} (or {@code 4k}). */
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
    private ExcerptAppender appender;
    private Bytes<?> payload;
    private long payloadChecksum;
    private int size;
    private long appended;

    /** Creates the state; JMH sets the parameters. */
    public ChronicleAppendBenchmark() {
    }

    /** Checks the parameters and opens a fresh queue in a new folder. */
    @Setup(Level.Trial)
    public void setupTrial() {
        size = (int) Params.size(recordSize, "recordSize", ChronicleQueues.MAX_RECORD);
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        payloadChecksum = Checksum64.of(bytes);
        appended = 0;
        home = FileHome.open(dir);
        try {
            folder = JournalFolder.create(home);
            queue = ChronicleQueues.open(folder);
            appender = queue.createAppender();
            payload = Bytes.allocateDirect(bytes);
        } catch (RuntimeException e) {
            tearDownTrial();
            throw e;
        }
    }

    /**
     * Appends one record.
     *
     * @param counters the byte counter
     */
    @Benchmark
    public void append(AppendedBytes counters) {
        appender.writeBytes(payload);
        appended++;
        counters.bytes += size;
    }

    /**
     * Checks that the queue holds exactly the records appended, the last of them intact, then closes the
     * queue and deletes its folder.
     *
     * @throws IllegalStateException when the excerpt count or a checked excerpt is wrong
     */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        try {
            if (queue != null) {
                verify();
            }
        } finally {
            if (appender != null) {
                appender.close();
                appender = null;
            }
            if (queue != null) {
                queue.close();
                queue = null;
            }
            if (payload != null) {
                payload.releaseLast();
                payload = null;
            }
            JournalFolder.delete(folder);
            folder = null;
            if (home != null) {
                home.close();
                home = null;
            }
        }
    }

    /**
     * Reads the last 1000 excerpts back (newest first) and compares each with the payload,
     * then compares the queue's excerpt count with the appends made.
     *
     * @throws IllegalStateException naming what differs
     */
    void verify() {
        long expected = Math.min(CHECKED, appended);
        long read = 0;
        try (ExcerptTailer tailer = queue.createTailer()) {
            tailer.direction(TailerDirection.BACKWARD).toEnd();
            while (read < CHECKED) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    Checksum64 sum = new Checksum64();
                    int length = ChronicleQueues.checksum(dc.wire().bytes(), sum);
                    if (length != size || sum.value() != payloadChecksum) {
                        throw new IllegalStateException(String.format("chronicle queue %s: excerpt %d from the end"
                                + " has %d bytes, checksum %016x; expected %d bytes, checksum %016x", describe(),
                                read, length, sum.value(), size, payloadChecksum));
                    }
                    read++;
                }
            }
        }
        long count = queue.entryCount();
        if (read != expected || count != appended) {
            throw new IllegalStateException("chronicle queue " + describe() + " holds " + count + " excerpts ("
                    + read + " of the last " + expected + " read back) after " + appended + " appends");
        }
    }

    /** @return appends made in this trial (for tests) */
    long appended() {
        return appended;
    }

    /** @return the queue's folder, while the trial runs (for tests) */
    Path folder() {
        return folder;
    }

    /** @return the open queue, while the trial runs (for tests) */
    SingleChronicleQueue queue() {
        return queue;
    }

    private String describe() {
        return "recordSize=" + recordSize;
    }
}
