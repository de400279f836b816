package org.iolab.report.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.iolab.Sizes;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.report.model.Bench;
import org.iolab.report.model.ClaimCheck;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Stats;
import org.iolab.report.model.Verdict;

/**
 * Checks the seed articles' claims against a run.
 *
 * <p>Every verdict rests on {@link Stats#distinguishableFrom}: a claim holds or does not hold only when the
 * min–max ranges of the passes it compares are disjoint; overlapping ranges give
 * {@link Verdict#NOT_DISTINGUISHABLE}; a run without the needed points gives {@link Verdict#NOT_MEASURED}
 * and says what would measure them. A claim compared in several settings (cache, buffer size) gets the
 * verdict of the majority of the settings, else not distinguishable.
 */
public final class Claims {
    /** Thompson's four ways to read: RandomAccessFile, a buffered stream, a buffered channel, a mapped file. */
    private static final Set<String> THOMPSON_READS = Set.of("raf-array", "bis-array", "bis-byte", "channel-heap-array",
            "channel-direct-array", "channel-heap-byte", "channel-direct-byte", "mapped-array", "mapped-byte");
    private static final String THOMPSON = Article.THOMPSON.shortName();
    private static final String BRUNO = Article.BRUNO.shortName();
    private static final String FISHER = Article.FISHER.shortName();
    private static final String JIB = Article.JAVA_IO_BENCHMARK.shortName();
    private static final String NADEAU = Article.NADEAU.shortName();
    private static final Set<String> MAPPED_READS = Set.of("mapped-byte", "mapped-array", "segment-mapped");
    private static final long KIB8 = 8192;
    private static final long KIB1 = 1024;
    /** "About 2x": between these factors. */
    private static final double ABOUT_2X_LOW = 1.5;
    private static final double ABOUT_2X_HIGH = 3;
    /** "Within about 20% of the best buffer". */
    private static final double FLAT = 0.80;

    private Claims() {
    }

    /** A comparison of two measurements; {@code a} is the one the claim says is faster. */
    private record Pair(Measurement a, Measurement b) {
    }

    /**
     * @param run a run
     * @return one check per claim, by article
     */
    public static List<ClaimCheck> check(RunData run) {
        List<Measurement> all = run.results().measurements().stream().filter(m -> !m.passes().isEmpty()).toList();
        List<ClaimCheck> out = new ArrayList<>();
        // Thompson 2011
        out.add(paired("buffered streams are slower than channels (reads, a byte per get as in the article)",
                THOMPSON, pairs(all, Bench.READ, Set.of("channel-heap-byte", "channel-direct-byte"),
                        Set.of("bis-byte"), m -> true), 1,
                "needs bis-byte and channel-heap-byte or channel-direct-byte reads at the same buffer size and"
                        + " cache; ./iolab bench --profile quick measures them"));
        out.add(paired("buffered streams are slower than channels (writes)", THOMPSON,
                pairs(all, Bench.WRITE, Set.of("channel-heap-write", "channel-direct-write"),
                        Set.of("bos-byte-write"), m -> true), 1,
                "needs bos-byte-write and channel-heap-write or channel-direct-write at the same buffer size and"
                        + " sync; ./iolab bench --profile quick measures them"));
        // "using NIO FileChannel and ByteBuffer are the clear winners" (his memory-mapped reads came last; "in a few
        // cases I've seen memory-mapped files perform significantly better ... tested on your platform")
        out.add(fastest("FileChannel with a ByteBuffer is the clear winner for reading (vs RandomAccessFile, buffered"
                        + " streams and memory-mapped files)", THOMPSON, all,
                m -> m.bench() == Bench.READ && "warm".equals(m.cache()) && THOMPSON_READS.contains(m.method()),
                m -> m.method().startsWith("channel-"), "best FileChannel read", "best of the others",
                "needs warm reads of channel-heap-array or channel-direct-array and of raf-array, bis-array or"
                        + " mapped-array; ./iolab bench --profile quick measures them"));
        out.add(preallocation(all));
        // Bruno 2010
        out.add(paired("MappedByteBuffer is the fastest way to read records (vs RandomAccessFile and FileChannel)",
                BRUNO, pairs(all, Bench.READ, Set.of("mapped-array"), Set.of("raf-array", "channel-heap-array"),
                        m -> true), 1,
                "needs mapped-array, raf-array and channel-heap-array reads at the same buffer size and cache;"
                        + " ./iolab bench --profile quick measures them"));
        out.add(paired("MappedByteBuffer is the fastest way to write records (vs RandomAccessFile and FileChannel)",
                BRUNO, pairs(all, Bench.WRITE, Set.of("mapped-write"), Set.of("raf-write", "channel-heap-write"),
                        m -> true), 1,
                "needs mapped-write, raf-write and channel-heap-write; ./iolab bench --profile quick measures"
                        + " them"));
        // Fisher 2018
        out.add(seekVsSkip(all));
        // java-io-benchmark
        out.add(paired("direct buffers are faster than heap buffers", JIB,
                pairs(all, Bench.READ, Set.of("channel-direct-array"), Set.of("channel-heap-array"), m -> true), 1,
                "needs channel-direct-array and channel-heap-array reads at the same buffer size and cache;"
                        + " ./iolab bench --profile quick measures them"));
        out.add(paired("channels are faster than streams with 8 KiB buffers", JIB,
                pairs(all, Bench.READ, Set.of("channel-heap-array", "channel-direct-array"), Set.of("bis-array"),
                        m -> !m.usesBuffer() || m.bufferSize() == KIB8), 1,
                "needs bis-array and channel-heap-array or channel-direct-array reads at 8 KiB; ./iolab bench"
                        + " --profile quick measures them"));
        out.add(eightVsOne(all));
        out.add(firstDirectBuffer(all));
        out.add(paired("memory-mapped files are the fastest way to read (vs streams and channels)", JIB,
                pairs(all, Bench.READ, Set.of("mapped-array"),
                        Set.of("bis-array", "channel-heap-array", "channel-direct-array"), m -> true), 1,
                "needs mapped-array, bis-array and channel reads at the same buffer size and cache; ./iolab"
                        + " bench --profile quick measures them"));
        // the article's stream writes the same buffer at a time: FileOutputStream.write(byte[]), not a byte per call
        out.add(paired("memory-mapped writes are faster than streams", JIB,
                pairs(all, Bench.WRITE, Set.of("mapped-write"), Set.of("fos-array-write"), m -> true), 1,
                "needs mapped-write and fos-array-write with the same sync; ./iolab bench --profile quick"
                        + " measures them"));
        out.add(pageCache(run, all));
        // Nadeau
        List<Pair> bytePairs = pairs(all, Bench.READ, Set.of("fis-array"), Set.of("fis-byte", "raf-byte"),
                m -> !m.usesBuffer() || m.bufferSize() == KIB8);
        out.add(paired("byte-at-a-time reads are orders of magnitude slower than array reads", NADEAU,
                bytePairs.isEmpty() ? bestBuffer(pairs(all, Bench.READ, Set.of("fis-array"),
                        Set.of("fis-byte", "raf-byte"), m -> true)) : bytePairs, 100,
                "needs fis-array at 8 KiB and fis-byte or raf-byte reads with the same cache; ./iolab bench"
                        + " --profile quick measures them"));
        out.add(flattens(all));
        out.add(cFaster(run, all));
        out.add(amongFastest(all, "FileChannel with a direct buffer and array gets is among the fastest ways to read",
                "channel-direct-array", false));
        // "If we have to pick a fastest approach, it would be one of three: ... MappedByteBuffer and array reads,
        // ... direct ByteBuffer and array reads, ... wrapped array ByteBuffer": among the article's own methods
        out.add(amongFastest(all, "MappedByteBuffer with array gets is one of the three fastest ways to read (with a"
                + " direct and a wrapped ByteBuffer)", "mapped-array", true));
        return out;
    }

    // ---------------------------------------------------------------- generic comparisons

    /**
     * Pairs the best claimed-faster measurement with the best claimed-slower one in each setting (cache, sync,
     * preallocation, stride, file size and buffer size; a method that ignores the buffer size pairs with every size).
     * Only when no setting has both does a claimed-faster point pair with the claimed-slower one of the nearest file
     * size (byte-at-a-time reads run on a smaller file, their time budget's); the text then names both sizes.
     */
    private static List<Pair> pairs(List<Measurement> all, Bench bench, Set<String> faster, Set<String> slower,
                                    Predicate<Measurement> filter) {
        List<Measurement> as = all.stream().filter(m -> m.bench() == bench && faster.contains(m.method()))
                .filter(filter).toList();
        List<Measurement> bs = all.stream().filter(m -> m.bench() == bench && slower.contains(m.method()))
                .filter(filter).toList();
        Map<String, Measurement> bestA = new LinkedHashMap<>();
        for (Measurement a : as) {
            bestA.merge(setting(a) + "|" + (a.usesBuffer() ? a.bufferSize() : "*"), a, Claims::faster);
        }
        List<Pair> out = new ArrayList<>();
        for (Measurement a : bestA.values()) {
            bs.stream().filter(b -> sameSetting(a, b) && sameBuffer(a, b))
                    .max(Comparator.comparingDouble(b -> b.stats().median()))
                    .ifPresent(b -> out.add(new Pair(a, b)));
        }
        if (!out.isEmpty()) {
            return out;
        }
        for (Measurement a : bestA.values()) {
            bs.stream().filter(b -> settingBesidesSize(a).equals(settingBesidesSize(b)) && sameBuffer(a, b))
                    .min(Comparator.<Measurement>comparingDouble(b -> Math.abs(Math.log((double) Math.max(1,
                            b.fileSize()) / Math.max(1, a.fileSize())))).thenComparingDouble(b -> -b.stats().median()))
                    .ifPresent(b -> out.add(new Pair(a, b)));
        }
        return out;
    }

    /** Keeps one pair per setting: the one with the fastest claimed-faster side. */
    private static List<Pair> bestBuffer(List<Pair> pairs) {
        Map<String, Pair> best = new LinkedHashMap<>();
        for (Pair p : pairs) {
            best.merge(setting(p.a()), p, (x, y) -> faster(x.a(), y.a()) == x.a() ? x : y);
        }
        return List.copyOf(best.values());
    }

    private static Measurement faster(Measurement x, Measurement y) {
        return x.stats().median() >= y.stats().median() ? x : y;
    }

    /** What must agree for two measurements to be compared: bench, cache, preallocation, sync, stride, file size. */
    private static String setting(Measurement m) {
        return settingBesidesSize(m) + "|" + m.fileSize();
    }

    private static String settingBesidesSize(Measurement m) {
        return m.bench() + "|" + m.cache() + "|" + m.prealloc() + "|" + m.sync() + "|" + m.stride() + "|"
                + m.length();
    }

    private static boolean sameSetting(Measurement a, Measurement b) {
        return setting(a).equals(setting(b));
    }

    private static boolean sameBuffer(Measurement a, Measurement b) {
        return !a.usesBuffer() || !b.usesBuffer() || a.bufferSize() == b.bufferSize();
    }

    /**
     * @param fast what the claim says is faster
     * @param slow what the claim says is slower
     * @param minRatio how many times faster the claim says (1 for plain "faster")
     * @return holds when {@code fast}'s range lies above {@code slow}'s times {@code minRatio}, does not hold when it
     *     lies below it, else not distinguishable (also with fewer than {@link Stats#MIN_PASSES} passes a side)
     */
    private static Verdict decide(Stats fast, Stats slow, double minRatio) {
        // the slower side's whole range times the factor: "100x faster" holds only when every pass of the faster
        // side beats every pass of the slower one a hundred times over
        return JournalTargets.verdict(fast, slow, minRatio);
    }

    /** The verdict most settings agree on; no majority gives not distinguishable. */
    private static Verdict majority(List<Verdict> verdicts) {
        if (verdicts.isEmpty()) {
            return Verdict.NOT_MEASURED;
        }
        for (Verdict v : List.of(Verdict.HOLDS, Verdict.DOES_NOT_HOLD)) {
            long n = verdicts.stream().filter(v::equals).count();
            if (n * 2 > verdicts.size()) {
                return v;
            }
        }
        return Verdict.NOT_DISTINGUISHABLE;
    }

    private static String tally(List<Verdict> verdicts) {
        if (verdicts.size() < 2) {
            return "";
        }
        Map<Verdict, Long> n = verdicts.stream().collect(Collectors.groupingBy(v -> v, LinkedHashMap::new,
                Collectors.counting()));
        return n.entrySet().stream().map(e -> e.getKey().label() + " in " + e.getValue())
                .collect(Collectors.joining(", ", "", " of " + verdicts.size() + " settings: "));
    }

    private static ClaimCheck paired(String claim, String article, List<Pair> pairs, double minRatio,
                                     String notMeasured) {
        if (pairs.isEmpty()) {
            return new ClaimCheck(claim, article, notMeasured, Verdict.NOT_MEASURED);
        }
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (Pair p : pairs) {
            Stats a = p.a().stats();
            Stats b = p.b().stats();
            Verdict v = decide(a, b, minRatio);
            verdicts.add(v);
            parts.add(versus(p.a(), p.b()) + ", " + v.label() + ")");
        }
        return new ClaimCheck(claim, article, tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }

    /** E.g. {@code warm: a 8 KiB 1.2 GB/s vs b 8 KiB 1.0 GB/s (1.20x} — the caller closes the bracket. */
    private static String versus(Measurement a, Measurement b) {
        boolean sizes = a.fileSize() != b.fileSize();
        return condition(a) + ": " + named(a, sizes) + " vs " + named(b, sizes) + " ("
                + Rates.ratio(a.stats().ratioTo(b.stats()));
    }

    private static String condition(Measurement m) {
        StringBuilder b = new StringBuilder();
        if (m.cache() != null) {
            b.append(m.cache());
        } else {
            b.append(m.sync() ? "with sync" : "no sync");
            if (m.prealloc() != null && !m.prealloc().equals("none")) {
                b.append(", ").append(m.prealloc());
            }
        }
        return b.toString();
    }

    private static String named(Measurement m, boolean withFileSize) {
        return Advisor.shortLabel(m) + (withFileSize ? " (" + Sizes.format(m.fileSize()) + " file)" : "") + " "
                + Rates.format(m.stats().median(), m.unit());
    }

    private static Article article(Measurement m) {
        return Catalogue.find(m.method()).map(MethodInfo::article).orElse(Article.MODERN);
    }

    /**
     * The best of {@code pool} that is {@code candidate} against the best of the rest, on each file size both measured
     * (a fast read of a small file says nothing about a large one); the verdict of the majority of the sizes.
     */
    private static ClaimCheck fastest(String claim, String article, List<Measurement> all,
                                      Predicate<Measurement> pool, Predicate<Measurement> candidate,
                                      String candidateName, String rivalName, String notMeasured) {
        Comparator<Measurement> byMedian = Comparator.comparingDouble(m -> m.stats().median());
        List<Long> sizes = all.stream().filter(pool).map(Measurement::fileSize).distinct().sorted().toList();
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (long size : sizes) {
            Predicate<Measurement> here = m -> pool.test(m) && m.fileSize() == size;
            Optional<Measurement> best = all.stream().filter(here).filter(candidate).max(byMedian);
            Optional<Measurement> rival = all.stream().filter(here).filter(candidate.negate()).max(byMedian);
            if (best.isEmpty() || rival.isEmpty()) {
                continue;
            }
            Verdict v = decide(best.get().stats(), rival.get().stats(), 1);
            verdicts.add(v);
            parts.add(condition(best.get()) + ", " + Sizes.format(size) + " file: " + candidateName + " "
                    + named(best.get(), false) + " vs " + rivalName + " " + named(rival.get(), false) + " ("
                    + Rates.ratio(best.get().stats().ratioTo(rival.get().stats())) + ", " + v.label() + ")");
        }
        if (verdicts.isEmpty()) {
            return new ClaimCheck(claim, article, notMeasured, Verdict.NOT_MEASURED);
        }
        return new ClaimCheck(claim, article, tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }

    // ---------------------------------------------------------------- claims with their own rules

    private static ClaimCheck seekVsSkip(List<Measurement> all) {
        String claim = "seeking is about 2x faster than skipping a buffered stream";
        List<Pair> pairs = pairs(all, Bench.RANDOM, Set.of("raf-seek"), Set.of("bis-skip"), m -> true);
        Optional<Pair> warm = pairs.stream().filter(p -> "warm".equals(p.a().cache())).findFirst();
        if (warm.isEmpty()) {
            return new ClaimCheck(claim, FISHER, "needs raf-seek and bis-skip warm at the same stride;"
                    + " ./iolab bench --profile quick measures them", Verdict.NOT_MEASURED);
        }
        Stats a = warm.get().a().stats();
        Stats b = warm.get().b().stats();
        double r = a.ratioTo(b);
        // "about 2x": every pass of the seek between 1.5 and 3 times every pass of the skip; clearly outside that
        // band (either way) it does not hold
        Verdict v;
        boolean passes = a.n() >= Stats.MIN_PASSES && b.n() >= Stats.MIN_PASSES;
        if (passes && a.min() > b.max() * ABOUT_2X_LOW && a.max() < b.min() * ABOUT_2X_HIGH) {
            v = Verdict.HOLDS;
        } else if (passes && (a.max() < b.min() * ABOUT_2X_LOW || a.min() > b.max() * ABOUT_2X_HIGH)) {
            v = Verdict.DOES_NOT_HOLD;
        } else {
            v = Verdict.NOT_DISTINGUISHABLE;
        }
        String about = r >= ABOUT_2X_LOW && r <= ABOUT_2X_HIGH ? "about 2x" : r > ABOUT_2X_HIGH
                ? "more than 3x: 'about 2x' understates it" : r > 1 ? "less than 1.5x" : "skip is not slower";
        StringBuilder text = new StringBuilder(versus(warm.get().a(), warm.get().b())).append(", ").append(about)
                .append(", ").append(v.label()).append(')');
        pairs.stream().filter(p -> !"warm".equals(p.a().cache())).forEach(p -> text.append("; ")
                .append(versus(p.a(), p.b())).append(')'));
        return new ClaimCheck(claim, FISHER, text.toString(), v);
    }

    private static ClaimCheck preallocation(List<Measurement> all) {
        String claim = "pre-allocated files are faster to write";
        List<Pair> pairs = new ArrayList<>();
        for (Measurement a : all) {
            if (a.bench() != Bench.WRITE || a.prealloc() == null || a.prealloc().equals("none")) {
                continue;
            }
            all.stream().filter(b -> b.bench() == Bench.WRITE && b.method().equals(a.method())
                            && "none".equals(b.prealloc()) && b.sync() == a.sync()
                            && b.bufferSize() == a.bufferSize() && b.fileSize() == a.fileSize())
                    .findFirst().ifPresent(b -> pairs.add(new Pair(a, b)));
        }
        if (pairs.isEmpty()) {
            return new ClaimCheck(claim, THOMPSON, "needs the same write with and without preallocation;"
                    + " run ./iolab bench --prealloc none and --prealloc fallocate, then ./iolab compare the two"
                    + " results", Verdict.NOT_MEASURED);
        }
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (Pair p : pairs) {
            Verdict v = decide(p.a().stats(), p.b().stats(), 1);
            verdicts.add(v);
            parts.add(p.a().method() + " " + Sizes.format(p.a().bufferSize()) + (p.a().sync() ? " sync" : "")
                    + ": " + p.a().prealloc() + " " + Rates.format(p.a().stats().median(), p.a().unit())
                    + " vs none " + Rates.format(p.b().stats().median(), p.b().unit()) + " ("
                    + Rates.ratio(p.a().stats().ratioTo(p.b().stats())) + ", " + v.label() + ")");
        }
        return new ClaimCheck(claim, THOMPSON, tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }

    private static ClaimCheck eightVsOne(List<Measurement> all) {
        String claim = "8 KiB buffers are faster than 1 KiB buffers";
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (Measurement a : all) {
            if (a.bench() == Bench.RANDOM || !a.usesBuffer() || a.bufferSize() != KIB8) {
                continue;
            }
            Optional<Measurement> b = all.stream().filter(x -> x.method().equals(a.method()) && sameSetting(a, x)
                    && x.bufferSize() == KIB1 && x.fileSize() == a.fileSize()).findFirst();
            if (b.isPresent()) {
                Verdict v = decide(a.stats(), b.get().stats(), 1);
                verdicts.add(v);
                parts.add(a.method() + " " + condition(a) + ": " + Rates.format(a.stats().median(), a.unit())
                        + " vs " + Rates.format(b.get().stats().median(), a.unit()) + " ("
                        + Rates.ratio(a.stats().ratioTo(b.get().stats())) + ", " + v.label() + ")");
            }
        }
        if (verdicts.isEmpty()) {
            return new ClaimCheck(claim, JIB, "needs the same method at 1 KiB and 8 KiB; ./iolab bench --buffers"
                    + " 1k,8k measures it", Verdict.NOT_MEASURED);
        }
        return new ClaimCheck(claim, JIB, tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }

    /** The first pass (warm-ups first) against the others of the same point, for channel-direct-*. */
    private static ClaimCheck firstDirectBuffer(List<Measurement> all) {
        String claim = "the first pass with a direct buffer costs more (allocation)";
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        boolean warmupsRecorded = false;
        for (Measurement m : all) {
            if (!m.method().startsWith("channel-direct-")) {
                continue;
            }
            // every first pass is slow (the JIT has not compiled the loop yet): only a drop beyond the heap buffer's,
            // in the same setting, is the direct buffer's own cost
            String heapMethod = m.method().replace("channel-direct-", "channel-heap-");
            Optional<Measurement> heap = all.stream().filter(h -> h.method().equals(heapMethod)
                    && h.bench() == m.bench() && h.bufferSize() == m.bufferSize() && h.fileSize() == m.fileSize()
                    && Objects.equals(h.cache(), m.cache())).findFirst();
            List<Double> series = new ArrayList<>(m.warmups());
            series.addAll(m.passes());
            if (series.size() < 3 || heap.isEmpty()) {
                continue;
            }
            List<Double> heapSeries = new ArrayList<>(heap.get().warmups());
            heapSeries.addAll(heap.get().passes());
            if (heapSeries.size() < 3 || heap.get().warmups().isEmpty() != m.warmups().isEmpty()) {
                continue;
            }
            warmupsRecorded |= !m.warmups().isEmpty();
            double first = series.getFirst();
            Stats rest = Stats.of(series.subList(1, series.size()));
            Stats heapRest = Stats.of(heapSeries.subList(1, heapSeries.size()));
            double drop = first / rest.median();
            double heapDrop = heapSeries.getFirst() / heapRest.median();
            // the noise of a ratio to the median: the spread of the other passes, relative to their median
            double noise = (rest.max() - rest.min()) / rest.median() + (heapRest.max() - heapRest.min())
                    / heapRest.median();
            Verdict v;
            if (drop < heapDrop - noise) {
                v = Verdict.HOLDS;
            } else if (drop >= heapDrop) {
                v = Verdict.DOES_NOT_HOLD;
            } else {
                v = Verdict.NOT_DISTINGUISHABLE;
            }
            verdicts.add(v);
            parts.add(Advisor.shortLabel(m) + " " + condition(m) + ": first pass "
                    + String.format(Locale.ROOT, "%+.0f%%", (drop - 1) * 100) + " of the others' median, "
                    + heapMethod + String.format(Locale.ROOT, " %+.0f%%", (heapDrop - 1) * 100) + " (" + v.label()
                    + ")");
        }
        if (verdicts.isEmpty()) {
            return new ClaimCheck(claim, JIB, "needs channel-direct-array or channel-direct-byte and the same"
                    + " channel-heap method in the same setting, with at least 3 passes each; ./iolab bench --profile"
                    + " quick measures them", Verdict.NOT_MEASURED);
        }
        String caveat = warmupsRecorded ? "" : "warm-up passes were not recorded, so the first pass here comes"
                + " after JMH's warm-up; ";
        return new ClaimCheck(claim, JIB, caveat + tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }

    private static ClaimCheck pageCache(RunData run, List<Measurement> all) {
        String claim = "warm figures can exceed the disk's physical limit (page cache); cold reads are bounded by"
                + " the device";
        // the device figure comes from tools outside Java only: Java's own cold reads are what is checked against it
        Optional<Limit> device = PageCacheTruth.independentDevice(run);
        if (device.isEmpty()) {
            return new ClaimCheck(claim, JIB, "needs the device's bandwidth from a tool outside Java (fio with"
                    + " O_DIRECT, or C read() on a cold cache: ./iolab bench without --no-limits)",
                    Verdict.NOT_MEASURED);
        }
        double dev = device.get().stats().median();
        String source = deviceSource(device.get());
        Comparator<Measurement> byMedian = Comparator.comparingDouble(m -> m.stats().median());
        Optional<Measurement> warm = all.stream().filter(m -> m.bench() == Bench.READ && "warm".equals(m.cache()))
                .max(byMedian);
        Optional<Measurement> cold = all.stream().filter(m -> m.bench() == Bench.READ && "cold".equals(m.cache()))
                .max(byMedian);
        if (warm.isEmpty()) {
            return new ClaimCheck(claim, JIB, "device " + Rates.format(dev, "B/s") + " (" + source + "); needs"
                    + " warm reads (./iolab bench --cache both)", Verdict.NOT_MEASURED);
        }
        Stats w = warm.get().stats();
        StringBuilder text = new StringBuilder("device ").append(Rates.format(dev, "B/s")).append(" (")
                .append(source).append("); fastest warm read ").append(named(warm.get(), false)).append(" = ")
                .append(String.format(Locale.ROOT, "%.1f×", w.median() / dev)).append(" the device");
        boolean passes = w.n() >= Stats.MIN_PASSES;
        Verdict v;
        if (passes && w.min() > dev * PageCacheTruth.MEMORY_FACTOR) {
            v = Verdict.HOLDS;
        } else if (passes && w.max() <= dev * PageCacheTruth.MEMORY_FACTOR) {
            v = Verdict.DOES_NOT_HOLD;
        } else {
            v = Verdict.NOT_DISTINGUISHABLE;
        }
        if (cold.isPresent()) {
            Stats c = cold.get().stats();
            text.append("; fastest cold read ").append(named(cold.get(), false)).append(" = ")
                    .append(String.format(Locale.ROOT, "%.2f×", c.median() / dev)).append(" the device");
            if (c.n() >= Stats.MIN_PASSES && c.min() > dev * PageCacheTruth.MEMORY_FACTOR) {
                v = Verdict.DOES_NOT_HOLD;
                text.append(" (faster than the device: the cold cache was not cold)");
            }
        }
        return new ClaimCheck(claim, JIB, text.toString(), v);
    }

    private static String deviceSource(Limit l) {
        if ("fio".equals(l.tool()) && "read-direct".equals(l.operation())) {
            return "fio read with O_DIRECT";
        }
        return l.tool() + " " + l.operation() + ("cold".equals(l.cache()) ? " cold" : "");
    }

    /** For array reads with a buffer sweep: 8 KiB within 20% of the best buffer size. */
    private static ClaimCheck flattens(List<Measurement> all) {
        String claim = "read speed flattens by 8 KiB arrays (larger arrays gain little)";
        Map<String, List<Measurement>> sweeps = new LinkedHashMap<>();
        for (Measurement m : all) {
            if (m.bench() == Bench.READ && m.kind() == Kind.READ && m.usesBuffer() && article(m) != Article.MODERN
                    && !m.method().endsWith("-byte")) {
                sweeps.computeIfAbsent(m.method() + "|" + setting(m) + "|" + m.fileSize(), k -> new ArrayList<>())
                        .add(m);
            }
        }
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (List<Measurement> sweep : sweeps.values()) {
            Optional<Measurement> at8 = sweep.stream().filter(m -> m.bufferSize() == KIB8).findFirst();
            if (sweep.size() < 2 || at8.isEmpty() || sweep.stream().noneMatch(m -> m.bufferSize() > KIB8)) {
                continue;
            }
            // the claim is about the larger arrays: the best of them against 8 KiB
            Measurement best = sweep.stream().filter(m -> m.bufferSize() > KIB8)
                    .max(Comparator.comparingDouble(m -> m.stats().median())).orElseThrow();
            Stats s8 = at8.get().stats();
            Stats sb = best.stats();
            double share = s8.median() / sb.median();
            // holds when every 8 KiB pass reaches 80 % of every pass of the best larger array, does not hold when
            // none does; with fewer passes or ranges across the 80 % line, not distinguishable
            boolean passes = s8.n() >= Stats.MIN_PASSES && sb.n() >= Stats.MIN_PASSES;
            Verdict v;
            if (passes && s8.min() >= sb.max() * FLAT) {
                v = Verdict.HOLDS;
            } else if (passes && s8.max() < sb.min() * FLAT) {
                v = Verdict.DOES_NOT_HOLD;
            } else {
                v = Verdict.NOT_DISTINGUISHABLE;
            }
            verdicts.add(v);
            parts.add(at8.get().method() + " " + condition(best) + String.format(Locale.ROOT, ": 8 KiB %.0f%%",
                    share * 100) + " of " + Sizes.format(best.bufferSize()) + " ("
                    + Rates.format(s8.median(), best.unit()) + " vs " + Rates.format(sb.median(), best.unit())
                    + ", " + v.label() + ")");
        }
        if (verdicts.isEmpty()) {
            return new ClaimCheck(claim, NADEAU, "needs array reads at 8 KiB and larger buffers; ./iolab bench"
                    + " --profile quick (8 KiB, 64 KiB, 1 MiB) or --buffers 1k,8k,64k,1m measures them",
                    Verdict.NOT_MEASURED);
        }
        return new ClaimCheck(claim, NADEAU, tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }

    /** C read() against the best Java array read at the same buffer size and cache. */
    private static ClaimCheck cFaster(RunData run, List<Measurement> all) {
        String claim = "C is clearly faster than Java";
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (Limit l : run.limits()) {
            if (!"c".equals(l.tool()) || !"read".equals(l.operation()) || l.passes().isEmpty()) {
                continue;
            }
            Optional<Measurement> java = all.stream().filter(m -> m.bench() == Bench.READ && m.kind() == Kind.READ
                            && m.usesBuffer() && m.bufferSize() == l.blockSize() && m.fileSize() == l.fileSize()
                            && Objects.equals(m.cache(), l.cache()) && !MAPPED_READS.contains(m.method())
                            && !m.method().endsWith("-byte"))
                    .max(Comparator.comparingDouble(m -> m.stats().median()));
            if (java.isEmpty()) {
                continue;
            }
            Stats c = l.stats();
            Stats j = java.get().stats();
            Verdict v = decide(c, j, 1);
            verdicts.add(v);
            parts.add(l.cache() + " " + Sizes.format(l.blockSize()) + ", " + Sizes.format(l.fileSize())
                    + " file: C read() " + Rates.format(c.median(), "B/s")
                    + " vs " + named(java.get(), false) + " (" + Rates.ratio(c.ratioTo(j)) + ", " + v.label() + ")");
        }
        if (verdicts.isEmpty()) {
            return new ClaimCheck(claim, NADEAU, "needs the C baseline (C read() in limits.json beside"
                    + " results.json, at a buffer size and cache the Java reads also ran; a run with a C compiler"
                    + " available writes it)", Verdict.NOT_MEASURED);
        }
        return new ClaimCheck(claim, NADEAU, tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }

    /**
     * A method among the three fastest warm reads, on each file size it was read at: the verdict of the majority of
     * the sizes.
     *
     * @param method the method claimed to be among the three fastest warm reads of each file size
     * @param articleEra rank it among the methods of Nadeau's article only (not the modern ones)
     */
    private static ClaimCheck amongFastest(List<Measurement> all, String claim, String method, boolean articleEra) {
        List<Measurement> warm = all.stream()
                .filter(m -> m.bench() == Bench.READ && m.kind() == Kind.READ && "warm".equals(m.cache())
                        && (!articleEra || article(m) == Article.NADEAU)).toList();
        List<Long> sizes = warm.stream().filter(m -> m.method().equals(method))
                .map(Measurement::fileSize).distinct().sorted().toList();
        List<Verdict> verdicts = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (long size : sizes) {
            Map<String, Measurement> bestPerMethod = new LinkedHashMap<>();
            warm.stream().filter(m -> m.fileSize() == size)
                    .forEach(m -> bestPerMethod.merge(m.method(), m, Claims::faster));
            Measurement cda = bestPerMethod.get(method);
            if (bestPerMethod.size() < 4) {
                continue;
            }
            List<Measurement> ranked = bestPerMethod.values().stream()
                    .sorted(Comparator.comparingDouble((Measurement m) -> m.stats().median()).reversed()).toList();
            int rank = ranked.indexOf(cda) + 1;
            Stats c = cda.stats();
            // clearly faster: every pass above every one of channel-direct-array's; not clearly slower: the rest
            long clearlyFaster = ranked.stream().filter(m -> m != cda && m.stats().distinguishableFrom(c)
                    && m.stats().min() > c.max()).count();
            long notClearlySlower = ranked.stream().filter(m -> m != cda && !(m.stats().distinguishableFrom(c)
                    && m.stats().max() < c.min())).count();
            Verdict v;
            if (clearlyFaster >= 3) {
                v = Verdict.DOES_NOT_HOLD;
            } else if (notClearlySlower <= 2 && c.n() >= Stats.MIN_PASSES) {
                v = Verdict.HOLDS;
            } else {
                v = Verdict.NOT_DISTINGUISHABLE;
            }
            verdicts.add(v);
            String top = ranked.subList(0, 3).stream().map(m -> named(m, false)).collect(Collectors.joining(", "));
            parts.add("warm, " + Sizes.format(size) + " file: " + named(cda, false) + " ranks " + rank + " of "
                    + ranked.size() + " read methods; the three fastest: " + top + " (" + v.label() + ")");
        }
        if (verdicts.isEmpty()) {
            return new ClaimCheck(claim, NADEAU, "needs warm " + method + " reads and at least three other"
                    + " read methods of the same file; ./iolab bench --profile quick measures them",
                    Verdict.NOT_MEASURED);
        }
        return new ClaimCheck(claim, NADEAU, tally(verdicts) + String.join("; ", parts), majority(verdicts));
    }
}
