package org.iolab.bench.store;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
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
 * What compression costs the reads: Bruno's employee workload on iolab's store (NONE) up to the measured phase,
 * then, untimed, a compaction with or without compression ({@code org.iolab.store.StoreOptions#withCompression}),
 * then the phase ({@code scan}: every record decoded; {@code get}: every employee in shuffled order, decoded), one per
 * pass (SingleShotTime, milliseconds). Each pass is checked as {@link StoreBenchmark}'s are (counts, id sums, every
 * record consistent, sampled gets), so a value that decodes wrong fails the run.
 *
 * <pre>java -jar iolab-benchmarks.jar StoreCompressionBenchmark -p dir=/work/tmp</pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g"})
@Warmup(iterations = 5)
@Measurement(iterations = 15)
@State(Scope.Thread)
public class StoreCompressionBenchmark {
    /** {@code off}: a plain compaction; {@code on}: a compaction that compresses the values. */
    @Param({"off", "on"})
    public String compression;

    /** {@code scan} or {@code get}. */
    @Param({"scan", "get"})
    public String phase;

    /** Employees put first (Bruno's 100,000). */
    @Param("100000")
    public String records;

    /** Folder for each iteration's store folder; empty for {@code java.io.tmpdir}. */
    @Param("")
    public String dir;

    private EmployeeWorkload workload;
    private Phase measured;
    private boolean compress;
    private Path folder;
    private WorkloadRun run;
    private long result;

    /** Creates the state; JMH sets the parameters. */
    public StoreCompressionBenchmark() {
    }

    /** Checks the parameters and encodes the employees. */
    @Setup(Level.Trial)
    public void setupTrial() {
        measured = Phase.parse(phase);
        if (measured != Phase.SCAN && measured != Phase.GET) {
            throw new IolabException("bad phase '" + phase + "': expected scan or get");
        }
        compress = switch (compression.trim()) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IolabException("bad compression '" + compression + "': expected on or off");
        };
        try {
            workload = new EmployeeWorkload(Integer.parseInt(records.trim()));
        } catch (NumberFormatException e) {
            throw new IolabException("bad records '" + records + "': expected a whole number such as 100000");
        }
        Folders.home(dir);
    }

    /** Fills a fresh store up to the phase, compacts it (compressing or not) and collects the garbage, untimed. */
    @Setup(Level.Iteration)
    public void setupIteration() {
        folder = Folders.create(dir, "store-compression-");
        IolabStoreEngine engine = new IolabStoreEngine(Backend.DEFAULT);
        run = new WorkloadRun(workload, engine, folder, Durability.NONE);
        try {
            run.prepare(measured);
            int symbols = engine.compact(compress);
            if (compress != (symbols > 0)) {
                throw new IolabException("compression " + compression + " but the store has " + symbols
                        + " symbols");
            }
        } catch (RuntimeException e) {
            discard();
            throw e;
        }
        System.gc();
    }

    /** @return the phase's result (the sum of the ids read) */
    @Benchmark
    public long phase() {
        result = run.run(measured);
        return result;
    }

    /** Checks the pass and the store, closes it and deletes the folder. */
    @TearDown(Level.Iteration)
    public void tearDownIteration() {
        try {
            run.check(measured, result);
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
}
