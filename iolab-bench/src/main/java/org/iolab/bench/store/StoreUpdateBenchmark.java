package org.iolab.bench.store;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.storage.Durability;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;
import java.util.Arrays;
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
 * One pass of updates: every one of {@code records} existing keys gets a new value of the same size, at
 * {@code durability}, then one {@code sync()}. An update leaves its old slot free, and at BATCH that free becomes a
 * hole only once the update is durable; this measures what waiting for that costs (the employee workload has no
 * updates).
 *
 * <p>The trial setup writes the records (100-byte values) at NONE and closes the store; each iteration opens it at
 * {@code durability}; the iteration teardown checks every value of the last pass and the file's growth, and closes
 * it; the trial teardown deletes the folder. Score: ms per pass.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@State(Scope.Benchmark)
public class StoreUpdateBenchmark {
    /** Keys updated per pass. */
    @Param("20000")
    public String records;

    /** {@code none}, {@code batch} or {@code always}. */
    @Param({"none", "batch"})
    public String durability;

    /** Folder in which the store's own folder is created; empty for {@code java.io.tmpdir}. */
    @Param("")
    public String dir;

    private Path folder;
    private Path file;
    private int count;
    private Durability level;
    private Store store;
    private int round;

    /** Creates the state; JMH sets the parameters. */
    public StoreUpdateBenchmark() {
    }

    /**
     * Writes the store.
     *
     * @throws IolabException when a parameter is bad
     */
    @Setup(Level.Trial)
    public void setupTrial() {
        long n = Sizes.parse(records, "records");
        if (n < 1 || n > 10_000_000) {
            throw new IolabException("bad records=" + records + ": give 1 to 10,000,000");
        }
        count = (int) n;
        level = Durability.parse(durability);
        folder = Folders.create(dir, "iolab-update-");
        file = folder.resolve("store.iolab");
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            for (int i = 0; i < count; i++) {
                s.put(key(i), value(i, 0));
            }
        } catch (RuntimeException e) {
            tearDownTrial();
            throw e;
        }
    }

    /** Opens the store at {@code durability}. */
    @Setup(Level.Iteration)
    public void open() {
        store = Store.open(file, StoreOptions.defaults().withDurability(level));
    }

    private static byte[] key(int i) {
        return ("employee-" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i, int round) {
        byte[] v = new byte[100];
        Arrays.fill(v, (byte) (i * 31 + round));
        return v;
    }

    /**
     * Updates every key once, then syncs.
     *
     * @return the last update's sequence
     */
    @Benchmark
    public long pass() {
        round++;
        long seq = 0;
        for (int i = 0; i < count; i++) {
            seq = store.put(key(i), value(i, round));
        }
        store.sync();
        return seq;
    }

    /**
     * Checks every value of the last pass and that the data grew by at most a 32nd or 64 KiB plus a slot per
     * length (holes are reused), then closes the store.
     *
     * @throws IllegalStateException when a value is wrong or the file kept growing
     */
    @TearDown(Level.Iteration)
    public void check() {
        try {
            for (int i = 0; i < count; i++) {
                if (!Arrays.equals(store.get(key(i)), value(i, round))) {
                    throw new IllegalStateException("update pass " + round + " of " + file + ": key " + i
                            + " does not hold its last value");
                }
            }
            long live = store.stats().storedBytes();
            long end = store.stats().dataEnd();
            if (end > live + Math.max(live / 16, 256 << 10)) {
                throw new IllegalStateException("update pass " + round + " of " + file + ": the data end " + end
                        + " is far past the " + live + " live slot bytes (holes not reused)");
            }
        } finally {
            store.close();
            store = null;
        }
    }

    /** Deletes the store's folder. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        if (store != null) {
            store.close();
            store = null;
        }
        if (folder != null) {
            Folders.delete(folder);
            folder = null;
        }
    }

    /** @return the open store, during an iteration (for tests) */
    Store store() {
        return store;
    }

    /** @return the store's folder, while the trial runs (for tests) */
    Path folder() {
        return folder;
    }
}
