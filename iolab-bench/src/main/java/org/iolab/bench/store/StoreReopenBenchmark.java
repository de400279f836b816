package org.iolab.bench.store;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.storage.Durability;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;
import org.iolab.store.StoreStats;
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
 * The open of a closed store that holds {@code records} live records and {@code holes} holes (free slots its
 * checkpoint lists), plus one get, then its close: the cost of loading a checkpoint as the free space grows, which
 * the employee workload ({@link StoreBenchmark}'s {@code reopen} phase, with few holes left after its reinsert)
 * does not show.
 *
 * <p>The trial setup writes {@code records + holes} records of 40 to 59 value bytes at NONE, deletes every
 * other one of the first {@code 2 × holes} (so no two holes touch and none merge), and closes the store; the
 * trial teardown deletes the folder. Each call opens the store, checks one get and the live and hole counts, and
 * closes it (the close of an unchanged store writes nothing). Score: ms per open, get and close.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class StoreReopenBenchmark {
    /** Live records in the store. */
    @Param("100000")
    public String records;

    /** Holes in the store, at most {@code records}. */
    @Param({"0", "50000"})
    public String holes;

    /** Folder in which the store's own folder is created; empty for {@code java.io.tmpdir}. */
    @Param("")
    public String dir;

    private Path folder;
    private Path file;
    private long live;
    private long holeCount;
    private byte[] probe;

    /** Creates the state; JMH sets the parameters. */
    public StoreReopenBenchmark() {
    }

    /**
     * Writes the store.
     *
     * @throws IolabException when a parameter is bad
     */
    @Setup(Level.Trial)
    public void setupTrial() {
        live = Sizes.parse(records, "records");
        holeCount = Sizes.parse(holes, "holes");
        if (live < 1 || holeCount > live || live > 10_000_000) {
            throw new IolabException("bad records=" + records + " holes=" + holes
                    + ": give 1 to 10,000,000 records and at most as many holes");
        }
        folder = Folders.create(dir, "iolab-reopen-");
        file = folder.resolve("store.iolab");
        long total = live + holeCount;
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            for (long i = 0; i < total; i++) {
                s.put(key(i), value(i));
            }
            for (long i = 0; i < 2 * holeCount; i += 2) {
                s.delete(key(i));
            }
        } catch (RuntimeException e) {
            tearDownTrial();
            throw e;
        }
        probe = key(total - 1);
    }

    private static byte[] key(long i) {
        return ("employee-" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static byte[] value(long i) {
        byte[] v = new byte[40 + (int) (i * 0x9E3779B97F4A7C15L >>> 59) % 20];
        for (int j = 0; j < v.length; j++) {
            v[j] = (byte) (i + j);
        }
        return v;
    }

    /**
     * Opens the store, gets one record, closes it.
     *
     * @return the record's length
     * @throws IllegalStateException when the record, the live count or the hole count is wrong
     */
    @Benchmark
    public int reopen() {
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            byte[] v = s.get(probe);
            StoreStats st = s.stats();
            if (v == null || v.length != value(live + holeCount - 1).length || st.liveRecords() != live
                    || st.holes() != holeCount) {
                throw new IllegalStateException("reopen of " + file + ": record " + (v == null ? "missing"
                        : v.length + " bytes") + ", " + st.liveRecords() + " live records and " + st.holes()
                        + " holes; expected " + live + " and " + holeCount);
            }
            return v.length;
        }
    }

    /** Deletes the store's folder. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        if (folder != null) {
            Folders.delete(folder);
            folder = null;
        }
    }

    /** @return the store's folder, while the trial runs (for tests) */
    Path folder() {
        return folder;
    }
}
