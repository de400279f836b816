package org.iolab.report.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.iolab.Sizes;
import org.iolab.report.limits.Fio;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.PutLatency;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Stats;
import org.iolab.report.model.StoreCompaction;
import org.iolab.report.model.TargetCheck;
import org.iolab.report.model.Verdict;

/**
 * The record store's targets from issue 5, each checked against the same run of the employee workload
 * ({@code StoreBenchmark}): iolab's fastest engine against the best peer per phase, against Bruno's
 * MappedByteBuffer code, LMDB's reopen, the live data, SQLite and itself at ALWAYS. Phase times are turned into
 * speeds (1 / time) so that, as for the journal, a target is met (or not met) only when every pass of iolab
 * clears (or misses) every pass of the comparator times the factor; otherwise it is not distinguishable.
 * Only points with the same durability and the same record count are compared, except in "BATCH ≥ 50× the ALWAYS
 * rate": ALWAYS syncs every put, so the workload runs it with fewer records, and the two rates per second are
 * compared across the counts (each side names its count) unless the run has BATCH at the ALWAYS count.
 */
public final class StoreTargets {
    /** The phases with a "≥ 2× the best peer" target: all but the reopen. */
    public static final List<String> RACED = ResultSet.STORE_PHASES.subList(0, ResultSet.STORE_PHASES.size() - 1);
    /** Bruno's own MappedByteBuffer code, the baseline engine (not a peer). */
    public static final String BRUNO = "bruno-mbb";
    /** The floor engine (a heap hash map written only at close): shown, never a peer. */
    public static final String FLOOR = "heap-map";
    /** The engine whose reopen is the yardstick. */
    public static final String LMDB = "lmdb";
    /** The engine iolab's ALWAYS puts are shown beside. */
    public static final String SQLITE = "sqlite";
    /** The ALWAYS target's text (issue 5). */
    public static final String ALWAYS_TARGET = "ALWAYS: puts/s and p99 reported next to SQLite FULL and the device"
            + " rate (the verdict: puts/s against SQLite's)";
    /** Start of the final-size target's text (its ratio is size / live data: lower is better). */
    public static final String SIZE_TARGET = "final size";
    private static final Pattern FDATASYNC_EACH = Pattern.compile("--fdatasync=1(?!\\d)");

    private StoreTargets() {
    }

    /**
     * @param engine an engine name
     * @return whether it is iolab's store ({@code iolab} or {@code iolab-<backend>})
     */
    public static boolean iolab(String engine) {
        return engine.equals("iolab") || engine.startsWith("iolab-");
    }

    /**
     * @param engine an engine name
     * @return whether it is a peer: neither iolab, nor Bruno's code, nor the heap-map floor
     */
    public static boolean peer(String engine) {
        return !iolab(engine) && !engine.equals(BRUNO) && !engine.equals(FLOOR);
    }

    /**
     * @param run a run
     * @return the targets in issue order (empty when the run measured no store)
     */
    public static List<TargetCheck> check(RunData run) {
        List<Measurement> store = run.results().store().stream().filter(m -> !m.passes().isEmpty()).toList();
        if (store.isEmpty()) {
            return List.of();
        }
        List<TargetCheck> out = new ArrayList<>();
        List<String> levels = store.stream().filter(m -> iolab(m.method())).map(Measurement::durability).distinct()
                .sorted(Comparator.comparing(StoreTargets::order)).toList();
        for (String d : levels.isEmpty() ? List.of("none") : levels) {
            for (String phase : RACED) {
                out.add(versusBestPeer(store, phase, d));
            }
        }
        out.add(versusBruno(store, "put", "write"));
        out.add(versusBruno(store, "scan", "read-all"));
        out.add(reopen(store));
        out.add(finalSize(store));
        out.add(compactedSize(run.compaction()));
        out.add(always(store, run.putLatency(), run.limits()));
        out.add(batchVersusAlways(store));
        return out;
    }

    private static TargetCheck versusBestPeer(List<Measurement> store, String phase, String d) {
        String target = phase + " at " + d.toUpperCase(Locale.ROOT) + " ≥ 2× the best peer";
        Optional<Measurement> i = fastest(store, m -> iolab(m.method()) && phase.equals(m.phase())
                && d.equals(m.durability()), true);
        if (i.isEmpty()) {
            return notMeasured(target, 2, "iolab's " + phase + " not measured at " + d
                    + "; ./iolab bench --workload store --phases " + phase + " --durability " + d);
        }
        long records = i.get().records();
        Optional<Measurement> p = fastest(store, m -> peer(m.method()) && phase.equals(m.phase())
                && d.equals(m.durability()) && m.records() == records, false);
        TargetCheck t = decide(target, i.get(), p, 2, "no peer measured at " + d + " with " + records + " records");
        if (p.isEmpty()) {
            return t;
        }
        // "the best peer" is the best of those measured at this level: say which (the default profile runs the
        // synced levels for fewer peers than NONE)
        String peers = store.stream().filter(m -> peer(m.method()) && phase.equals(m.phase())
                && d.equals(m.durability()) && m.records() == records).map(Measurement::method).distinct().sorted()
                .collect(Collectors.joining(", "));
        return new TargetCheck(t.target(), t.journal(), t.comparator() + "; the best of " + peers, t.ratio(),
                t.needed(), t.verdict());
    }

    private static TargetCheck versusBruno(List<Measurement> store, String phase, String what) {
        String target = phase + " (" + what + ") ≥ 10× Bruno's MappedByteBuffer code";
        Optional<Measurement> i = fastest(store, m -> iolab(m.method()) && phase.equals(m.phase())
                && "none".equals(m.durability()), true);
        if (i.isEmpty()) {
            return notMeasured(target, 10, "iolab's " + phase + " not measured at none");
        }
        long records = i.get().records();
        Optional<Measurement> b = fastest(store, m -> BRUNO.equals(m.method()) && phase.equals(m.phase())
                && "none".equals(m.durability()) && m.records() == records, false);
        return decide(target, i.get(), b, 10, BRUNO + " not measured with " + records + " records; ./iolab bench"
                + " --workload store --engines iolab," + BRUNO);
    }

    private static TargetCheck reopen(List<Measurement> store) {
        String target = "reopen within 2× LMDB's";
        Optional<Measurement> i = fastest(store, m -> iolab(m.method()) && "reopen".equals(m.phase())
                && "none".equals(m.durability()), true);
        if (i.isEmpty()) {
            return notMeasured(target, 0.5, "iolab's reopen not measured at none");
        }
        long records = i.get().records();
        Optional<Measurement> l = fastest(store, m -> LMDB.equals(m.method()) && "reopen".equals(m.phase())
                && "none".equals(m.durability()) && m.records() == records, false);
        return decide(target, i.get(), l, 0.5, "lmdb's reopen not measured with " + records + " records");
    }

    private static TargetCheck finalSize(List<Measurement> store) {
        String target = SIZE_TARGET + " ≤ 1.5× the live data (before compaction)";
        Optional<Measurement> i = store.stream().filter(m -> iolab(m.method()) && "reopen".equals(m.phase())
                && "none".equals(m.durability()) && m.fileSize() > 0)
                .max(Comparator.comparingLong(Measurement::records));
        if (i.isEmpty()) {
            return notMeasured(target, 1.5, "no iolab reopen with a size at none; ./iolab bench --workload store"
                    + " --phases reopen");
        }
        Measurement m = i.get();
        String size = m.method() + " " + Sizes.format(m.fileSize()) + " (" + m.fileSize() + " bytes) after reopen, "
                + m.records() + " records";
        if (m.bufferSize() <= 0) {
            return new TargetCheck(target, size, "live data not recorded in this results file", Double.NaN, 1.5,
                    Verdict.NOT_MEASURED);
        }
        double ratio = (double) m.fileSize() / m.bufferSize();
        return new TargetCheck(target, size, "live data " + Sizes.format(m.bufferSize()) + " (" + m.bufferSize()
                + " bytes: key + value of each live employee as EmployeeCodec encodes it)", ratio, 1.5,
                ratio <= 1.5 ? Verdict.HOLDS : Verdict.DOES_NOT_HOLD);
    }

    /**
     * The size after a compaction (the store workload's {@code CompactedSize} run): with compression when its table
     * made the values shorter, else the plain compaction's.
     */
    private static TargetCheck compactedSize(List<StoreCompaction> compaction) {
        String target = SIZE_TARGET + " ≤ 1.1× the live data (after compaction)";
        Optional<StoreCompaction> c = compaction.stream().max(Comparator.comparingInt(StoreCompaction::records));
        if (c.isEmpty()) {
            return notMeasured(target, 1.1, "no compaction sizes in this run (store-compaction.json); ./iolab bench"
                    + " --workload store measures them with iolab at none");
        }
        StoreCompaction k = c.get();
        boolean packed = k.symbols() > 0 && k.compressed() < k.after();
        long size = packed ? k.compressed() : k.after();
        double ratio = (double) size / k.liveBytes();
        String what = "iolab " + Sizes.format(size) + " (" + size + " bytes) after " + (packed
                ? "a compaction with compression (" + k.symbols() + " symbols)" : "a compaction") + ", " + k.records()
                + " records";
        String beside = "live data " + Sizes.format(k.liveBytes()) + " (" + k.liveBytes() + " bytes); a plain"
                + " compaction " + k.after() + " bytes (" + Rates.ratio((double) k.after() / k.liveBytes())
                + "), before compaction " + k.before() + " bytes";
        return new TargetCheck(target, what, beside, ratio, 1.1, ratio <= 1.1 ? Verdict.HOLDS : Verdict.DOES_NOT_HOLD);
    }

    private static TargetCheck always(List<Measurement> store, List<PutLatency> latency, List<Limit> limits) {
        String target = ALWAYS_TARGET;
        Optional<Measurement> i = fastest(store, m -> iolab(m.method()) && "put".equals(m.phase())
                && "always".equals(m.durability()), true);
        Optional<PutLatency> il = latency.stream().filter(l -> iolab(l.engine()) && "always".equals(l.durability())
                && PutLatency.PUT.equals(l.mode())).max(Comparator.comparingDouble(PutLatency::putsPerSecond));
        Optional<PutLatency> sl = putLatency(latency, SQLITE, "always", PutLatency.PUT);
        Optional<Limit> device = deviceSync(limits);
        // the share of the device's rate is taken from the rate printed first: the phase's, else the per-put run's
        OptionalDouble shown = i.isPresent() ? OptionalDouble.of(putRate(i.get()).median())
                : il.map(x -> OptionalDouble.of(x.putsPerSecond())).orElse(OptionalDouble.empty());
        String fio = device.map(l -> "device: fio 4 KiB write+fdatasync " + Rates.format(deviceRate(l), "writes/s")
                + (shown.isPresent() ? ", iolab at " + Rates.ratio(shown.getAsDouble() / deviceRate(l)) + " of it"
                : "")).orElse("device: fio 4 KiB write+fdatasync not measured");
        String iLat = il.map(StoreTargets::perPut).orElse("p99 not measured (per-put latency: ./iolab bench"
                + " --workload store --durability always)");
        String sLat = sl.map(StoreTargets::perPut).orElse("p99 not measured");
        if (i.isEmpty() && il.isEmpty()) {
            return notMeasured(target, 1, "iolab's put not measured at always; ./iolab bench --workload store"
                    + " --durability always --records 2000");
        }
        Optional<Measurement> s = i.flatMap(x -> store.stream().filter(m -> SQLITE.equals(m.method())
                && "put".equals(m.phase()) && "always".equals(m.durability()) && m.records() == x.records()
                && !m.passes().isEmpty()).findFirst());
        // the phase passes give the verdict (they have a spread); without them, the per-put runs' rates
        Stats is;
        Stats ss = null;
        String iText;
        String sText;
        if (i.isPresent()) {
            is = putRate(i.get());
            iText = i.get().method() + " " + JournalTargets.figure(is, "puts/s") + " (put phase); per-put run: "
                    + iLat;
            ss = s.map(StoreTargets::putRate).orElse(null);
            sText = s.map(x -> "sqlite " + JournalTargets.figure(putRate(x), "puts/s") + " (put phase); per-put run: "
                    + sLat)
                    .orElse(sl.map(x -> "sqlite " + sLat).orElse("sqlite not measured at always"));
        } else {
            is = Stats.of(List.of(il.get().putsPerSecond()));
            iText = il.get().engine() + " " + iLat;
            ss = sl.map(x -> Stats.of(List.of(x.putsPerSecond()))).orElse(null);
            sText = sl.map(x -> "sqlite " + sLat).orElse("sqlite not measured at always");
        }
        if (ss == null) {
            return new TargetCheck(target, iText, sText + "; " + fio, Double.NaN, 1, Verdict.NOT_MEASURED);
        }
        return new TargetCheck(target, iText, sText + "; " + fio, is.ratioTo(ss), 1,
                JournalTargets.verdict(is, ss, 1));
    }

    /**
     * @param l a per-put latency run
     * @return e.g. {@code 4.10 k puts/s, p50 212 µs, p99 518 µs, p99.9 1.20 ms (2000 puts)}
     */
    public static String perPut(PutLatency l) {
        return Rates.format(l.putsPerSecond(), "puts/s") + ", p50 " + JournalTargets.micros(l.p50Nanos()) + ", p99 "
                + JournalTargets.micros(l.p99Nanos()) + ", p99.9 " + JournalTargets.micros(l.p999Nanos()) + " ("
                + l.puts() + " puts)";
    }

    /**
     * @param latency the run's per-put latency runs
     * @param engine an engine
     * @param durability a level
     * @param mode {@link PutLatency#PUT} or {@link PutLatency#DURABLE}
     * @return that engine's run at that level and mode
     */
    public static Optional<PutLatency> putLatency(List<PutLatency> latency, String engine, String durability,
                                                  String mode) {
        return latency.stream().filter(l -> engine.equals(l.engine()) && durability.equals(l.durability())
                && mode.equals(l.mode())).findFirst();
    }

    /**
     * @param limits the run's limits
     * @return fio's 4 KiB write+fdatasync job: {@link Fio#STORE_WRITE_FDATASYNC}, or (results files from before
     *     it) a 4 KiB fio write whose note says {@code --fdatasync=1}
     */
    public static Optional<Limit> deviceSync(List<Limit> limits) {
        List<Limit> fio = limits.stream().filter(l -> Fio.TOOL.equals(l.tool()) && !l.passes().isEmpty()).toList();
        return fio.stream().filter(l -> Fio.STORE_WRITE_FDATASYNC.equals(l.operation())).findFirst()
                .or(() -> fio.stream().filter(l -> l.blockSize() == Fio.STORE_BLOCK && l.note() != null
                        && FDATASYNC_EACH.matcher(l.note()).find()).findFirst());
    }

    /**
     * @param l a fio write job with one fdatasync per block
     * @return its median rate in writes (= fdatasyncs) per second: bytes per second / block size
     */
    public static double deviceRate(Limit l) {
        return l.stats().median() / l.blockSize();
    }

    private static TargetCheck batchVersusAlways(List<Measurement> store) {
        String target = "BATCH puts/s ≥ 50× the ALWAYS rate";
        Optional<Measurement> a = fastest(store, m -> iolab(m.method()) && "put".equals(m.phase())
                && "always".equals(m.durability()), true);
        // the same record count when the run has it; else the largest BATCH run (each side names its count)
        Optional<Measurement> b = fastest(store, m -> iolab(m.method()) && "put".equals(m.phase())
                && "batch".equals(m.durability()) && a.isPresent() && m.records() == a.get().records(), true)
                .or(() -> fastest(store, m -> iolab(m.method()) && "put".equals(m.phase())
                        && "batch".equals(m.durability()), true));
        if (b.isEmpty() || a.isEmpty()) {
            return notMeasured(target, 50, "iolab's put not measured at " + (b.isEmpty() ? "batch" : "always")
                    + "; ./iolab bench --workload store --durability batch,always");
        }
        Stats bs = putRate(b.get());
        Stats as = putRate(a.get());
        return new TargetCheck(target, b.get().method() + " batch " + JournalTargets.figure(bs, "puts/s") + ", "
                + b.get().records() + " records", a.get().method() + " always " + JournalTargets.figure(as, "puts/s")
                + ", " + a.get().records() + " records", bs.ratioTo(as), 50, JournalTargets.verdict(bs, as, 50));
    }

    private static TargetCheck decide(String target, Measurement i, Optional<Measurement> c, double needed,
                                      String missing) {
        Stats is = speed(i);
        String iText = i.method() + " " + figure(i.stats()) + ", " + i.records() + " records";
        if (c.isEmpty()) {
            return new TargetCheck(target, iText, missing, Double.NaN, needed, Verdict.NOT_MEASURED);
        }
        Stats cs = speed(c.get());
        return new TargetCheck(target, iText, c.get().method() + " " + figure(c.get().stats()), is.ratioTo(cs),
                needed, JournalTargets.verdict(is, cs, needed));
    }

    /**
     * @param m a store measurement (passes in ms)
     * @return its passes as speeds (phases per second), so higher is better as for every other target
     */
    public static Stats speed(Measurement m) {
        return Stats.of(m.passes().stream().map(ms -> 1e3 / ms).toList());
    }

    /**
     * @param m a store put measurement
     * @return its passes as puts per second (records / phase time)
     */
    public static Stats putRate(Measurement m) {
        return Stats.of(m.passes().stream().map(ms -> m.records() * 1e3 / ms).toList());
    }

    /**
     * @param s phase times in ms
     * @return e.g. {@code 12.3 ms (11.0 – 13.1 ms)}
     */
    public static String figure(Stats s) {
        return ms(s.median()) + " (" + ms(s.min()) + " – " + ms(s.max()) + ")";
    }

    /**
     * @param v milliseconds
     * @return e.g. {@code 0.412 ms}, {@code 3.07 ms}, {@code 45.2 ms}, {@code 705 ms}, {@code -} for NaN
     */
    public static String ms(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        String f = v >= 100 ? "%.0f ms" : v >= 10 ? "%.1f ms" : v >= 1 ? "%.2f ms" : "%.3f ms";
        return String.format(Locale.ROOT, f, v);
    }

    /**
     * @param c a store target
     * @return what it needs, e.g. {@code ≥ 2.00x}, or {@code ≤ 1.50x} for the final size
     */
    public static String needed(TargetCheck c) {
        return (c.target().startsWith(SIZE_TARGET) ? "≤ " : "≥ ") + Rates.ratio(c.needed());
    }

    /**
     * @param d a durability label
     * @return its rank: none, batch, always, then anything else
     */
    public static int order(String d) {
        return switch (d == null ? "" : d) {
            case "none" -> 0;
            case "batch" -> 1;
            case "always" -> 2;
            default -> 3;
        };
    }

    /** @return the measurement with the lowest median time, at the largest record count when {@code mostRecords} */
    private static Optional<Measurement> fastest(List<Measurement> all, Predicate<Measurement> which,
                                                 boolean mostRecords) {
        List<Measurement> of = all.stream().filter(which).toList();
        if (mostRecords) {
            long records = of.stream().mapToLong(Measurement::records).max().orElse(0);
            of = of.stream().filter(m -> m.records() == records).toList();
        }
        return of.stream().min(Comparator.comparingDouble(m -> m.stats().median()));
    }

    private static TargetCheck notMeasured(String target, double needed, String why) {
        return new TargetCheck(target, why, "-", Double.NaN, needed, Verdict.NOT_MEASURED);
    }
}
