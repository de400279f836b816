package org.iolab.bench.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.iolab.IolabException;
import org.iolab.bench.CommandLineOptions;
import org.iolab.storage.Durability;
import org.iolab.store.Store;

/**
 * Per-put latency of the employee benchmark's engines: {@code puts} of Bruno's employees
 * ({@link EmployeeWorkload}) into a fresh store, each put timed on its own into an HdrHistogram, and the puts
 * per second of the whole loop. The JMH store benchmark ({@link StoreBenchmark}) times whole phases; this
 * harness says how those puts are distributed, e.g. the p99 of a put at ALWAYS (one fsync each) beside
 * SQLite's {@code synchronous=FULL}.
 *
 * <h2>What is measured</h2>
 * A closed loop on one thread, as the put phase of the benchmark: each put is called as soon as the previous
 * one returned. First {@code warmup} employees are put and not recorded (class loading, JIT, the store's first
 * allocations), then {@code puts} more, each recorded as {@code nanoTime()} after the return minus before the
 * call: the latency a caller of {@code put} sees (mode {@value #PUT}). There is no schedule, so a stall delays
 * the puts after it instead of being charged to them: these are service times, not the latency of an
 * open-loop client (see {@code org.iolab.bench.JournalLatency} for that). Puts per second are the recorded puts
 * over the time from the first recorded call to the last return.
 *
 * <p>For iolab's store at {@link Durability#BATCH} {@code put} returns before its record is durable; a
 * watcher thread then also records, for every put, the time from its call to the moment
 * {@link Store#awaitDurable(long)} returned for it (or a group commit that covered a later put woke the
 * watcher): mode {@value #DURABLE}, the append-to-durable time. At ALWAYS the two are the same (the put
 * returns after its sync), so only {@value #PUT} is reported.
 *
 * <p>After the loop every employee put is read back ({@code get}, value compared byte by byte) and a scan
 * must count exactly the employees put; otherwise the point fails. Each point runs in a fresh sub-folder of
 * {@code dir}, deleted at the end.
 *
 * <p>The peers need JVM flags (LMDB's opens, see {@link StoreBenchmark}'s {@code @Fork}); {@code iolab bench}
 * starts this class in a child JVM with them.
 */
public final class StoreLatency {
    /** Mode: from the call of {@code put} to its return. */
    public static final String PUT = "put";
    /** Mode: from the call of {@code put} to the moment the store reported the put durable. */
    public static final String DURABLE = "durable";
    /** Most puts (warm-up included) one point accepts. */
    public static final int MAX_PUTS = 1_000_000;
    private static final int SIGNIFICANT_DIGITS = 3;
    private static final long WATCHER_PARK_NANOS = 20_000;
    private static final Duration WATCHER_WAIT = Duration.ofSeconds(30);
    private static final String USAGE = "usage: StoreLatency [--dir D] [--points ENGINE:LEVEL,...] [--puts N]"
            + " [--warmup N]  (e.g. --points iolab:always,sqlite:always,iolab:batch)";

    private StoreLatency() {
    }

    /**
     * One engine at one durability level.
     *
     * @param engine an engine name, see {@link Engines#names()}
     * @param durability the level
     */
    public record Point(String engine, Durability durability) {
        /**
         * @throws NullPointerException when a field is null
         */
        public Point {
            Objects.requireNonNull(engine, "engine");
            Objects.requireNonNull(durability, "durability");
        }

        /**
         * @param text {@code ENGINE:LEVEL}, e.g. {@code sqlite:always}
         * @return the point
         * @throws IolabException naming {@code --points} and the entry when the engine or the level is unknown
         */
        public static Point parse(String text) {
            String t = text.trim();
            int colon = t.lastIndexOf(':');
            if (colon <= 0 || colon == t.length() - 1) {
                throw new IolabException("bad --points entry '" + text + "': expected ENGINE:LEVEL, e.g. iolab:always");
            }
            String engine = t.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (!Engines.names().contains(engine) && !engine.equals("h2")) {
                throw new IolabException("bad --points entry '" + text + "': unknown engine '" + engine
                        + "'; expected one of " + String.join(", ", Engines.names()));
            }
            Durability d;
            try {
                d = Durability.parse(t.substring(colon + 1).trim());
            } catch (IolabException e) {
                throw new IolabException("bad --points entry '" + text + "': level '" + t.substring(colon + 1)
                        + "' is not none, batch or always");
            }
            return new Point(engine, d);
        }

        /** @return {@code ENGINE:LEVEL}, as {@link #parse(String)} reads it */
        public String label() {
            return engine + ":" + durability.name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Measures one point.
     *
     * @param dir an existing folder; the store goes in a fresh sub-folder, deleted at the end
     * @param point the engine and level
     * @param puts puts recorded, at least 1
     * @param warmup puts made first and not recorded, 0 or more
     * @return the {@value #PUT} result, then for iolab's store at BATCH the {@value #DURABLE} result
     * @throws IolabException when an argument is out of range, the engine fails or cannot run here
     *     ({@link EngineNotRunnableException}), or a check after the loop fails ({@link WorkloadCheckException})
     */
    public static List<StoreLatencyResult> measure(Path dir, Point point, int puts, int warmup) {
        if (puts < 1 || warmup < 0 || (long) puts + warmup > MAX_PUTS) {
            throw new IolabException("bad --puts " + puts + " with --warmup " + warmup + ": puts must be at least 1,"
                    + " warm-up 0 or more, together at most " + MAX_PUTS);
        }
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new IolabException("bad --dir '" + dir + "': not an existing, writable folder; give one");
        }
        EmployeeWorkload workload = new EmployeeWorkload(Math.max(2, warmup + puts));
        Path folder;
        try {
            folder = Files.createTempDirectory(dir, "store-latency-" + point.engine() + "-");
        } catch (IOException e) {
            throw IolabException.io("create a store folder in", dir, e);
        }
        KvEngine engine = Engines.create(point.engine());
        try {
            engine.open(folder, point.durability(), workload.sizing());
            try {
                List<StoreLatencyResult> out = new Run(point, engine, workload, puts, warmup).run();
                check(point, engine, workload, warmup + puts);
                return out;
            } finally {
                engine.close();
            }
        } finally {
            Folders.delete(folder);
        }
    }

    /** Every employee put is found with its value, and a scan counts exactly them. */
    private static void check(Point point, KvEngine engine, EmployeeWorkload workload, int total) {
        long wrong = 0;
        for (int i = 0; i < total; i++) {
            if (!Arrays.equals(engine.get(workload.key(i)), workload.value(i))) {
                wrong++;
            }
        }
        long scanned = engine.scan((ByteBuffer k, ByteBuffer v) -> true);
        if (wrong != 0 || scanned != total) {
            throw new WorkloadCheckException("store latency " + point.label() + ": after " + total + " puts, "
                    + wrong + " gets returned a missing or wrong value and a scan counted " + scanned + " records");
        }
    }

    /** One point's loop; the watcher thread runs only for iolab's store at BATCH. */
    private static final class Run {
        private final Point point;
        private final KvEngine engine;
        private final EmployeeWorkload workload;
        private final int puts;
        private final int warmup;
        private final Histogram returned = new Histogram(SIGNIFICANT_DIGITS);
        private final Histogram durable = new Histogram(SIGNIFICANT_DIGITS);
        private final Store store;
        private final long[] started;
        private final long[] sequences;
        /** Puts returned so far (written by the putting thread only). */
        private final AtomicInteger published = new AtomicInteger();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile boolean stop;

        Run(Point point, KvEngine engine, EmployeeWorkload workload, int puts, int warmup) {
            this.point = point;
            this.engine = engine;
            this.workload = workload;
            this.puts = puts;
            this.warmup = warmup;
            this.store = point.durability() == Durability.BATCH && engine instanceof IolabStoreEngine e
                    ? e.store() : null;
            this.started = store == null ? null : new long[warmup + puts];
            this.sequences = store == null ? null : new long[warmup + puts];
        }

        List<StoreLatencyResult> run() {
            Thread watcher = null;
            if (store != null) {
                watcher = Thread.ofPlatform().name("store-latency-durable").daemon().start(() -> {
                    try {
                        watch();
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
            }
            int total = warmup + puts;
            long first = 0;
            long last = 0;
            try {
                for (int i = 0; i < total; i++) {
                    byte[] key = workload.key(i);
                    byte[] value = workload.value(i);
                    long t0 = System.nanoTime();
                    if (i == warmup) {
                        first = t0;
                    }
                    if (store != null) {
                        started[i] = t0;
                        sequences[i] = store.put(key, value);
                    } else {
                        engine.put(key, value);
                    }
                    long t1 = System.nanoTime();
                    if (i >= warmup) {
                        returned.recordValue(Math.max(0, t1 - t0));
                    }
                    published.lazySet(i + 1);
                    last = t1;
                }
            } catch (RuntimeException | Error e) {
                stop = true; // the watcher would otherwise wait for puts that never come
                throw e;
            } finally {
                if (watcher != null) {
                    join(watcher);
                }
            }
            if (failure.get() != null) {
                throw new IolabException("store latency " + point.label() + ": the durable watcher failed: "
                        + failure.get(), failure.get());
            }
            double rate = puts / Math.max((last - first) / 1e9, 1e-9);
            List<StoreLatencyResult> out = new ArrayList<>(List.of(result(PUT, returned, rate)));
            if (store != null) {
                if (durable.getTotalCount() != puts) {
                    throw new IolabException("store latency " + point.label() + ": " + durable.getTotalCount()
                            + " puts were seen durable, expected " + puts);
                }
                out.add(result(DURABLE, durable, rate));
            }
            return out;
        }

        private StoreLatencyResult result(String mode, Histogram h, double rate) {
            return new StoreLatencyResult(engine.name(), point.durability(), mode, h.getTotalCount(), warmup, rate,
                    h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                    h.getValueAtPercentile(99.9), h.getMaxValue(), h.getMean());
        }

        /**
         * Waits for the oldest put not yet known durable, then charges the time it woke to every put the store
         * now reports durable.
         */
        private void watch() {
            int total = warmup + puts;
            int next = 0;
            while (next < total && !stop) {
                int done = published.get();
                if (done <= next) {
                    LockSupport.parkNanos(WATCHER_PARK_NANOS); // the machine's cores are shared with the putter
                    continue;
                }
                store.awaitDurable(sequences[next]);
                long now = System.nanoTime();
                long covered = store.durableSequence();
                while (next < done && sequences[next] <= covered) {
                    if (next >= warmup) {
                        durable.recordValue(Math.max(0, now - started[next]));
                    }
                    next++;
                }
            }
        }

        private void join(Thread watcher) {
            try {
                if (!watcher.join(WATCHER_WAIT)) {
                    stop = true;
                    watcher.join(Duration.ofSeconds(5));
                    failure.compareAndSet(null, new IolabException("no group commit covered the last put within "
                            + WATCHER_WAIT.toSeconds() + " s"));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop = true;
                throw new IolabException("interrupted while waiting for the store's group commit");
            }
        }
    }

    /**
     * Command line: {@code --dir D --points ENGINE:LEVEL,... --puts N --warmup N} (each optional; defaults: a
     * temporary folder, {@code iolab:always}, 2000, 200). Prints one line of JSON per result
     * ({@link StoreLatencyResult#toJson()}); a point that fails prints
     * {@code {"engine":...,"durability":...,"error":"..."}} instead and the others still run. Bad arguments
     * print one line to standard error and exit with 2; when every point failed it exits with 1.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * {@link #main(String[])} without the exit, for tests and launchers.
     *
     * @param args the arguments
     * @param out receives the JSON lines (or the usage, for {@code --help})
     * @param err receives one-line errors
     * @return the exit code: 0 at least one point measured, 1 every point failed, 2 bad arguments
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> values;
        List<Point> points = new ArrayList<>();
        int puts;
        int warmup;
        Path dir;
        try {
            if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
                out.println(USAGE);
                return 0;
            }
            values = CommandLineOptions.parse(args, Set.of("--dir", "--points", "--puts", "--warmup"));
            for (String p : values.getOrDefault("--points", "iolab:always").split(",", -1)) {
                points.add(Point.parse(p));
            }
            puts = count(values.getOrDefault("--puts", "2000"), "--puts");
            warmup = count(values.getOrDefault("--warmup", "200"), "--warmup");
            String d = values.getOrDefault("--dir", "");
            dir = d.isBlank() ? Path.of(System.getProperty("java.io.tmpdir")) : Path.of(d);
            if (puts < 1 || (long) puts + warmup > MAX_PUTS) {
                throw new IolabException("bad --puts " + puts + " with --warmup " + warmup + ": puts must be at least"
                        + " 1 and both together at most " + MAX_PUTS);
            }
            if (!Files.isDirectory(dir)) {
                throw new IolabException("bad --dir '" + d + "': not an existing folder; give one");
            }
        } catch (IolabException e) {
            err.println("iolab: store latency: " + oneLine(e.getMessage()) + " (" + USAGE + ")");
            return 2;
        }
        int measured = 0;
        for (Point p : points) {
            try {
                for (StoreLatencyResult r : measure(dir, p, puts, warmup)) {
                    out.println(r.toJson());
                }
                measured++;
            } catch (IolabException e) {
                String message = oneLine(e.getMessage());
                out.println("{\"engine\":" + quote(p.engine()) + ",\"durability\":\""
                        + p.durability().name().toLowerCase(Locale.ROOT) + "\",\"error\":" + quote(message) + "}");
                err.println("iolab: store latency " + p.label() + " failed: " + message);
            }
            out.flush();
        }
        return measured > 0 ? 0 : 1;
    }

    private static int count(String text, String name) {
        try {
            int n = Integer.parseInt(text.trim().replace("_", ""));
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IolabException("bad " + name + " '" + text + "': expected a whole number of puts, e.g. 2000");
    }

    private static String oneLine(String message) {
        return message == null ? "failed" : message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /**
     * @param text any text
     * @return it as a JSON string literal, quotes included
     */
    static String quote(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
