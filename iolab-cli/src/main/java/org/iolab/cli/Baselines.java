package org.iolab.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.report.limits.LimitsRunner;
import org.iolab.report.limits.NativeBaseline;
import org.iolab.report.machine.MachineFacts;
import org.iolab.report.model.Fact;
import org.iolab.report.model.Limit;

/**
 * What {@code iolab bench} measures after the Java methods, in the same workspace: the machine's facts and
 * the physical limits (C baseline, fio) over the largest data file the reads used, at up to four of their
 * buffer sizes. A baseline that cannot run becomes a note for the report; it never loses the Java results.
 */
final class Baselines implements Execution.AfterPoints {
    /** At most this many buffer sizes for the baselines. */
    static final int MAX_BUFFERS = 4;
    private static final List<Long> PREFERRED = List.of(8L << 10, 64L << 10, 1L << 20);

    private final List<Point> points;
    private final int runs;
    private final boolean limitsWanted;
    private final PrintStream err;
    private final List<Fact> facts = new ArrayList<>();
    private final List<Limit> limits = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private String wrongChecksum;

    /**
     * @param points the run's points
     * @param runs passes per baseline operation
     * @param limitsWanted false for --no-limits
     * @param err where progress goes
     */
    Baselines(List<Point> points, int runs, boolean limitsWanted, PrintStream err) {
        this.points = points;
        this.runs = runs;
        this.limitsWanted = limitsWanted;
        this.err = err;
    }

    @Override
    public void run(Path workDir, Map<Long, Path> dataFiles, Function<Long, Path> prepare) {
        try {
            facts.addAll(MachineFacts.collect(workDir));
        } catch (RuntimeException e) {
            // the facts describe the run; missing ones must not cost the results
            notes.add("machine facts could not be collected: " + e.getMessage());
        }
        if (points.isEmpty()) {
            return; // a journal-only run: its fio comparators are the journal's own (JournalExtras)
        }
        if (!limitsWanted) {
            notes.add("physical limits not measured (--no-limits); run without it to see Java against C and fio");
            return;
        }
        long size = dataSize();
        List<Long> buffers = bufferSizes(points);
        err.println("iolab: physical limits: C baseline and fio on a " + Sizes.format(size) + " file, buffers "
                + String.join(", ", buffers.stream().map(Sizes::format).toList()) + ", " + runs + " run(s)");
        try {
            Path file = dataFiles.containsKey(size) ? dataFiles.get(size) : prepare.apply(size);
            LimitsRunner.Result r = LimitsRunner.measure(workDir, file, size, buffers, runs);
            limits.addAll(r.limits());
            notes.addAll(r.notes());
        } catch (NativeBaseline.WrongChecksumException e) {
            // a correctness failure, like a Java pass with a wrong checksum: bench ends with exit 1 once the
            // Java results and the report are written
            wrongChecksum = e.getMessage();
            notes.add("physical limits stopped: " + e.getMessage());
            err.println("iolab: physical limits stopped by a wrong checksum: " + e.getMessage());
        } catch (IolabException e) {
            notes.add("physical limits failed: " + e.getMessage());
            err.println("iolab: physical limits failed (the Java results are kept): " + e.getMessage());
        }
    }

    /**
     * Largest file the baselines pass over: C and fio make several passes per buffer size and cache state,
     * so an 8 GiB (or larger than RAM) study file would take hours; 1 GiB is past every cache effect the
     * comparison needs and is a size the profiles read.
     */
    static final long MAX_DATA_SIZE = 1L << 30;

    /**
     * @return the largest file a read point used, up to {@link #MAX_DATA_SIZE} (the smallest read file when
     *     all are larger), else the largest file of the run up to that cap
     */
    long dataSize() {
        List<Long> reads = points.stream().filter(p -> p.bench() == Bench.READ).map(Point::fileSize).toList();
        List<Long> sizes = reads.isEmpty() ? points.stream().map(Point::fileSize).toList() : reads;
        if (sizes.isEmpty()) {
            return 1L << 20;
        }
        return sizes.stream().filter(s -> s <= MAX_DATA_SIZE).max(Long::compare)
                .orElseGet(() -> reads.isEmpty() ? MAX_DATA_SIZE : sizes.stream().min(Long::compare).orElseThrow());
    }

    /**
     * @param points the run's points
     * @return the read points' buffer sizes, at most {@value #MAX_BUFFERS}: 8 KiB, 64 KiB and 1 MiB when
     *     used, the largest, then the others from the largest down; 8 KiB when the run had no reads
     */
    static List<Long> bufferSizes(List<Point> points) {
        TreeSet<Long> used = new TreeSet<>();
        for (Point p : points) {
            if (p.bench() == Bench.READ && p.method().usesBuffer()) {
                used.add((long) p.bufferSize());
            }
        }
        if (used.isEmpty()) {
            return List.of(8L << 10);
        }
        TreeSet<Long> chosen = new TreeSet<>();
        for (long b : PREFERRED) {
            if (used.contains(b)) {
                chosen.add(b);
            }
        }
        chosen.add(used.last());
        for (long b : used.descendingSet()) {
            if (chosen.size() >= MAX_BUFFERS) {
                break;
            }
            chosen.add(b);
        }
        return List.copyOf(chosen);
    }

    /** @return the machine's facts */
    List<Fact> facts() {
        return List.copyOf(facts);
    }

    /** @return the physical limits */
    List<Limit> limits() {
        return List.copyOf(limits);
    }

    /** @return the message of a C pass that returned a wrong checksum, or null */
    String wrongChecksum() {
        return wrongChecksum;
    }

    /** @return what a reader must know about what was not measured */
    List<String> notes() {
        return List.copyOf(notes);
    }
}
