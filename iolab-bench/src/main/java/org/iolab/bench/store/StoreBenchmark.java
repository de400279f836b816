package org.iolab.bench.store;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.os.PageCache;
import org.iolab.storage.Durability;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Bruno's employee workload, one phase per measured pass (SingleShotTime, milliseconds per phase).
 *
 * <p>Every iteration starts from a fresh folder: the setup opens the engine and runs the phases before
 * {@code phase} untimed (each checked); the measured method runs {@code phase} once (a put, delete or reinsert at
 * {@code batch} or {@code always} ending with the engine's sync, so its operations are durable when the time stops);
 * the teardown checks
 * its result and the whole store (see {@link WorkloadRun}) — a wrong count, sum or value fails the run —
 * then closes the engine, measures its folder and deletes it. The setup ends with a {@code System.gc()}, so no
 * pass pays for collecting the untimed phases' garbage, and at BATCH and ALWAYS with a {@code sync} of the whole
 * machine ({@link PageCache#writeBackAll()}), so no synced pass queues behind earlier writing. The {@code reopen}
 * phase measures the open of a closed store (with all other phases done) plus one get; the close before it is
 * untimed.
 *
 * <p>Size on disk: the secondary result {@code sizeBytes} ({@link Size}) is the score to read: the mean,
 * over the measured iterations of all forks, of the folder's size in bytes after the phase, with the
 * engine closed. (JMH sums an {@code EVENTS} counter over iterations and forks, so each iteration reports
 * its size divided by {@code measurementIterations × forks}; the per-iteration lines show that share, the
 * score the mean size.) The size after {@code reopen} is the workload's final size.
 *
 * <p>The peers' JVM flags (LMDB's and Chronicle Map's opens and exports) are in this class's {@code @Fork}
 * only; iolab itself needs none of them.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g",
    "--sun-misc-unsafe-memory-access=allow",
    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
    // Chronicle's libraries otherwise report usage to Google Analytics (and write ~/.chronicle.analytics.*)
    "-Dchronicle.analytics.disable=true"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@State(Scope.Thread)
public class StoreBenchmark {
    /** Engine name, see {@link Engines#names()}: {@code iolab}, {@code iolab-<backend>}, or a peer. */
    @Param({"iolab", "bruno-mbb", "mvstore", "mapdb", "rocksdb", "lmdb", "sqlite", "chronicle-map"})
    public String engine;

    /** {@code none}, {@code batch} or {@code always} (use fewer {@code records} with always). */
    @Param("none")
    public String durability;

    /** {@code put}, {@code scan}, {@code get}, {@code delete}, {@code reinsert} or {@code reopen}. */
    @Param({"put", "scan", "get", "delete", "reinsert", "reopen"})
    public String phase;

    /** Employees put in the first phase (Bruno's 100,000). */
    @Param("100000")
    public String records;

    /**
     * Folder in which each iteration's store folder is created; empty for {@code java.io.tmpdir}. The store
     * folder is deleted after each iteration.
     */
    @Param("")
    public String dir;

    private EmployeeWorkload workload;
    private Phase measured;
    private Durability level;
    private Path folder;
    private WorkloadRun run;
    private long result;
    private int shares = 1;

    /** The store's size after the phase, reported as the secondary result {@code sizeBytes}. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Size {
        /** Bytes in the store's folder after the phase, engine closed, divided by iterations × forks. */
        public double sizeBytes;

        /** Creates the counter. */
        public Size() {
        }

        /** Zeroes it before each iteration. */
        @Setup(Level.Iteration)
        public void reset() {
            sizeBytes = 0;
        }
    }

    /** Creates the state; JMH sets the parameters. */
    public StoreBenchmark() {
    }

    /**
     * Checks the parameters and encodes the employees (once per trial).
     *
     * @param params JMH's run parameters: the measured iterations and forks the size is shared among
     */
    @Setup(Level.Trial)
    public void setupTrial(BenchmarkParams params) {
        setupTrial(Math.max(1, params.getMeasurement().getCount()) * Math.max(1, params.getForks()));
    }

    /**
     * @param shares what each iteration's size is divided by (see the class comment); 1 outside JMH
     */
    void setupTrial(int shares) {
        this.shares = shares;
        measured = Phase.parse(phase);
        level = Durability.parse(durability);
        int n;
        try {
            n = Integer.parseInt(records.trim());
        } catch (NumberFormatException e) {
            throw new IolabException("bad records '" + records + "': expected a whole number such as 100000");
        }
        workload = new EmployeeWorkload(n);
        Engines.create(engine); // fails early, naming the engine, when it is unknown
        Folders.home(dir);
    }

    /** Creates a fresh folder and brings a new engine to the state before the measured phase, untimed. */
    @Setup(Level.Iteration)
    public void setupIteration() {
        folder = Folders.create(dir, "store-" + engine + "-");
        run = new WorkloadRun(workload, Engines.create(engine), folder, level);
        try {
            run.prepare(measured);
        } catch (RuntimeException e) {
            discard();
            throw e;
        }
        // the untimed phases before this one leave garbage behind (the checks decode every record); without a
        // collection here, some passes pay for a young collection of it and others do not, for every engine alike
        System.gc();
        if (level != Durability.NONE) {
            // a synced pass must not queue its syncs behind the earlier points' or phases' writing (measured: iolab's
            // BATCH put, the first BATCH point of a run, 82 ms after the NONE block, 40 ms on a quiet machine)
            PageCache.writeBackAll();
        }
    }

    /**
     * Runs the phase.
     *
     * @param size the size counter (set by the teardown)
     * @return the phase's result
     */
    @Benchmark
    public long phase(Size size) {
        result = run.run(measured);
        sizeHolder = size;
        return result;
    }

    private Size sizeHolder;

    /**
     * Checks the phase's result and the store, records its size, closes the engine and deletes the folder.
     *
     * @throws WorkloadCheckException when the engine lost, kept or garbled a record
     */
    @TearDown(Level.Iteration)
    public void tearDownIteration() {
        try {
            run.check(measured, result);
            long bytes = run.closeAndMeasure();
            if (sizeHolder != null) {
                sizeHolder.sizeBytes = (double) bytes / shares;
            }
        } finally {
            discard();
        }
    }

    private void discard() {
        try {
            if (run != null) {
                run.close();
            }
        } finally {
            run = null;
            Folders.delete(folder);
            folder = null;
        }
    }

    /** @return the current iteration's store folder (for tests) */
    Path folder() {
        return folder;
    }
}
