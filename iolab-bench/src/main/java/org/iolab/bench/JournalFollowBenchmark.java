package org.iolab.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.iolab.journal.Record;
import org.iolab.journal.Tailer;
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
 * A reader following another writer through the files only, as {@code iolab journal tail} follows another process:
 * each call appends one record of {@code recordSize} bytes with the writer, then polls a tailer of a
 * {@link Journal#openReadOnly read-only} journal of the same folder (which shares no state with the writer) until
 * it has that record, and checks its sequence and length. Score: µs per record appended and read.
 *
 * <p>The trial setup opens both journals (durability {@code none}) in a new sub-folder of {@code dir}; the trial
 * teardown closes them and deletes the folder. 256 MiB segments: the run never rolls one.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class JournalFollowBenchmark {
    /** Storage backend of both journals. */
    @Param("segment")
    public String backend;

    /** Payload bytes of each record. */
    @Param("100")
    public String recordSize;

    /** Folder in which the journal's own sub-folder is created; empty for {@code java.io.tmpdir}. */
    @Param("")
    public String dir;

    private FileHome home;
    private Path folder;
    private Journal writer;
    private Journal reader;
    private Tailer tailer;
    private byte[] payload;

    /** Creates the state; JMH sets the parameters. */
    public JournalFollowBenchmark() {
    }

    /** Opens the writer, the read-only journal and its tailer. */
    @Setup(Level.Trial)
    public void setupTrial() {
        JournalOptions options = JournalFolder.options(backend, "none", "256m");
        payload = new byte[(int) Params.size(recordSize, "recordSize", 1 << 20)];
        home = FileHome.open(dir);
        try {
            folder = JournalFolder.create(home);
            writer = Journal.open(folder, options);
            reader = Journal.openReadOnly(folder, options);
            tailer = reader.tailer(0);
        } catch (RuntimeException e) {
            tearDownTrial();
            throw e;
        }
    }

    /**
     * Appends one record and reads it back through the read-only journal.
     *
     * @return its sequence
     * @throws IllegalStateException when the tailer returns another record, or none within a second
     */
    @Benchmark
    public long appendThenFollow() {
        long seq = writer.append(payload);
        Record r = tailer.poll(Duration.ZERO);
        if (r == null) {
            r = tailer.poll(Duration.ofSeconds(1));
        }
        if (r == null || r.sequence() != seq || r.payload().length != payload.length) {
            throw new IllegalStateException("the read-only tailer of " + folder + " returned " + (r == null ? "nothing"
                    : "record " + r.sequence() + " of " + r.payload().length + " bytes") + " for record " + seq
                    + " of " + payload.length + " bytes");
        }
        return seq;
    }

    /** Closes both journals and deletes the folder. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        try {
            if (tailer != null) {
                tailer.close();
            }
            if (reader != null) {
                reader.close();
            }
            if (writer != null) {
                writer.close();
            }
        } finally {
            tailer = null;
            reader = null;
            writer = null;
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
}
