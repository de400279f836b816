package org.iolab.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.bench.BenchmarkNames;
import org.iolab.os.FileSpace;
import org.iolab.os.Workspace;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs planned points with JMH, in a workspace that is removed afterwards. */
final class Execution {
    private final List<Point> points;
    private final List<JournalPoint> journal;
    private final List<StorePoint> store;
    private final double afterSeconds;
    private final Path parent;
    private final boolean verbose;
    private final boolean dropCaches;
    private final PrintStream err;

    /**
     * @param points the file points to run
     * @param journal the journal points to run after them
     * @param store the store points to run after those
     * @param afterSeconds estimated seconds of what runs after the points (for the progress line's ETA)
     * @param parent where the workspace is made
     * @param verbose show JMH's output
     * @param dropCaches cold passes use drop_caches
     * @param err where progress goes
     */
    Execution(List<Point> points, List<JournalPoint> journal, List<StorePoint> store, double afterSeconds, Path parent,
              boolean verbose, boolean dropCaches, PrintStream err) {
        this.points = points;
        this.journal = journal;
        this.store = store;
        this.afterSeconds = afterSeconds;
        this.parent = parent;
        this.verbose = verbose;
        this.dropCaches = dropCaches;
        this.err = err;
    }

    /** @return bytes the data files and the largest write file need */
    static long spaceNeeded(List<Point> points) {
        long data = dataSizes(points).stream().mapToLong(Long::longValue).sum();
        long write = points.stream().filter(p -> p.bench() == Bench.WRITE).mapToLong(Point::fileSize).max().orElse(0);
        return data + write;
    }

    /** @return the distinct sizes of the data files reads and random access need */
    static Set<Long> dataSizes(List<Point> points) {
        Set<Long> sizes = new LinkedHashSet<>();
        for (Point p : points) {
            if (p.bench() != Bench.WRITE) {
                sizes.add(p.fileSize());
            }
        }
        return sizes;
    }

    /** What runs after the last point, while the workspace and its data files still exist. */
    interface AfterPoints {
        /**
         * @param workDir the workspace folder (deleted afterwards)
         * @param dataFiles the data files the reads and random access used, by size
         * @param prepare makes a data file of a size that is not among them, in the workspace
         */
        void run(Path workDir, Map<Long, Path> dataFiles, Function<Long, Path> prepare);
    }

    /**
     * @param after what to do after the last point, before the workspace is removed
     * @return JMH's JSON of all points, with the throughput metric and the warm-up passes
     * @throws BenchmarkFailure when a point fails
     */
    ArrayNode run(AfterPoints after) {
        // iolab runs only in its own workspace; a JMH run of another tool does not stop it
        System.setProperty("jmh.ignoreLock", "true");
        List<Task> tasks = new ArrayList<>(points);
        tasks.addAll(journal);
        tasks.addAll(store);
        double total = tasks.stream().mapToDouble(Task::wallSeconds).sum() + afterSeconds;
        ProgressFormat progress = new ProgressFormat(err, total);
        List<RunResult> results = new ArrayList<>();
        List<List<List<Double>>> warmups = new ArrayList<>();
        Map<Long, Path> dataFiles = new LinkedHashMap<>();
        try (Workspace ws = Workspace.create(parent)) {
            FileSpace.requireFree(ws.dir(), spaceNeeded(points), "benchmark files");
            for (long size : dataSizes(points)) {
                String name = BenchmarkNames.dataFileName(size);
                ws.file(name + ".part");
                Path f = ws.file(name);
                if (!verbose) {
                    progress.message("preparing " + name + " (" + Sizes.format(size) + ")");
                }
                BenchmarkNames.prepareDataFile(f, size);
                dataFiles.put(size, f);
            }
            double done = 0;
            for (int i = 0; i < tasks.size(); i++) {
                Task p = tasks.get(i);
                if (verbose) {
                    err.printf(Locale.ROOT, "%n# iolab point %d/%d: %s%n", i + 1, tasks.size(), p.describe());
                } else {
                    progress.point(i + 1, tasks.size(), p, done);
                }
                PrintStream systemErr = System.err;
                if (!verbose) {
                    // JMH's own stderr noise (the JDK's sun.misc.Unsafe warning) goes to the kept output
                    System.setErr(new PrintStream(new java.io.OutputStream() {
                        @Override
                        public void write(int b) {
                            progress.write(b);
                        }
                    }, true, java.nio.charset.StandardCharsets.UTF_8));
                }
                try {
                    var opts = (switch (p) {
                        case JournalPoint j -> options(j, ws.dir());
                        case StorePoint sp -> options(sp, ws.dir());
                        default -> options((Point) p, ws.dir());
                    }).build();
                    WarmupRecorder recorder = new WarmupRecorder(verbose
                            ? OutputFormatFactory.createFormatInstance(systemOut(), VerboseMode.NORMAL) : progress);
                    for (RunResult r : new Runner(opts, recorder).run()) {
                        results.add(r);
                        warmups.add(recorder.take());
                    }
                } catch (RunnerException | RuntimeException e) {
                    System.setErr(systemErr);
                    progress.finish();
                    if (shuttingDown()) {
                        // Ctrl-C: JMH's own hook failed with "Shutdown in progress", which is no benchmark's failure
                        throw new IolabException("stopped (interrupted) during " + p.describe() + "; nothing of this"
                                + " run was kept", e);
                    }
                    throw failure(p, e, progress.recentOutput());
                } finally {
                    System.setErr(systemErr);
                }
                done += p.wallSeconds();
            }
            progress.finish();
            after.run(ws.dir(), dataFiles, size -> {
                String name = BenchmarkNames.dataFileName(size);
                ws.file(name + ".part");
                Path f = ws.file(name);
                if (!Files.exists(f)) {
                    BenchmarkNames.prepareDataFile(f, size);
                }
                return f;
            });
        }
        return Results.json(results, warmups);
    }

    /** @return System.out, which JMH's own format may flush but must not close */
    private static PrintStream systemOut() {
        return new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * @param p a point
     * @param dir the workspace
     * @return JMH options that run exactly that point
     */
    ChainedOptionsBuilder options(Point p, Path dir) {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(BenchmarkNames.includePattern(p.bench().jmhName()))
                .mode(Mode.SingleShotTime)
                .timeUnit(TimeUnit.MILLISECONDS)
                .warmupIterations(p.warmups())
                .measurementIterations(p.runs())
                .forks(p.forks())
                .shouldFailOnError(true)
                .param(BenchmarkNames.PARAM_METHOD, p.method().id())
                .param(BenchmarkNames.PARAM_FILE_SIZE, Long.toString(p.fileSize()))
                .param(BenchmarkNames.PARAM_DIR, dir.toString());
        switch (p.bench()) {
            case READ -> o.param(BenchmarkNames.PARAM_BUFFER_SIZE, Integer.toString(p.bufferSize()))
                    .param(BenchmarkNames.PARAM_CACHE, p.cache().label())
                    .param(BenchmarkNames.PARAM_EVICT, evict());
            case WRITE -> o.param(BenchmarkNames.PARAM_BUFFER_SIZE, Integer.toString(p.bufferSize()))
                    .param(BenchmarkNames.PARAM_PREALLOC, p.prealloc().label())
                    .param(BenchmarkNames.PARAM_SYNC, Boolean.toString(p.sync()));
            case RANDOM -> o.param(BenchmarkNames.PARAM_STRIDE, Long.toString(p.stride()))
                    .param(BenchmarkNames.PARAM_LENGTH, Integer.toString(p.length()))
                    .param(BenchmarkNames.PARAM_CACHE, p.cache().label())
                    .param(BenchmarkNames.PARAM_EVICT, evict());
            default -> throw new AssertionError(p.bench());
        }
        return o;
    }

    /**
     * @param p a journal point
     * @param dir the workspace (each trial makes and deletes its own journal folder in it)
     * @return JMH options that run exactly that point
     */
    static ChainedOptionsBuilder options(JournalPoint p, Path dir) {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(BenchmarkNames.includePattern(p.bench().jmhName()))
                .warmupIterations(p.warmups())
                .measurementIterations(p.runs())
                .forks(p.forks())
                .shouldFailOnError(true)
                .param("recordSize", Long.toString(p.recordSize()))
                .param(BenchmarkNames.PARAM_DIR, dir.toString());
        if (p.bench().append()) {
            TimeValue t = TimeValue.milliseconds(Math.max(1, Math.round(p.iterationSeconds() * 1000)));
            o.mode(Mode.Throughput).timeUnit(TimeUnit.SECONDS).warmupTime(t).measurementTime(t);
        } else if (p.bench().bulk()) {
            o.mode(Mode.SingleShotTime).timeUnit(TimeUnit.MILLISECONDS).param("totalSize",
                    Long.toString(p.totalSize()));
        } else {
            o.mode(Mode.SingleShotTime).timeUnit(TimeUnit.MILLISECONDS).param("records", Long.toString(p.records()));
        }
        if (!p.bench().chronicle()) {
            o.param("backend", p.backend());
        }
        if (p.durability() != null) {
            o.param("durability", p.durabilityParam());
        }
        return o;
    }

    /**
     * @param p a store point
     * @param dir the workspace (each iteration makes and deletes its own store folder in it)
     * @return JMH options that run exactly that point (single shot, milliseconds per phase)
     */
    static ChainedOptionsBuilder options(StorePoint p, Path dir) {
        return new OptionsBuilder()
                .include(BenchmarkNames.includePattern(BenchmarkNames.STORE))
                .mode(Mode.SingleShotTime)
                .timeUnit(TimeUnit.MILLISECONDS)
                .warmupIterations(p.warmups())
                .measurementIterations(p.runs())
                .forks(p.forks())
                .shouldFailOnError(true)
                .param("engine", p.engine())
                .param("durability", p.durabilityParam())
                .param("phase", p.phase())
                .param("records", Integer.toString(p.records()))
                .param(BenchmarkNames.PARAM_DIR, dir.toString());
    }

    private String evict() {
        return dropCaches ? "drop-caches" : "fadvise";
    }

    /** @return whether the JVM is shutting down (Ctrl-C): a shutdown hook can no longer be added then */
    static boolean shuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    /**
     * @param p the point that failed
     * @param e what JMH threw
     * @param output JMH's last lines
     * @return a failure naming the method, its parameters and the root cause
     */
    static BenchmarkFailure failure(Task p, Throwable e, String output) {
        String root = rootMessage(e);
        if (root == null) {
            List<String> tail = output.lines().filter(l -> !l.isBlank()).toList();
            root = String.join("\n  ", tail.subList(Math.max(0, tail.size() - 12), tail.size()));
        }
        return new BenchmarkFailure("BENCHMARK FAILED: " + p.describe() + ": " + root);
    }

    /**
     * @param e a throwable
     * @return the message of the deepest cause (or suppressed exception) that has one and is not JMH's
     *     wrapper, preferring a checksum mismatch; null when none has
     */
    static String rootMessage(Throwable e) {
        List<Throwable> all = new ArrayList<>();
        collect(e, all, new HashSet<>());
        for (Throwable t : all) {
            if (t.getMessage() != null && t.getMessage().contains("checksum mismatch")) {
                return t.getMessage();
            }
        }
        String best = null;
        for (Throwable t : all) {
            String m = t.getMessage();
            if (m != null && !m.isBlank() && !m.startsWith("Benchmark caught the exception")
                    && !(t instanceof RunnerException) && !t.getClass().getName().startsWith("org.openjdk.jmh")) {
                best = t instanceof org.iolab.IolabException ? m : t.getClass().getName() + ": " + m;
            }
        }
        return best;
    }

    private static void collect(Throwable t, List<Throwable> out, Set<Throwable> seen) {
        if (t == null || !seen.add(t)) {
            return;
        }
        out.add(t);
        collect(t.getCause(), out, seen);
        for (Throwable s : t.getSuppressed()) {
            collect(s, out, seen);
        }
    }
}
