package org.iolab.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.iolab.os.PageCache;
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
 * One pass writes {@code totalSize} bytes of {@code recordSize}-byte records into a fresh journal and ends with
 * {@link Journal#sync()}, so the score (ms per pass) includes getting every byte to the device: the journal's
 * counterpart of {@code fio --rw=write --bs=<recordSize> --size=<totalSize> --end_fsync=1} (durability
 * {@code none}) and, with durability {@code batch}, of the same with {@code --fdatasync=N} where N records make
 * one group-commit byte threshold ({@link JournalOptions#batchBytes()}).
 *
 * <p>Payload MB/s = {@code totalSize / (score × 1000)}. Each iteration waits for the machine's dirty pages to be
 * written ({@code sync}) and opens a fresh journal in a new sub-folder of {@code dir} (untimed); the iteration's
 * teardown checks the record count and the last record, closes the journal, deletes the folder and runs the garbage
 * collector (which releases the mappings the check and the {@code mapped} backend leave behind).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g",
    "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@State(Scope.Thread)
public class JournalBulkBenchmark {
    /** Storage backend: {@code raf}, {@code channel-heap}, {@code channel-direct}, {@code mapped}, {@code segment}. */
    @Param("segment")
    public String backend;

    /** {@code none} or {@code batch} ({@code always} works but syncs every record). */
    @Param("none")
    public String durability;

    /** Payload bytes of each record, e.g. {@code 64k}. */
    @Param("64k")
    public String recordSize;

    /** Payload bytes written per pass, e.g. {@code 1g}. */
    @Param("1g")
    public String totalSize;

    /** Size of each segment file, e.g. {@code 256m} (the journal's default). */
    @Param("256m")
    public String segmentSize;

    /** {@code true} or {@code false}: {@link JournalOptions#withPrefault(boolean)}. */
    @Param("true")
    public String prefault;

    /** {@code none}, {@code zero-fill} or {@code fallocate}: how each segment is preallocated. */
    @Param("fallocate")
    public String prealloc;

    /** Folder in which each pass's journal folder is created; empty for {@code java.io.tmpdir}. */
    @Param("")
    public String dir;

    private JournalOptions options;
    private FileHome home;
    private Path folder;
    private Journal journal;
    private ByteBuffer payload;
    private long count;

    /** Creates the state; JMH sets the parameters. */
    public JournalBulkBenchmark() {
    }

    /** Checks the parameters. */
    @Setup(Level.Trial)
    public void setupTrial() {
        options = JournalFolder.options(backend, durability, segmentSize)
                .withPrefault(Params.bool(prefault, "prefault"))
                .withPreallocation(preallocation());
        int size = (int) Params.size(recordSize, "recordSize", Math.min(options.maxRecordSize(), Params.MAX_BUFFER));
        long total = Params.fileSize(totalSize, "totalSize");
        if (size == 0 || total < size) {
            throw new IolabException("bad recordSize/totalSize " + recordSize + "/" + totalSize
                    + ": the records must not be empty and the total must hold at least one");
        }
        count = total / size;
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        payload = ByteBuffer.wrap(bytes);
        home = FileHome.open(dir);
    }

    private Preallocation preallocation() {
        try {
            return Preallocation.parse(String.valueOf(prealloc));
        } catch (IolabException e) {
            throw new IolabException("bad prealloc '" + prealloc + "': expected none, zero-fill or fallocate");
        }
    }

    /**
     * Lets the machine's earlier writing reach the device ({@link PageCache#writeBackAll()}: a pass ends with a sync,
     * which must not queue behind another pass's or a deleted folder's pages), then opens a fresh journal.
     */
    @Setup(Level.Iteration)
    public void setupIteration() {
        PageCache.writeBackAll();
        folder = JournalFolder.create(home);
        journal = Journal.open(folder, options);
    }

    /**
     * Appends {@code totalSize / recordSize} records, then syncs.
     *
     * @return the next sequence
     */
    @Benchmark
    public long pass() {
        Journal j = journal;
        ByteBuffer p = payload;
        for (long i = 0; i < count; i++) {
            p.clear();
            j.append(p);
        }
        j.sync();
        return j.nextSequence();
    }

    /**
     * Checks the journal holds the records appended, closes it and deletes its folder.
     *
     * @throws IllegalStateException when a record is missing or wrong
     */
    @TearDown(Level.Iteration)
    public void tearDownIteration() {
        try {
            if (journal != null) {
                long next = journal.nextSequence();
                long durable = journal.durableSequence();
                if (next != count || durable != count - 1) {
                    throw new IllegalStateException("journal " + describe() + ": next sequence " + next
                            + ", durable " + durable + " after " + count + " appends and a sync");
                }
                int[] length = {-1};
                journal.read(count - 1, (seq, p) -> {
                    length[0] = p.remaining() == payload.capacity() && p.get(p.limit() - 1)
                            == payload.get(payload.capacity() - 1) ? p.remaining() : -2;
                    return false;
                });
                if (length[0] != payload.capacity()) {
                    throw new IllegalStateException("journal " + describe() + ": the last record reads back wrong");
                }
            }
        } finally {
            if (journal != null) {
                journal.close();
                journal = null;
            }
            JournalFolder.delete(folder);
            folder = null;
            // the check's read lent a mapping of the segment that only the garbage collector releases (and the
            // mapped backend's own mappings are released the same way): a deleted segment keeps its pages and blocks
            // until then, and with 15 of them held (256 MiB each) the next passes' appends took 190 ms instead of 30
            // on this machine, an effect of the harness and not of the pass; collected here, untimed
            System.gc();
        }
    }

    /** Releases the folder home. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        if (home != null) {
            home.close();
            home = null;
        }
    }

    /** @return records per pass (for tests) */
    long count() {
        return count;
    }

    private String describe() {
        return "backend=" + backend + " durability=" + durability + " recordSize=" + recordSize + " totalSize="
                + totalSize;
    }
}
