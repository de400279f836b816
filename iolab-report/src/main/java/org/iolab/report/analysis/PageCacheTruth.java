package org.iolab.report.analysis;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import org.iolab.Sizes;
import org.iolab.report.limits.Fio;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.RunData;

/**
 * Tells figures read from the page cache apart from figures the device delivered, and sets Java figures
 * next to the C and fio baselines of the same run.
 */
public final class PageCacheTruth {
    /** A read faster than the device by more than this factor is served from memory. */
    static final double MEMORY_FACTOR = 1.10;
    /** A cold read at least this fraction of the device bandwidth is device-bound. */
    static final double DEVICE_FRACTION = 0.75;

    private PageCacheTruth() {
    }

    /**
     * @param run a run
     * @return the device's sequential read bandwidth in B/s: the fastest median of any read that cannot
     *     have come from the page cache — fio {@code read-direct}, cold C and fio reads, cold Java reads;
     *     empty when the run has none of these
     */
    public static OptionalDouble deviceBandwidth(RunData run) {
        // the fastest cold sequential read any tool achieved: fio O_DIRECT at queue depth 1 understates the
        // device, which the kernel's readahead drives with several requests in flight
        OptionalDouble limits = bestLimit(run.limits(), DEVICE_READ);
        OptionalDouble java = run.results().measurements().stream()
                .filter(m -> m.bench() == Bench.READ && "cold".equals(m.cache()) && !m.passes().isEmpty())
                .mapToDouble(m -> m.stats().median()).max();
        if (limits.isPresent() && java.isPresent()) {
            return OptionalDouble.of(Math.max(limits.getAsDouble(), java.getAsDouble()));
        }
        return limits.isPresent() ? limits : java;
    }

    /**
     * @param run a run
     * @return the fastest cold sequential read of the tools outside Java (fio with O_DIRECT, C {@code read} or
     *     {@code mmap} on a cold cache): a device figure that Java's own cold reads are not part of, so they can be
     *     checked against it; empty when the run has none
     */
    public static Optional<Limit> independentDevice(RunData run) {
        return run.limits().stream().filter(DEVICE_READ).filter(l -> !l.passes().isEmpty())
                .max(Comparator.comparingDouble(l -> l.stats().median()));
    }

    private static final Predicate<Limit> DEVICE_READ = l -> l.operation().startsWith("read")
            && ("cold".equals(l.cache()) || "read-direct".equals(l.operation()))
            || "mmap".equals(l.operation()) && "cold".equals(l.cache());

    private static OptionalDouble bestLimit(List<Limit> limits, Predicate<Limit> which) {
        return limits.stream().filter(which).filter(l -> !l.passes().isEmpty())
                .mapToDouble(l -> l.stats().median()).max();
    }

    /**
     * @param m a measurement
     * @param device the device bandwidth ({@link #deviceBandwidth})
     * @return {@code served from memory (N× the device)} when a warm read's median exceeds the device
     *     bandwidth by more than 10%, {@code device-bound} when a cold read runs at 75% to 110% of it, else the empty
     *     string (writes, random access, no device figure, or a cold read the method itself holds back)
     */
    public static String label(Measurement m, OptionalDouble device) {
        if (m.bench() != Bench.READ || device.isEmpty() || m.passes().isEmpty() || !(device.getAsDouble() > 0)) {
            return "";
        }
        double ratio = m.stats().median() / device.getAsDouble();
        // a cold pass ran on a file checked to be out of the page cache: whatever its speed, it is not memory
        if (ratio > MEMORY_FACTOR && !"cold".equals(m.cache())) {
            return String.format(Locale.ROOT, "served from memory (%.1f× the device)", ratio);
        }
        if ("cold".equals(m.cache()) && ratio >= DEVICE_FRACTION) {
            return "device-bound";
        }
        return "";
    }

    /**
     * @param m a measurement
     * @param limits the run's limits
     * @return the C baseline of the same operation family: sequential reads → C {@code read} with the same
     *     cache and the same buffer size (else the nearest); {@code mapped-*} and {@code segment-mapped}
     *     reads → C {@code mmap} (else C {@code read}); writes → C {@code write} (nearest buffer size); the
     *     O_DIRECT methods → fio's direct job of the same direction; empty for random access or when the run has no
     *     such baseline
     */
    public static Optional<Limit> matchingLimit(Measurement m, List<Limit> limits) {
        if (isDirect(m) && (m.bench() == Bench.READ || m.bench() == Bench.WRITE)) {
            // O_DIRECT bypasses the page cache, as fio's direct jobs do; C read()/write() go through it
            return nearest(m, limits, "fio", m.bench() == Bench.READ ? Fio.READ_DIRECT : Fio.WRITE_DIRECT, false);
        }
        return switch (m.bench()) {
            case READ -> {
                if (isMapped(m)) {
                    Optional<Limit> mmap = nearest(m, limits, "c", "mmap", true);
                    if (mmap.isPresent()) {
                        yield mmap;
                    }
                }
                yield nearest(m, limits, "c", "read", true);
            }
            // a synced Java write against C write()+fdatasync, an unsynced one against the page cache's speed
            case WRITE -> nearest(m, limits, "c", m.sync() ? "write" : "write-nosync", false);
            case RANDOM, JOURNAL_APPEND, JOURNAL_REPLAY, JOURNAL_BULK, CHRONICLE_APPEND, CHRONICLE_REPLAY, STORE ->
                    Optional.empty();
        };
    }

    /**
     * @param m a measurement
     * @param limits the run's limits
     * @return the measurement's median over the matching C baseline ({@link #matchingLimit}), e.g.
     *     {@code 0.93× C read()}, or, without one, over fio's figure for the same kind of I/O, e.g.
     *     {@code 1.10× fio read (O_DIRECT)}; empty when there is nothing to compare with
     */
    public static String ratio(Measurement m, List<Limit> limits) {
        if (m.passes().isEmpty()) {
            return "";
        }
        Optional<Limit> l = matchingLimit(m, limits);
        if (l.isEmpty()) {
            l = fio(m, limits);
        }
        if (l.isEmpty() || l.get().passes().isEmpty()) {
            return "";
        }
        double r = m.stats().median() / l.get().stats().median();
        return String.format(Locale.ROOT, "%.2f× %s", r, name(l.get()));
    }

    /**
     * @param l a limit
     * @return how a reader knows it: {@code C read()}, {@code C mmap()}, {@code fio read (O_DIRECT)}, ...
     */
    public static String name(Limit l) {
        if ("c".equals(l.tool())) {
            return l.operation().equals("write-nosync") ? "C write() without sync" : "C " + l.operation() + "()";
        }
        String op = l.operation();
        if (op.startsWith("journal-")) {
            return l.tool() + " write " + Sizes.format(l.blockSize()) + " blocks ("
                    + (op.endsWith("fdatasync") ? "fdatasync at the BATCH cadence" : "buffered, fsync at the end") + ")";
        }
        if (op.startsWith("store-")) {
            return l.tool() + " write " + Sizes.format(l.blockSize()) + " blocks (fdatasync after each)";
        }
        int dash = op.indexOf('-');
        if (dash < 0) {
            return l.tool() + " " + op;
        }
        String mode = op.substring(dash + 1);
        return l.tool() + " " + op.substring(0, dash) + " (" + (mode.equals("direct") ? "O_DIRECT" : mode) + ")";
    }

    private static Optional<Limit> fio(Measurement m, List<Limit> limits) {
        if (m.bench() == Bench.RANDOM || m.bench().journal()) {
            return Optional.empty();
        }
        if (!fioCanMatch(m)) {
            return Optional.empty();
        }
        boolean direct = isDirect(m);
        String prefix = m.bench() == Bench.READ ? "read-" : "write-";
        String first = prefix + (direct || "cold".equals(m.cache()) ? "direct" : "buffered");
        String second = prefix + (first.endsWith("direct") ? "buffered" : "direct");
        boolean sameCache = m.bench() == Bench.READ;
        Optional<Limit> l = nearest(m, limits, "fio", first, sameCache);
        return l.isPresent() ? l : nearest(m, limits, "fio", second, sameCache);
    }

    /**
     * @return false for an unsynced write through the page cache: every fio write job ends with an fsync, which its
     *     figure includes
     */
    public static boolean fioCanMatch(Measurement m) {
        return m.bench() != Bench.WRITE || m.sync() || isDirect(m);
    }

    /** @return true for the O_DIRECT methods ({@code odirect}, {@code odirect-write}, ...) */
    public static boolean isDirect(Measurement m) {
        return m.method().startsWith("odirect");
    }

    private static boolean isMapped(Measurement m) {
        return m.method().startsWith("mapped-") || m.method().equals("segment-mapped");
    }

    private static Optional<Limit> nearest(Measurement m, List<Limit> limits, String tool, String op,
                                           boolean sameCache) {
        return limits.stream()
                .filter(l -> tool.equals(l.tool()) && op.equals(l.operation()) && !l.passes().isEmpty())
                .filter(l -> !sameCache || l.cache() == null || l.cache().equals(m.cache()))
                .min(Comparator.<Limit>comparingDouble(l -> distance(l.blockSize(), m.bufferSize()))
                        .thenComparingDouble(l -> distance(l.fileSize(), m.fileSize())));
    }

    /** Distance on a log scale; 0 (does not apply) is as far as anything. */
    private static double distance(long a, long b) {
        if (a <= 0 || b <= 0) {
            return a == b ? 0 : 64;
        }
        return Math.abs(Math.log((double) a / b));
    }
}
