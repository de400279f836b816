package org.iolab.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.journal.JournalOptions;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * The journal workload of {@code iolab bench --workload journal|all}: which appends and replays each profile
 * measures, the write-then-sync (bulk) passes that are fio's counterparts, the Chronicle Queue points beside
 * them, the latency runs and the fio comparators, and how the user's {@code --record-sizes}, {@code --backends}
 * and {@code --durability} change them.
 */
final class JournalPlan {
    static final long K = 1024;
    /** Class of the coordinated-omission-corrected latency runner in iolab-bench (optional in this build). */
    static final String LATENCY_CLASS = "org.iolab.bench.JournalLatency";
    /** Starting a forked JVM and opening a journal. */
    static final double FORK_OVERHEAD = 1.2;
    /**
     * Warm-up passes of a replay point, at least: a pass takes tens of milliseconds, and after one warm-up the JIT
     * was still compiling the replay loop (measured passes 73, 53, 36 ms).
     */
    static final int REPLAY_WARMUPS = 5;
    /** Replay set-up writes the journal at about this rate (bytes/s); a pass reads it at twice that. */
    static final double WRITE_BW = 1e9;
    /** Highest rate (bytes/s) appends at NONE are assumed to reach, for the free-space check. */
    static final double APPEND_BW = 2e9;
    /** Seconds one group commit of a bulk pass at BATCH costs: an fdatasync of about 1 MiB is 2-5 ms. */
    static final double BATCH_SYNC_SECONDS = 0.004;
    /** Seconds a bulk pass spends opening a fresh journal and deleting it, outside the timed pass. */
    static final double BULK_SETUP_SECONDS = 0.05;
    /** The bulk benchmark's segment size ({@code JournalBulkBenchmark.segmentSize}): space one fresh segment takes. */
    static final long BULK_SEGMENT = 256L << 20;

    private JournalPlan() {
    }

    /**
     * Appends of every backend in {@code backends} at every durability and record size listed.
     *
     * @param backends backend labels
     * @param durabilities durability levels
     * @param recordSizes payload sizes in bytes
     */
    record Block(List<String> backends, List<Durability> durabilities, List<Long> recordSizes) {
    }

    /**
     * A profile's journal study.
     *
     * @param blocks the appends
     * @param replayBytes payload bytes a replay pass reads (records = this / record size)
     * @param warmups warm-up iterations or passes per fork
     * @param runs measured iterations or passes per fork
     * @param iteration seconds per append iteration
     * @param alwaysIteration seconds per append iteration at ALWAYS (every append waits for an fsync)
     * @param latencySeconds measured seconds of each latency run
     * @param latencyWarmup warm-up seconds of each latency run
     * @param fioFileSize bytes fio writes per comparator pass, and each bulk pass at the same record size
     * @param bulkEveryBackend whether the bulk passes run on every measured backend (else on the leading one)
     */
    record Study(List<Block> blocks, long replayBytes, int warmups, int runs, double iteration,
                 double alwaysIteration, double latencySeconds, double latencyWarmup, long fioFileSize,
                 boolean bulkEveryBackend) {
    }

    /**
     * The user's overrides; a null field keeps the profile's choice.
     *
     * @param recordSizes {@code --record-sizes}
     * @param backends {@code --backends}
     * @param durabilities {@code --durability}
     * @param forks {@code --forks}
     * @param runs {@code --runs}
     */
    record Request(List<Long> recordSizes, List<String> backends, List<Durability> durabilities, Integer forks,
                   Integer runs) {
        /** @return a request that changes nothing */
        static Request defaults() {
            return new Request(null, null, null, null, null);
        }
    }

    /**
     * What the journal workload runs.
     *
     * @param points JMH points (iolab's journal: appends, replays, bulk passes; then Chronicle Queue)
     * @param latency latency runs after the points
     * @param fioRecordSizes record sizes of the fio comparators
     * @param fioFileSize bytes per fio pass
     * @param fioRuns passes per fio job
     * @param notes what is not measured and why
     */
    record Plan(List<JournalPoint> points, List<LatencyRun> latency, List<Long> fioRecordSizes, long fioFileSize,
                int fioRuns, List<String> notes) {
        /** @return estimated seconds of the latency runs and the fio comparators */
        double afterSeconds() {
            double s = latency.stream().mapToDouble(LatencyRun::wallSeconds).sum();
            for (long bs : fioRecordSizes) {
                long size = fioSize(fioFileSize, bs);
                s += 2 * fioRuns * (0.1 + size / WRITE_BW + (double) size / bs * 1.5e-6);
            }
            return s;
        }

        /** @return bytes the largest point writes at once (free space needed) */
        long spaceNeeded() {
            long most = 0;
            for (JournalPoint p : points) {
                long bytes = p.bench().append()
                        ? (long) (APPEND_BW * (p.warmups() + p.runs()) * p.iterationSeconds())
                        : p.records() * (p.recordSize() + 64) + (p.bench().bulk() ? BULK_SEGMENT : 0);
                most = Math.max(most, bytes);
            }
            return most + (fioRecordSizes.isEmpty() ? 0 : fioFileSize);
        }
    }

    /**
     * @param fileSize the plan's fio file size
     * @param bs a record size
     * @return the file size rounded down to whole records, at least 16 records
     */
    static long fioSize(long fileSize, long bs) {
        return Math.max(16 * bs, fileSize / bs * bs);
    }

    /**
     * @param profile a profile name
     * @return its journal study; seeds uses quick's
     */
    static Study study(String profile) {
        List<Long> sizes = List.of(64L, K, 4 * K, 64 * K);
        List<String> all = Arrays.stream(Backend.values()).map(Backend::label).toList();
        String dflt = Backend.DEFAULT.label();
        List<Durability> synced = List.of(Durability.BATCH, Durability.ALWAYS);
        return switch (profile) {
            case "smoke" -> new Study(List.of(new Block(List.of(dflt), List.of(Durability.NONE), List.of(64L))),
                    4L << 20, 0, 1, 0.2, 0.2, 0.5, 0.2, 4L << 20, false);
            case "full" -> new Study(List.of(new Block(all, List.of(Durability.values()), sizes)),
                    256L << 20, 2, 5, 1, 0.5, 10, 2, 256L << 20, true);
            default -> new Study(List.of(new Block(all, List.of(Durability.NONE), sizes),
                    new Block(List.of(dflt), synced, sizes)), 64L << 20, 1, 3, 0.5, 0.25, 3, 1, 64L << 20, false);
        };
    }

    /**
     * @param profile the profile (its name picks the study, its forks are the default)
     * @param r the overrides
     * @param available whether a class of iolab-bench is in this build (Chronicle benchmarks, JournalLatency)
     * @return the plan
     */
    static Plan plan(Profile profile, Request r, Predicate<String> available) {
        Study s = study(profile.name());
        int forks = Math.max(1, r.forks() != null ? r.forks() : profile.forks());
        int runs = r.runs() != null ? r.runs() : s.runs();
        Map<String, JournalPoint> points = new LinkedHashMap<>();
        Set<Long> sizes = new LinkedHashSet<>();
        Set<Durability> levels = new LinkedHashSet<>();
        List<String> replayBackends = new ArrayList<>();
        for (Block b : s.blocks()) {
            List<String> backends = r.backends() != null ? r.backends() : b.backends();
            List<Durability> durabilities = r.durabilities() != null ? r.durabilities() : b.durabilities();
            List<Long> recordSizes = r.recordSizes() != null ? r.recordSizes() : b.recordSizes();
            for (String backend : backends) {
                if (!replayBackends.contains(backend)) {
                    replayBackends.add(backend);
                }
                for (Durability d : durabilities) {
                    levels.add(d);
                    for (long size : recordSizes) {
                        sizes.add(size);
                        JournalPoint p = append(JournalBench.APPEND, backend, d, size, s, runs, forks);
                        points.putIfAbsent(p.describe(), p);
                    }
                }
            }
        }
        // the default backend leads (the largest replay and the latency runs use it) when it is measured
        if (replayBackends.remove(Backend.DEFAULT.label())) {
            replayBackends.addFirst(Backend.DEFAULT.label());
        }
        List<Long> sorted = sizes.stream().sorted().toList();
        List<Long> replaySizes = sorted.isEmpty() ? List.of()
                : new ArrayList<>(new LinkedHashSet<>(List.of(sorted.getFirst(), sorted.getLast())));
        if (!sorted.isEmpty()) {
            // every backend at both sizes: which one replays fastest differs between small and large records
            for (long size : replaySizes) {
                for (String backend : replayBackends) {
                    JournalPoint p = replay(JournalBench.REPLAY, backend, size, s, runs, forks);
                    points.putIfAbsent(p.describe(), p);
                }
            }
            // fio's counterparts: the same record sizes and bytes, at the levels fio's two jobs stand for
            List<String> bulkBackends = s.bulkEveryBackend() ? replayBackends : List.of(replayBackends.getFirst());
            for (String backend : bulkBackends) {
                for (Durability d : List.of(Durability.NONE, Durability.BATCH)) {
                    if (!levels.contains(d)) {
                        continue;
                    }
                    for (long size : sorted) {
                        JournalPoint p = bulk(backend, d, size, s, runs, forks);
                        points.putIfAbsent(p.describe(), p);
                    }
                }
            }
        }
        List<String> notes = new ArrayList<>();
        if (available.test(className(JournalBench.CHRONICLE_APPEND))) {
            for (long size : sorted) {
                JournalPoint p = append(JournalBench.CHRONICLE_APPEND, null, null, size, s, runs, forks);
                points.putIfAbsent(p.describe(), p);
            }
            for (long size : replaySizes) {
                JournalPoint p = replay(JournalBench.CHRONICLE_REPLAY, null, size, s, runs, forks);
                points.putIfAbsent(p.describe(), p);
            }
        } else {
            notes.add("Chronicle Queue not measured: " + className(JournalBench.CHRONICLE_APPEND)
                    + " is not in this build");
        }
        List<LatencyRun> latency = new ArrayList<>();
        if (!replayBackends.isEmpty() && available.test(LATENCY_CLASS)) {
            String backend = replayBackends.getFirst();
            latency.add(new LatencyRun("tail", backend, Durability.NONE, 64, 100_000, s.latencySeconds(),
                    s.latencyWarmup()));
            latency.add(new LatencyRun("durable", backend, Durability.BATCH, 64, 50_000, s.latencySeconds(),
                    s.latencyWarmup()));
        } else if (!replayBackends.isEmpty()) {
            notes.add("journal latency not measured: " + LATENCY_CLASS + " is not in this build");
        }
        return new Plan(List.copyOf(points.values()), latency, sorted, s.fioFileSize(), Math.min(3, runs), notes);
    }

    /**
     * @param b a benchmark
     * @return its class name, e.g. {@code org.iolab.bench.ChronicleAppendBenchmark}
     */
    static String className(JournalBench b) {
        return b.jmhName().substring(0, b.jmhName().lastIndexOf('.'));
    }

    /**
     * @param className a class name
     * @return whether the class is on this JVM's class path (checked without loading it)
     */
    static boolean inBuild(String className) {
        return JournalPlan.class.getClassLoader().getResource(className.replace('.', '/') + ".class") != null;
    }

    private static JournalPoint append(JournalBench bench, String backend, Durability d, long size, Study s,
                                       int runs, int forks) {
        double iteration = d == Durability.ALWAYS ? s.alwaysIteration() : s.iteration();
        double wall = forks * (FORK_OVERHEAD + (s.warmups() + runs) * iteration);
        return new JournalPoint(bench, backend, d, size, 0, s.warmups(), runs, forks, iteration, wall);
    }

    private static JournalPoint replay(JournalBench bench, String backend, long size, Study s, int runs, int forks) {
        long records = Math.max(1000, s.replayBytes() / size);
        double bytes = (double) records * size;
        double pass = bytes / (2 * WRITE_BW);
        int warmups = Math.max(s.warmups(), REPLAY_WARMUPS);
        double wall = forks * (FORK_OVERHEAD + bytes / WRITE_BW + (warmups + runs) * pass);
        return new JournalPoint(bench, backend, null, size, records, warmups, runs, forks, pass, wall);
    }

    /**
     * A write-then-sync point: {@link #fioSize} bytes of {@code size}-byte records, the bytes fio's comparator
     * writes at that block size.
     */
    private static JournalPoint bulk(String backend, Durability d, long size, Study s, int runs, int forks) {
        long total = fioSize(s.fioFileSize(), size);
        double pass = bulkPassSeconds(total, d);
        double wall = forks * (FORK_OVERHEAD + (s.warmups() + runs) * (pass + BULK_SETUP_SECONDS));
        return new JournalPoint(JournalBench.BULK, backend, d, size, total / size, s.warmups(), runs, forks, pass,
                wall);
    }

    /**
     * @param total payload bytes of a bulk pass
     * @param d its durability
     * @return estimated seconds of the pass: the bytes at {@link #WRITE_BW}, plus at BATCH one fdatasync per
     *     {@code JournalOptions.defaults().batchBytes()}
     */
    static double bulkPassSeconds(long total, Durability d) {
        double seconds = total / WRITE_BW;
        if (d == Durability.BATCH) {
            long batch = Math.max(1, JournalOptions.defaults().batchBytes());
            seconds += Math.ceilDiv(total, batch) * BATCH_SYNC_SECONDS;
        }
        return seconds;
    }

    // ---- the options ----

    /**
     * @param text {@code --record-sizes}, e.g. {@code 64,1k,4k,64k}
     * @return the sizes in bytes
     * @throws IolabException naming the option and the bad entry
     */
    static List<Long> recordSizes(String text) {
        return Options.sizes(text, "--record-sizes", JournalOptions.defaults().maxRecordSize());
    }

    /**
     * @param text {@code --backends}: comma list of backend labels, or {@code all}
     * @return the labels, in the order given, without duplicates
     * @throws IolabException naming the option and the bad entry
     */
    static List<String> backends(String text) {
        if (text.trim().equalsIgnoreCase("all")) {
            return Arrays.stream(Backend.values()).map(Backend::label).toList();
        }
        Set<String> out = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new IolabException("bad --backends '" + text + "': empty entry in the comma list");
            }
            try {
                out.add(Backend.parse(p).label());
            } catch (IolabException e) {
                throw new IolabException("bad --backends '" + p + "': " + e.getMessage());
            }
        }
        return List.copyOf(out);
    }

    /**
     * @param text {@code --durability}: comma list of {@code none}, {@code batch}, {@code always}, or {@code all}
     * @return the levels, in the order given, without duplicates
     * @throws IolabException naming the option and the bad entry
     */
    static List<Durability> durabilities(String text) {
        if (text.trim().equalsIgnoreCase("all")) {
            return List.of(Durability.values());
        }
        Set<Durability> out = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new IolabException("bad --durability '" + text + "': empty entry in the comma list");
            }
            try {
                out.add(Durability.parse(p));
            } catch (IolabException e) {
                throw new IolabException("bad --durability '" + p + "': expected none, batch, always or all");
            }
        }
        return List.copyOf(out);
    }

    /**
     * @param plan a plan
     * @return the dry-run lines of its latency runs and fio comparators
     */
    static List<String> describeAfter(Plan plan) {
        List<String> out = new ArrayList<>();
        for (LatencyRun l : plan.latency()) {
            out.add(String.format(Locale.ROOT, "%-70s %14s  ~%.1fs", l.describe(), "", l.wallSeconds()));
        }
        for (long bs : plan.fioRecordSizes()) {
            long n = Math.max(1, JournalOptions.defaults().batchBytes() / bs);
            out.add(String.format(Locale.ROOT, "fio sequential write bs=%s on %s, buffered and --fdatasync=%d, %d run(s)",
                    Sizes.format(bs), Sizes.format(fioSize(plan.fioFileSize(), bs)), n, plan.fioRuns()));
        }
        return out;
    }
}
