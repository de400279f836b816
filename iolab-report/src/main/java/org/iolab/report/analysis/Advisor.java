package org.iolab.report.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.iolab.Sizes;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.report.model.Advice;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Stats;

/**
 * Picks the method to use on this machine for each workload: the measurement with the highest median, the
 * best measurement of a different method as runner-up, and whether the winner is clearly ahead (min–max
 * ranges disjoint).
 */
public final class Advisor {
    /** Workload name of warm sequential reads (file in the page cache). */
    public static final String SEQUENTIAL_READ_WARM = "sequential read (warm)";
    /** Workload name of cold sequential reads (from the device). */
    public static final String SEQUENTIAL_READ_COLD = "sequential read (cold)";
    /** Workload name of sequential writes. */
    public static final String SEQUENTIAL_WRITE = "sequential write";
    /** Workload name of random reads. */
    public static final String RANDOM_READ = "random read";
    /** Workload name of the journal's storage backend (appends at NONE with 64 B records). */
    public static final String JOURNAL_BACKEND = "journal backend";
    /** Workload name of the embedded store (the employee workload's phases at durability NONE). */
    public static final String EMBEDDED_STORE = "embedded store";

    private Advisor() {
    }

    /**
     * @param run a run
     * @return advice for {@value #SEQUENTIAL_READ_WARM}, {@value #SEQUENTIAL_READ_COLD},
     *     {@value #SEQUENTIAL_WRITE}, {@value #RANDOM_READ}, {@value #JOURNAL_BACKEND} and
     *     {@value #EMBEDDED_STORE}, in that order; a
     *     workload the run did not measure is left out
     */
    public static List<Advice> advise(RunData run) {
        List<Measurement> all = run.results().measurements().stream().filter(m -> !m.passes().isEmpty()).toList();
        List<Advice> out = new ArrayList<>();
        Predicate<Measurement> seqRead = m -> m.bench() == Bench.READ && m.kind() == Kind.READ;
        Optional<Measurement> coldBest = best(all, seqRead.and(m -> "cold".equals(m.cache())));
        advice(SEQUENTIAL_READ_WARM, all, seqRead.and(m -> "warm".equals(m.cache())),
                coldBest.map(c -> " From a cold cache " + shortLabel(c) + " leads with "
                        + Rates.format(c.stats().median(), c.unit()) + ".").orElse("")).ifPresent(out::add);
        advice(SEQUENTIAL_READ_COLD, all, seqRead.and(m -> "cold".equals(m.cache())), "").ifPresent(out::add);
        advice(SEQUENTIAL_WRITE, all, m -> m.bench() == Bench.WRITE, "").ifPresent(out::add);
        Predicate<Measurement> random = m -> m.bench() == Bench.RANDOM;
        Optional<Measurement> randomCold = best(all, random.and(m -> "cold".equals(m.cache())));
        boolean anyWarm = all.stream().anyMatch(random.and(m -> "warm".equals(m.cache())));
        if (anyWarm) {
            advice(RANDOM_READ, all, random.and(m -> "warm".equals(m.cache())),
                    randomCold.map(c -> " From a cold cache " + shortLabel(c) + " leads with "
                            + Rates.format(c.stats().median(), c.unit()) + ".").orElse("")).ifPresent(out::add);
        } else {
            advice(RANDOM_READ, all, random, "").ifPresent(out::add);
        }
        journalBackend(run).ifPresent(out::add);
        embeddedStore(run).ifPresent(out::add);
        return out;
    }

    /**
     * @param run a run
     * @return the fastest engine of each phase of the employee workload at durability NONE (the largest record
     *     count measured), with the runner-up when it is within the noise; the advice's measurements are the
     *     put phase's winner and runner-up (or the first phase measured); empty when the run has no store points
     */
    static Optional<Advice> embeddedStore(RunData run) {
        // Bruno's code and the heap-map floor are measured beside the stores but are not stores to choose
        List<Measurement> none = run.results().store().stream().filter(m -> "none".equals(m.durability())
                && !m.passes().isEmpty() && !StoreTargets.BRUNO.equals(m.method())
                && !StoreTargets.FLOOR.equals(m.method())).toList();
        if (none.isEmpty()) {
            return Optional.empty();
        }
        long records = none.stream().mapToLong(Measurement::records).max().orElseThrow();
        List<String> parts = new ArrayList<>();
        Measurement lead = null;
        Measurement leadRunnerUp = null;
        boolean leadAhead = false;
        for (String phase : ResultSet.STORE_PHASES) {
            List<Measurement> of = none.stream().filter(m -> m.records() == records && phase.equals(m.phase()))
                    .sorted(Comparator.comparingDouble(m -> m.stats().median())).toList();
            if (of.isEmpty()) {
                continue;
            }
            Measurement b = of.getFirst();
            Measurement r = of.size() > 1 ? of.get(1) : null;
            boolean ahead = r != null && b.stats().distinguishableFrom(r.stats());
            StringBuilder part = new StringBuilder(phase).append(' ').append(b.method()).append(" (")
                    .append(StoreTargets.ms(b.stats().median())).append(')');
            if (r != null && !ahead) {
                part.append(" tied within the noise with ").append(r.method()).append(" (")
                        .append(StoreTargets.ms(r.stats().median())).append(')');
            } else if (r != null) {
                part.append(", ").append(Rates.ratio(r.stats().median() / b.stats().median())).append(" faster than ")
                        .append(r.method());
            }
            parts.add(part.toString());
            if (lead == null || phase.equals("put")) {
                lead = b;
                leadRunnerUp = r;
                leadAhead = ahead;
            }
        }
        String text = "Fastest engine per phase of Bruno's employee workload (" + records + " records, durability"
                + " NONE, median time): " + String.join("; ", parts) + ".";
        return Optional.of(new Advice(EMBEDDED_STORE, lead, leadRunnerUp, leadAhead, text));
    }

    /**
     * @param run a run
     * @return the backend with the most appends per second at durability NONE with 64 B records (or, without
     *     those, the smallest record size measured at NONE), the runner-up another backend's best at the same
     *     setting; empty when the run has no such appends
     */
    static Optional<Advice> journalBackend(RunData run) {
        List<Measurement> none = run.results().journal().stream().filter(m -> m.bench() == Bench.JOURNAL_APPEND
                && "none".equals(m.durability()) && !m.passes().isEmpty()).toList();
        if (none.isEmpty()) {
            return Optional.empty();
        }
        long size = none.stream().anyMatch(m -> m.bufferSize() == 64) ? 64
                : none.stream().mapToLong(Measurement::bufferSize).min().orElseThrow();
        Predicate<Measurement> which = m -> m.bufferSize() == size;
        Measurement b = best(none, which).orElseThrow();
        Optional<Measurement> runnerUp = best(none, which.and(m -> !m.method().equals(b.method())));
        Stats bs = b.stats();
        StringBuilder text = new StringBuilder("Use the ").append(b.method()).append(" backend (")
                .append(backendTitle(b.method())).append("): ").append(Rates.format(bs.median(), b.unit()))
                .append(" median at durability NONE with ").append(Sizes.format(size)).append(" records");
        boolean ahead = false;
        if (runnerUp.isPresent()) {
            Measurement r = runnerUp.get();
            Stats rs = r.stats();
            ahead = bs.distinguishableFrom(rs);
            text.append(", ").append(Rates.ratio(bs.ratioTo(rs))).append(' ').append(r.method()).append(" (")
                    .append(Rates.format(rs.median(), r.unit())).append(')');
            text.append(ahead ? ", clearly ahead." : ", tied within the noise with " + r.method() + ".");
        } else {
            text.append("; no other backend was measured at that setting.");
        }
        return Optional.of(new Advice(JOURNAL_BACKEND, b, runnerUp.orElse(null), ahead, text.toString()));
    }

    private static String backendTitle(String label) {
        try {
            return org.iolab.storage.Backend.parse(label).description();
        } catch (org.iolab.IolabException e) {
            return "not a backend of this build";
        }
    }

    private static Optional<Measurement> best(List<Measurement> all, Predicate<Measurement> which) {
        return all.stream().filter(which).max(Comparator.comparingDouble(m -> m.stats().median()));
    }

    private static Optional<Advice> advice(String workload, List<Measurement> all, Predicate<Measurement> whichAny,
                                           String extra) {
        // one file size: a fast read of a small file says nothing about a large one, so the winner and its
        // runner-up are both taken on one file: the one the most methods were measured on, the largest of those (a
        // profile that keeps a large file for one method alone would otherwise crown it unopposed)
        OptionalLong largest = all.stream().filter(whichAny).mapToLong(Measurement::fileSize).max();
        if (largest.isEmpty()) {
            return Optional.empty();
        }
        Map<Long, Long> methodsOn = all.stream().filter(whichAny).collect(Collectors.groupingBy(
                Measurement::fileSize, Collectors.mapping(Measurement::method, Collectors.collectingAndThen(
                        Collectors.toSet(), set -> (long) set.size()))));
        long size = methodsOn.entrySet().stream().max(Map.Entry.<Long, Long>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
        Predicate<Measurement> which = whichAny.and(m -> m.fileSize() == size);
        boolean severalSizes = all.stream().filter(whichAny).mapToLong(Measurement::fileSize).distinct().count() > 1;
        Optional<Measurement> best = best(all, which);
        if (best.isEmpty()) {
            return Optional.empty();
        }
        Measurement b = best.get();
        Optional<Measurement> runnerUp = best(all, which.and(m -> !m.method().equals(b.method())
                && comparable(b, m)));
        Stats bs = b.stats();
        StringBuilder text = new StringBuilder("Use ").append(b.method()).append(" (").append(title(b)).append(")");
        if (b.bench() != Bench.RANDOM && b.usesBuffer()) {
            text.append(" with ").append(Sizes.format(b.bufferSize())).append(" buffers");
        }
        text.append(": ").append(Rates.format(bs.median(), b.unit())).append(" median");
        if (severalSizes) {
            text.append(" on the ").append(Sizes.format(size)).append(size == largest.getAsLong()
                    ? " file, the largest measured" : " file, the largest most methods were measured on");
        }
        boolean ahead = false;
        if (runnerUp.isPresent()) {
            Measurement r = runnerUp.get();
            Stats rs = r.stats();
            ahead = bs.distinguishableFrom(rs);
            text.append(", ").append(Rates.ratio(bs.ratioTo(rs))).append(' ').append(shortLabel(r)).append(" (")
                    .append(Rates.format(rs.median(), r.unit())).append(')');
            text.append(ahead ? ", clearly ahead." : ", tied within the noise with " + r.method() + ".");
        } else {
            text.append(severalSizes ? "; no other method was measured for this workload on that file."
                    : "; no other method was measured for this workload.");
        }
        text.append(extra);
        return Optional.of(new Advice(workload, b, runnerUp.orElse(null), ahead, text.toString()));
    }

    /** Writes with and without sync, or random reads at other strides, are not rivals. */
    private static boolean comparable(Measurement a, Measurement b) {
        return a.sync() == b.sync() && a.stride() == b.stride() && a.length() == b.length();
    }

    private static String title(Measurement m) {
        return Catalogue.find(m.method()).map(MethodInfo::title).orElse("not in this build's catalogue");
    }

    /**
     * @param m a measurement
     * @return the method and, when it matters, the buffer size, e.g. {@code mapped-array 1 MiB}
     */
    static String shortLabel(Measurement m) {
        if (m.bench() != Bench.RANDOM && m.usesBuffer()) {
            return m.method() + " " + Sizes.format(m.bufferSize());
        }
        return m.method();
    }
}
