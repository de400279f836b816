package org.iolab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.report.html.HtmlReport;
import org.iolab.report.model.Limit;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.iolab.storage.Durability;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code iolab bench}: plans the points of a profile, runs them with JMH and reports. */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures the catalogue's methods with JMH on this machine's disk and page cache.")
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--profile", paramLabel = "NAME", defaultValue = "quick",
            description = "smoke (every method once, <1 min), quick (default, ~3 min), seeds (the articles),"
                    + " full (everything; hours)")
    String profile;

    @Option(names = "--workload", paramLabel = "WHAT", description = "file (default: the catalogue's methods),"
            + " journal (appends, replay and latency of iolab's journal next to Chronicle Queue and fio), store (Bruno's"
            + " employee workload on iolab's record store and the embedded peers) or all")
    String workload;

    @Option(names = "--engines", paramLabel = "NAMES", description = "store engines, e.g. iolab,lmdb,rocksdb, or"
            + " all (every iolab backend and every peer)")
    String engines;

    @Option(names = "--phases", paramLabel = "PHASES", description = "store phases: put, scan, get, delete,"
            + " reinsert, reopen (comma list) or all")
    String phases;

    @Option(names = "--records", paramLabel = "N", description = "store: employees put first, e.g. 100000 or 100k")
    String records;

    @Option(names = "--record-sizes", paramLabel = "SIZES", description = "journal record sizes, e.g. 64,1k,4k,64k")
    String recordSizes;

    @Option(names = "--backends", paramLabel = "NAMES", description = "journal storage backends, e.g."
            + " segment,mapped, or all")
    String backends;

    @Option(names = "--durability", paramLabel = "LEVELS", description = "journal and store durability levels:"
            + " none, batch, always (comma list) or all")
    String durability;

    @Option(names = "--methods", paramLabel = "IDS", description = "comma list of method ids (default: the profile's)")
    String methods;

    @Option(names = "--buffers", paramLabel = "SIZES", description = "comma list of buffer sizes, e.g. 1,8k,1m")
    String buffers;

    @Option(names = "--sizes", paramLabel = "SIZES", description = "comma list of file sizes, e.g. 64m,1g")
    String sizes;

    @Option(names = "--cache", paramLabel = "STATE", description = "warm, cold or both (reads and random access)")
    String cache;

    @Option(names = "--dir", paramLabel = "DIR", description = "folder in which a work folder iolab-* is made for"
            + " the test files (default: the current directory); removed at the end and on Ctrl-C")
    Path dir;

    @Option(names = "--out", paramLabel = "DIR", description = "results folder (default ./iolab-results/<time>)")
    Path out;

    @Option(names = "--forks", paramLabel = "N", description = "JMH forks per point (0: run in this JVM)")
    Integer forks;

    @Option(names = "--runs", paramLabel = "N", description = "measured passes per fork")
    Integer runs;

    @Option(names = "--prealloc", paramLabel = "HOW", description = "none, zero-fill or fallocate (writes)")
    String prealloc;

    @Option(names = "--sync", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            description = "writes make their data durable before a pass ends (default: the profile's, false)")
    Boolean sync;

    @Option(names = "--budget", paramLabel = "SECONDS", description = "seconds one pass may take; slower points"
            + " get a smaller file (default: the profile's)")
    Double budget;

    @Option(names = "--drop-caches", description = "cold passes drop all caches (needs root) instead of"
            + " evicting the file with posix_fadvise")
    boolean dropCaches;

    @Option(names = "--no-limits", description = "skip the physical limits (the C baseline and fio) measured"
            + " after the Java methods")
    boolean noLimits;

    @Option(names = "--verbose", description = "show JMH's own output")
    boolean verbose;

    @Option(names = "--dry-run", description = "print the plan and stop")
    boolean dryRun;

    /**
     * The largest --buffers: the benchmark JVM's heap (3 GiB) must hold a char method's two buffers of two bytes per
     * byte (a 1 GiB buffer ran out of memory in the fork, after every point before it had run).
     */
    static final long MAX_BUFFER = 256L << 20;
    static final long MAX_SIZE = 1L << 44;

    /**
     * @return the checked request
     * @throws IolabException on bad input
     */
    Planner.Request request() {
        if (forks != null && (forks < 0 || forks > 100)) {
            throw new IolabException("bad --forks '" + forks + "': expected 0 to 100");
        }
        if (runs != null && (runs < 1 || runs > 10000)) {
            throw new IolabException("bad --runs '" + runs + "': expected 1 to 10000");
        }
        if (budget != null && (!(budget > 0) || budget.isInfinite())) {
            throw new IolabException("bad --budget '" + budget + "': expected a number of seconds above 0");
        }
        return new Planner.Request(
                methods == null ? null : Options.methods(methods),
                buffers == null ? null : Options.sizes(buffers, "--buffers", MAX_BUFFER),
                sizes == null ? null : Options.sizes(sizes, "--sizes", MAX_SIZE),
                cache == null ? null : Cache.parse(cache),
                forks, runs, prealloc == null ? null : Preallocation.parse(prealloc), sync, budget);
    }

    /**
     * @return the checked journal request
     * @throws IolabException on bad input
     */
    JournalPlan.Request journalRequest() {
        return new JournalPlan.Request(
                recordSizes == null ? null : JournalPlan.recordSizes(recordSizes),
                backends == null ? null : JournalPlan.backends(backends),
                durability == null ? null : JournalPlan.durabilities(durability), forks, runs);
    }

    /**
     * @return the checked store request
     * @throws IolabException on bad input
     */
    StorePlan.Request storeRequest() {
        return new StorePlan.Request(
                engines == null ? null : StorePlan.engines(engines),
                phases == null ? null : StorePlan.phases(phases),
                records == null ? null : StorePlan.records(records),
                durability == null ? null : JournalPlan.durabilities(durability), forks, runs);
    }

    /**
     * @return the checked workload, refusing options that belong to a workload that does not run
     * @throws IolabException naming the option
     */
    Workload workload() {
        Workload w = workload == null ? Workload.FILE : Workload.parse(workload);
        if (!w.journal() && !w.store() && durability != null) {
            throw new IolabException("--durability is an option of the journal and store workloads; add --workload"
                    + " journal, store (or all)");
        }
        if (!w.store()) {
            for (String[] o : new String[][] {{"--engines", engines}, {"--phases", phases}, {"--records", records}}) {
                if (o[1] != null) {
                    throw new IolabException(o[0] + " is an option of the store workload; add --workload store"
                            + " (or all)");
                }
            }
        }
        if (!w.journal()) {
            for (String[] o : new String[][] {{"--record-sizes", recordSizes}, {"--backends", backends}}) {
                if (o[1] != null) {
                    throw new IolabException(o[0] + " is an option of the journal workload; add --workload journal"
                            + " (or all)");
                }
            }
        }
        if (!w.files()) {
            for (String[] o : new String[][] {{"--methods", methods}, {"--buffers", buffers}, {"--sizes", sizes},
                    {"--cache", cache}, {"--prealloc", prealloc}}) {
                if (o[1] != null) {
                    throw new IolabException(o[0] + " is an option of the file workload; use --workload file (the"
                            + " default) or all");
                }
            }
        }
        return w;
    }

    @Override
    public Integer call() {
        Profile p = Profile.parse(profile);
        Workload w = workload();
        Planner.Request r = request();
        JournalPlan.Request jr = journalRequest();
        StorePlan.Request sr = storeRequest();
        if (dropCaches && !org.iolab.os.PageCache.canDropAll()) {
            throw new IolabException("--drop-caches needs root (cannot write /proc/sys/vm/drop_caches); run as"
                    + " root or leave it out to evict files with posix_fadvise");
        }
        List<Point> points = w.files() ? Planner.plan(p, r, ram()) : List.of();
        JournalPlan.Plan journal = w.journal() ? JournalPlan.plan(p, jr, JournalPlan::inBuild)
                : new JournalPlan.Plan(List.of(), List.of(), List.of(), 0, 1, List.of());
        List<StorePoint> store = w.store() ? StorePlan.plan(p, sr) : List.of();
        StoreLatencyRun storeAfter = StorePlan.latency(p, sr, store);
        if (points.isEmpty() && journal.points().isEmpty() && store.isEmpty()) {
            throw new IolabException("nothing to run: profile " + p.name() + " with these --methods has no points");
        }
        Path parent = dir != null ? dir : Path.of("").toAbsolutePath();
        checkDir(parent);
        if (!dryRun) {
            org.iolab.os.FileSpace.requireFree(parent, Execution.spaceNeeded(points) + journal.spaceNeeded()
                    + StorePlan.spaceNeeded(store), "benchmark files");
        }
        Path results = out != null ? out : Path.of("iolab-results",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
        PrintStream err = System.err;
        double total = points.stream().mapToDouble(Point::wallSeconds).sum()
                + journal.points().stream().mapToDouble(JournalPoint::wallSeconds).sum() + journal.afterSeconds()
                + store.stream().mapToDouble(StorePoint::wallSeconds).sum() + storeAfter.wallSeconds();
        if (w == Workload.FILE) {
            err.printf(Locale.ROOT, "iolab: profile %s: %d points, estimated %s%n", p.name(), points.size(),
                    minutes(total));
        } else if (w == Workload.STORE) {
            err.printf(Locale.ROOT, "iolab: profile %s, workload store: %d points and %d per-put latency runs,"
                    + " estimated %s%n", p.name(), store.size(), storeAfter.points().size(), minutes(total));
        } else {
            err.printf(Locale.ROOT, "iolab: profile %s, workload %s: %d points (%d journal, %d store) and %d latency"
                    + " runs, estimated %s%n", p.name(), w.name().toLowerCase(Locale.ROOT),
                    points.size() + journal.points().size() + store.size(), journal.points().size(), store.size(),
                    journal.latency().size() + storeAfter.points().size(), minutes(total));
        }
        List<Point> shrunk = points.stream().filter(pt -> pt.fileSize() < pt.requestedSize()).toList();
        if (sizes != null && !shrunk.isEmpty()) {
            // the file sizes the user asked for: say when a point runs on a smaller one (the table shows it, no more)
            err.printf(Locale.ROOT, "iolab: %d of %d points run on a smaller file than --sizes asked (down to %s) so"
                    + " that one pass fits the %s s budget; the table shows each file's size, and --budget raises"
                    + " it%n", shrunk.size(), points.size(), org.iolab.Sizes.format(shrunk.stream().mapToLong(Point::fileSize)
                    .min().orElseThrow()), new java.text.DecimalFormat("0.###", java.text.DecimalFormatSymbols.getInstance(Locale.ROOT))
                    .format(budget != null ? budget : p.budget()));
        }
        if (dryRun) {
            for (Point pt : points) {
                System.out.printf(Locale.ROOT, "%-70s %3d x %6.2fs  ~%.1fs%n", pt.describe(), pt.runs(),
                        pt.passSeconds(), pt.wallSeconds());
            }
            for (JournalPoint jp : journal.points()) {
                System.out.printf(Locale.ROOT, "%-70s %3d x %6.2fs  ~%.1fs%n", jp.describe(), jp.runs(),
                        jp.iterationSeconds(), jp.wallSeconds());
            }
            JournalPlan.describeAfter(journal).forEach(System.out::println);
            for (StorePoint sp : store) {
                System.out.printf(Locale.ROOT, "%-70s %3d x %6.2fs  ~%.1fs%n", sp.describe(), sp.runs(),
                        sp.passSeconds(), sp.wallSeconds());
            }
            if (!storeAfter.points().isEmpty()) {
                System.out.printf(Locale.ROOT, "%-70s %14s  ~%.1fs%n", storeAfter.describe(), "",
                        storeAfter.latencySeconds());
            }
            if (storeAfter.describeFio() != null) {
                System.out.println(storeAfter.describeFio());
            }
            journal.notes().forEach(System.out::println);
            return 0;
        }
        OutFolder claimed = OutFolder.claim(out, results);
        try {
            return runAndWrite(claimed.path(), points, journal, store, storeAfter, p, parent, w, err);
        } finally {
            claimed.release();
        }
    }

    private int runAndWrite(Path results, List<Point> points, JournalPlan.Plan journal, List<StorePoint> store,
                            StoreLatencyRun storeAfter, Profile p, Path parent, Workload w, PrintStream err) {
        Execution run = new Execution(points, journal.points(), store, journal.afterSeconds()
                + storeAfter.wallSeconds(), parent, verbose, dropCaches, err);
        Baselines baselines = new Baselines(points, Math.min(p.runs(), 3), !noLimits, err);
        JournalExtras extras = new JournalExtras(journal, !noLimits, err);
        // the compaction sizes go with iolab's final size: its reopen at none, the largest record count
        int compactionRecords = store.stream().filter(sp -> sp.engine().equals("iolab")
                && sp.durability() == Durability.NONE && sp.phase().equals("reopen")).mapToInt(StorePoint::records)
                .max().orElse(0);
        StoreExtras storeExtras = new StoreExtras(storeAfter, compactionRecords, !noLimits, err);
        var array = run.run((workDir, dataFiles, prepare) -> {
            baselines.run(workDir, dataFiles, prepare);
            if (w.journal()) {
                extras.run(workDir);
            }
            if (w.store()) {
                storeExtras.run(workDir);
            }
        });
        Path json = OutFolder.writeResults(results, Results.text(array) + "\n");
        // the claimed folder, or the temporary one the results went to when it could not take them
        Path written = json.getParent();
        ResultSet set = ResultSet.load(json);
        Results.table(Results.rows(array), System.out);
        JournalTable.print(set.journal(), System.out);
        StoreTable.print(set.store(), System.out);
        List<Limit> limits = new ArrayList<>(baselines.limits());
        limits.addAll(extras.limits());
        limits.addAll(storeExtras.limits());
        StoreTable.printLatency(storeExtras.latency(), limits, storeAfter.fioRuns() > 0, System.out);
        System.out.println();
        System.out.println("results: " + json);
        List<String> notes = new ArrayList<>(baselines.notes());
        notes.addAll(extras.notes());
        notes.addAll(storeExtras.notes());
        RunData data = new RunData(set, baselines.facts(), limits, notes, extras.latency(), storeExtras.latency(),
                storeExtras.compaction());
        data.writeSiblings(written);
        System.out.println("report: " + HtmlReport.write(data, written));
        if (!written.equals(results)) {
            throw new IolabException("the results could not be written into " + results + " (see above); they are in"
                    + " " + written + " with their sibling files and the report: move them where you want them");
        }
        if (baselines.wrongChecksum() != null) {
            throw new BenchmarkFailure("BENCHMARK FAILED: C baseline: " + baselines.wrongChecksum()
                    + " (the Java results and the report are written)");
        }
        return 0;
    }

    /** Refuses a --dir that is missing, not a folder or read-only, before anything runs. */
    private static void checkDir(Path parent) {
        if (!Files.exists(parent)) {
            throw new IolabException("--dir " + parent + " does not exist; create it or choose another folder");
        }
        if (!Files.isDirectory(parent)) {
            throw new IolabException("--dir " + parent + " is not a directory; choose a folder");
        }
        if (!Files.isWritable(parent)) {
            throw new IolabException("--dir " + parent + " is not writable; choose a folder you can write to");
        }
    }

    static String minutes(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }

    /** @return bytes of physical memory (8 GiB when the JVM cannot tell) */
    static long ram() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 8L << 30;
    }
}
