package org.iolab.bench.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.iolab.store.CompactResult;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;

/**
 * iolab's store size on Bruno's employee workload before and after {@link Store#compact()}, against the live key and
 * value bytes: the record store's two size targets (at most 1.5× the live data before compaction, 1.1× after), and
 * after a compaction with compression ({@link StoreOptions#withCompression}).
 * Sizes are deterministic (the same workload writes the same bytes), so one run is the figure; it is a size, not a
 * timing, hence not a JMH benchmark.
 *
 * <pre>java -cp iolab-bench/target/iolab-benchmarks.jar org.iolab.bench.store.CompactedSize [records] [folder]</pre>
 */
public final class CompactedSize {
    /**
     * The figures of one run.
     *
     * @param records employees put first
     * @param liveBytes key and value bytes live after the workload
     * @param before the store's folder after the workload, closed (bytes)
     * @param after the folder after {@link Store#compact()} and a close (bytes)
     * @param compressed the folder after a compaction with compression and a close (bytes)
     * @param symbols the symbols of that compaction's table
     */
    public record Sizes(int records, long liveBytes, long before, long after, long compressed, int symbols) {
        /** @return the size before compaction / the live data */
        public double beforeRatio() {
            return (double) before / liveBytes;
        }

        /** @return the size after compaction / the live data */
        public double afterRatio() {
            return (double) after / liveBytes;
        }

        /** @return the size after a compaction with compression / the live data */
        public double compressedRatio() {
            return (double) compressed / liveBytes;
        }
    }

    private CompactedSize() {
    }

    /**
     * Runs the workload (put, scan, get, delete half, reinsert, each checked) on iolab's store at NONE, closes it,
     * measures the folder, compacts, closes and measures again, then compacts with compression, checks every
     * record against the workload and measures a third time.
     *
     * @param records employees put first
     * @param dir an empty folder for the store (left holding it)
     * @return the sizes
     */
    public static Sizes measure(int records, Path dir) {
        EmployeeWorkload workload = new EmployeeWorkload(records);
        long before;
        try (WorkloadRun run = new WorkloadRun(workload, new IolabStoreEngine(org.iolab.storage.Backend.DEFAULT), dir,
                Durability.NONE)) {
            run.prepare(Phase.REOPEN);
            before = run.closeAndMeasure();
        }
        try (Store store = Store.open(IolabStoreEngine.file(dir), StoreOptions.defaults()
                .withDurability(Durability.NONE))) {
            CompactResult r = store.compact();
            if (r.records() != workload.liveCount(Phase.REOPEN)) {
                throw new IolabException("compaction kept " + r.records() + " records, expected "
                        + workload.liveCount(Phase.REOPEN));
            }
        }
        long after = Folders.size(dir);
        int symbols;
        try (Store store = Store.open(IolabStoreEngine.file(dir), StoreOptions.defaults()
                .withDurability(Durability.NONE).withCompression(true))) {
            store.compact();
            symbols = store.stats().symbols();
            checkAll(store, workload);
        }
        return new Sizes(records, workload.liveBytes(Phase.REOPEN), before, after, Folders.size(dir), symbols);
    }

    /** Checks that the store holds exactly the workload's live records after its last phase, value for value. */
    private static void checkAll(Store store, EmployeeWorkload workload) {
        long live = 0;
        for (int i = 0; i < workload.records() + workload.reinserted(); i++) {
            byte[] got = store.get(workload.key(i));
            if (workload.live(Phase.REOPEN, i)) {
                live++;
                if (!java.util.Arrays.equals(got, workload.value(i))) {
                    throw new IolabException("after the compression, employee " + i + " reads back wrong");
                }
            } else if (got != null) {
                throw new IolabException("after the compression, deleted employee " + i + " is back");
            }
        }
        if (store.size() != live) {
            throw new IolabException("after the compression the store holds " + store.size() + " records, not "
                    + live);
        }
    }

    /**
     * @param args {@code [records] [folder]}: 100,000 and a temporary folder by default
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * @param args see {@link #main}
     * @param out receives the figures
     * @param err receives errors
     * @return the exit code
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            int records = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 100_000;
            if (records < 2 || records > EmployeeWorkload.MAX_RECORDS) {
                throw new IolabException("records must be 2 to " + EmployeeWorkload.MAX_RECORDS + ", not " + records);
            }
            Path parent = args.length > 1 ? Path.of(args[1]) : Path.of(System.getProperty("java.io.tmpdir"));
            Path dir = Files.createTempDirectory(parent, "iolab-compacted-size-");
            try {
                Sizes s = measure(records, dir);
                out.printf("records %d, live key+value bytes %d%n", s.records(), s.liveBytes());
                out.printf("after the workload (put, delete half, reinsert): %d bytes = %.3f x live (target <= 1.5)%n",
                        s.before(), s.beforeRatio());
                out.printf("after compact():                                 %d bytes = %.3f x live (target <= 1.1)%n",
                        s.after(), s.afterRatio());
                out.printf("after compact() with compression (%3d symbols):   %d bytes = %.3f x live (target <= 1.1)%n",
                        s.symbols(), s.compressed(), s.compressedRatio());
                return 0;
            } finally {
                Folders.delete(dir);
            }
        } catch (NumberFormatException e) {
            err.println("iolab: records must be a whole number: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("iolab: cannot create the store's folder: " + e.getMessage());
            return 1;
        } catch (IolabException e) {
            err.println("iolab: " + e.getMessage());
            return 1;
        }
    }
}
