package org.iolab.report.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import org.iolab.Sizes;
import org.iolab.catalogue.Kind;
import org.iolab.report.limits.Fio;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Latency;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Stats;
import org.iolab.report.model.TargetCheck;
import org.iolab.report.model.Verdict;

/**
 * The journal's targets from issue 4, each checked against the same run: the journal's best backend against
 * Chronicle Queue, fio and the catalogue's fastest warm read. A target is met (or not met) only when the
 * journal's min–max range and the comparator's range times the factor do not overlap; otherwise it is not
 * distinguishable.
 *
 * <p>The fio targets compare like with like: the journal's write-then-sync passes ({@link Bench#JOURNAL_BULK}: the
 * same record size and byte count as fio's job, ending with a sync) against fio's. A run without them gets no
 * verdict: its append throughput (no sync) is shown for information, saying so. The replay target compares the
 * replay with the warm reads of the catalogue's file size nearest to the replay's bytes.
 */
public final class JournalTargets {
    private static final long B64 = 64;
    private static final long KIB4 = 4096;
    private static final long KIB64 = 65536;

    private JournalTargets() {
    }

    /**
     * @param run a run
     * @return the targets in issue order (empty when the run measured no journal)
     */
    public static List<TargetCheck> check(RunData run) {
        List<Measurement> journal = run.results().journal().stream().filter(m -> !m.passes().isEmpty()).toList();
        if (journal.isEmpty()) {
            return List.of();
        }
        List<TargetCheck> out = new ArrayList<>();
        out.add(versusChronicle(journal, B64, 3));
        out.add(versusChronicle(journal, KIB4, 1.5));
        out.add(replayVersusChronicle(journal));
        out.add(versusFio(journal, run.limits(), KIB64, "none", Fio.JOURNAL_WRITE,
                "64 KiB records at NONE then sync ≥ 0.9× fio buffered sequential write",
                " (the append benchmark ends no iteration with a sync)", "", false));
        String p99 = run.latency().stream().filter(l -> "durable".equals(l.mode())).findFirst()
                .map(l -> "; p99 append-to-durable " + micros(l.p99Nanos()) + " at " + Math.round(l.rate())
                        + "/s (" + l.backend() + ", " + Sizes.format(l.recordSize()) + ")")
                .orElse("; p99 append-to-durable latency not measured");
        List<Long> batchSizes = journal.stream().filter(m -> (m.bench() == Bench.JOURNAL_APPEND
                || m.bench() == Bench.JOURNAL_BULK) && "batch".equals(m.durability())).map(Measurement::bufferSize)
                .distinct().sorted().toList();
        if (batchSizes.isEmpty()) {
            out.add(notMeasured("BATCH ≥ 0.9× fio with fdatasync at the same cadence", 0.9,
                    "no BATCH write+sync passes or appends; ./iolab bench --workload journal --durability batch"
                            + p99));
        }
        for (long size : batchSizes) {
            out.add(versusFio(journal, run.limits(), size, "batch", Fio.JOURNAL_WRITE_FDATASYNC, "BATCH "
                    + Sizes.format(size) + " ≥ 0.9× fio with fdatasync at the same cadence",
                    " (appends waiting for no sync)", p99, true));
        }
        out.add(replayVersusReads(journal, run.results().measurements()));
        return out;
    }

    private static TargetCheck versusChronicle(List<Measurement> journal, long size, double needed) {
        String target = "NONE " + Sizes.format(size) + " appends ≥ " + factor(needed) + " Chronicle Queue";
        Optional<Measurement> j = best(journal, m -> m.bench() == Bench.JOURNAL_APPEND && m.bufferSize() == size
                && "none".equals(m.durability()));
        Optional<Measurement> c = best(journal, m -> m.bench() == Bench.CHRONICLE_APPEND && m.bufferSize() == size);
        return decide(target, j, c, needed, false, "no NONE " + Sizes.format(size) + " appends; ./iolab bench"
                + " --workload journal --record-sizes " + option(size), "");
    }

    private static TargetCheck replayVersusChronicle(List<Measurement> journal) {
        String target = "replay of 64 B records ≥ 2× Chronicle Queue's tailer";
        Optional<Measurement> j = best(journal, m -> m.bench() == Bench.JOURNAL_REPLAY && m.bufferSize() == B64);
        Optional<Measurement> c = best(journal, m -> m.bench() == Bench.CHRONICLE_REPLAY && m.bufferSize() == B64);
        return decide(target, j, c, 2, false, "no 64 B replay; ./iolab bench --workload journal --record-sizes 64",
                "");
    }

    private static TargetCheck decide(String target, Optional<Measurement> j, Optional<Measurement> c, double needed,
                                      boolean bytes, String missingJournal, String extra) {
        if (j.isEmpty()) {
            return notMeasured(target, needed, missingJournal);
        }
        Stats js = bytes ? j.get().byteStats() : j.get().stats();
        String unit = bytes ? "B/s" : j.get().unit();
        String jText = describe(j.get(), js, unit) + extra;
        if (c.isEmpty()) {
            return new TargetCheck(target, jText, "Chronicle Queue not measured in this run (its benchmarks are"
                    + " not in this build)", Double.NaN, needed, Verdict.NOT_MEASURED);
        }
        Stats cs = bytes ? c.get().byteStats() : c.get().stats();
        return new TargetCheck(target, jText, "chronicle " + figure(cs, unit), js.ratioTo(cs), needed,
                verdict(js, cs, needed));
    }

    /**
     * The journal's best write-then-sync pass at that record size and durability against fio's job, or without
     * one its best appends with {@code appendCaveat}.
     *
     * @param fastestFio set the journal against the fastest fio job of {@code operation} in the run, whatever its
     *        block size (the device's rate at that sync cadence), not the job whose block size is the record size:
     *        fio writing 64-byte blocks is bound by its own system call per block, at a twelfth of what the same
     *        device does at the same cadence with 64 KiB writes, so a journal that batches records into large writes
     *        would "beat" a comparator that no storage design is held to
     */
    private static TargetCheck versusFio(List<Measurement> journal, List<Limit> limits, long size, String durability,
                                         String operation, String target, String appendCaveat, String extra,
                                         boolean fastestFio) {
        Optional<Measurement> bulk = best(journal, m -> m.bench() == Bench.JOURNAL_BULK && m.bufferSize() == size
                && durability.equals(m.durability()));
        if (bulk.isEmpty()) {
            // appends that never sync against a fio job that does: no verdict, the figure only for information
            Optional<Measurement> appends = best(journal, m -> m.bench() == Bench.JOURNAL_APPEND
                    && m.bufferSize() == size && durability.equals(m.durability()));
            String info = appends.map(a -> "no write+sync passes; appends " + describe(a, a.byteStats(), "B/s")
                    + appendCaveat + ", not comparable with fio's synced job; ").orElse("no "
                    + durability.toUpperCase(Locale.ROOT) + " " + Sizes.format(size) + " write+sync passes; ");
            return notMeasured(target, 0.9, info + "./iolab bench --workload journal --record-sizes " + option(size)
                    + " --durability " + durability + " measures them" + extra);
        }
        Optional<Measurement> j = bulk;
        Stats js = j.get().byteStats();
        String jText = j.get().method() + " write+sync of " + Sizes.format(j.get().fileSize()) + " "
                + figure(js, "B/s") + extra;
        Optional<Limit> sameSize = limits.stream().filter(l -> Fio.TOOL.equals(l.tool())
                && operation.equals(l.operation()) && l.blockSize() == size && !l.passes().isEmpty()).findFirst();
        Optional<Limit> fio = fastestFio ? limits.stream().filter(l -> Fio.TOOL.equals(l.tool())
                && operation.equals(l.operation()) && !l.passes().isEmpty())
                .max(Comparator.comparingDouble(l -> l.stats().median())) : sameSize;
        if (fio.isEmpty()) {
            return new TargetCheck(target, jText, "fio not measured (fio not installed, or --no-limits)",
                    Double.NaN, 0.9, Verdict.NOT_MEASURED);
        }
        Stats fs = fio.get().stats();
        String bytes = bulk.isPresent() && fio.get().fileSize() != j.get().fileSize()
                ? ", on " + Sizes.format(fio.get().fileSize()) + " (not the journal's byte count)" : "";
        String which = "";
        if (fastestFio) {
            which = ", bs = " + Sizes.format(fio.get().blockSize()) + " (fio's fastest job at this cadence"
                    + sameSize.filter(l -> l != fio.get()).map(l -> "; with bs = " + Sizes.format(size) + " fio made "
                    + figure(l.stats(), "B/s") + ", bound by a write call per block").orElse("") + ")";
        }
        return new TargetCheck(target, jText, "fio " + figure(fs, "B/s") + which + ", " + fio.get().note() + bytes,
                js.ratioTo(fs), 0.9, verdict(js, fs, 0.9));
    }

    private static TargetCheck replayVersusReads(List<Measurement> journal, List<Measurement> catalogue) {
        String target = "replay ≥ 0.9× the catalogue's fastest warm sequential read";
        Optional<Measurement> j = journal.stream().filter(m -> m.bench() == Bench.JOURNAL_REPLAY)
                .max(Comparator.comparingDouble(m -> m.byteStats().median()));
        if (j.isEmpty()) {
            return notMeasured(target, 0.9, "no replay measured");
        }
        Stats js = j.get().byteStats();
        String jText = describe(j.get(), js, "B/s");
        List<Measurement> warm = catalogue.stream().filter(m -> m.bench() == Bench.READ && m.kind() == Kind.READ
                && "warm".equals(m.cache()) && !m.passes().isEmpty()).toList();
        // a small file read from the caches is faster than a large one from memory: the reads of the file size
        // nearest to the replay's bytes (on a log scale)
        long bytes = j.get().fileSize();
        Optional<Long> size = warm.stream().map(Measurement::fileSize).distinct()
                .min(Comparator.comparingDouble(f -> Math.abs(Math.log((double) f / Math.max(1, bytes)))));
        Optional<Measurement> read = warm.stream().filter(m -> size.isPresent() && m.fileSize() == size.get())
                .max(Comparator.comparingDouble(m -> m.stats().median()));
        if (read.isEmpty()) {
            return new TargetCheck(target, jText, "the run measured no warm reads; ./iolab bench --workload all"
                    + " measures both", Double.NaN, 0.9, Verdict.NOT_MEASURED);
        }
        Stats rs = read.get().stats();
        return new TargetCheck(target, jText + ", " + Sizes.format(bytes), read.get().label() + " of a "
                + Sizes.format(read.get().fileSize()) + " file " + figure(rs, "B/s"), js.ratioTo(rs), 0.9,
                verdict(js, rs, 0.9));
    }

    /**
     * @param journal the journal's passes
     * @param comparator the comparator's passes
     * @param needed the factor the target asks for
     * @return met when every journal pass beat every comparator pass times the factor, not met when every one
     *     fell short of them, else not distinguishable (also with fewer than {@link Stats#MIN_PASSES} passes)
     */
    static Verdict verdict(Stats journal, Stats comparator, double needed) {
        Stats scaled = new Stats(comparator.n(), comparator.median() * needed, comparator.min() * needed,
                comparator.max() * needed, comparator.mean() * needed);
        if (!journal.distinguishableFrom(scaled)) {
            return Verdict.NOT_DISTINGUISHABLE;
        }
        return journal.min() > scaled.max() ? Verdict.HOLDS : Verdict.DOES_NOT_HOLD;
    }

    private static TargetCheck notMeasured(String target, double needed, String why) {
        return new TargetCheck(target, why, "-", Double.NaN, needed, Verdict.NOT_MEASURED);
    }

    private static Optional<Measurement> best(List<Measurement> all, Predicate<Measurement> which) {
        return all.stream().filter(which).max(Comparator.comparingDouble(m -> m.stats().median()));
    }

    private static String describe(Measurement m, Stats s, String unit) {
        return (m.bench().chronicle() ? "chronicle" : m.method()) + " " + figure(s, unit);
    }

    /**
     * @param s passes
     * @param unit their unit
     * @return e.g. {@code 5.95 M appends/s (5.1 M appends/s – 6.0 M appends/s)}
     */
    static String figure(Stats s, String unit) {
        return Rates.format(s.median(), unit) + " (" + Rates.format(s.min(), unit) + " – "
                + Rates.format(s.max(), unit) + ")";
    }

    /** @return a size as the command line takes it: 64, 4k, 64k */
    private static String option(long size) {
        return size % 1024 == 0 ? size / 1024 + "k" : Long.toString(size);
    }

    private static String factor(double f) {
        return f == Math.rint(f) ? (long) f + "×" : f + "×";
    }

    /**
     * @param nanos a latency in nanoseconds
     * @return e.g. {@code 12.3 µs}, {@code 1.52 ms}
     */
    public static String micros(double nanos) {
        if (Double.isNaN(nanos)) {
            return "-";
        }
        if (nanos >= 1e6) {
            return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, nanos >= 1e4 ? "%.0f µs" : "%.1f µs", nanos / 1e3);
    }

    /**
     * @param l a latency run
     * @return its row of the latency table's percentiles, p50 to max
     */
    public static List<String> percentiles(Latency l) {
        return List.of(micros(l.p50Nanos()), micros(l.p90Nanos()), micros(l.p99Nanos()), micros(l.p999Nanos()),
                micros(l.maxNanos()));
    }
}
