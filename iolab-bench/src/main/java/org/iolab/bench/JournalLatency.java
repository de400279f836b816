package org.iolab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.iolab.journal.Record;
import org.iolab.journal.Tailer;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * Tail latency of a {@link Journal}, corrected for coordinated omission: a fixed-rate append schedule and
 * HdrHistogram percentiles (not JMH: JMH measures how long each call takes, which hides the records that a
 * stalled call delayed).
 *
 * <h2>The schedule, and why it corrects coordinated omission</h2>
 * One appender thread appends records {@code i = 0, 1, 2, ...} at {@code rate} per second: record {@code i}
 * has the <em>intended</em> time {@code t_i = start + i × 10⁹ / rate} ({@link System#nanoTime()}). The thread
 * parks, then spins, until {@code t_i}; when it is already late (a previous append stalled) it appends at
 * once, and it never skips a record. Every latency is measured from {@code t_i}, not from the moment the
 * append actually started. So when one append stalls for 10 ms at 100,000 records/s, the 1,000 records that
 * should have been appended during the stall are each charged the time they waited behind it, as a user
 * sending at that rate would see. Measuring from the actual start (what a closed-loop benchmark does)
 * would record one slow append and 999 fast ones, and the high percentiles would hide the stall: that is
 * coordinated omission. No correction factor is applied afterwards; the schedule makes it unnecessary.
 *
 * <h2>Modes</h2>
 * <ul>
 *   <li>{@link LatencySpec.Mode#TAIL tail}: the appender writes {@code t_i} in the first 8 bytes of the
 *   payload (little-endian); a second thread follows the journal with {@link Journal#tailer(long)} (blocking
 *   {@link Tailer#poll(Duration)}, no busy spin) and records {@code nanoTime() − t_i} when it receives
 *   record {@code i}. It checks that it receives every record, in order, with the right length and
 *   {@code t_i}; otherwise the run fails.</li>
 *   <li>{@link LatencySpec.Mode#DURABLE durable}: the latency of record {@code i} is the time at which it
 *   is known durable minus {@code t_i}. With {@link Durability#ALWAYS} {@code append} returns after the
 *   sync, so it is the time {@code append} returns. Otherwise a watcher thread waits with
 *   {@link Journal#awaitDurable(long)} for the oldest record not yet known durable, then charges the time it
 *   woke to every record up to {@link Journal#durableSequence()}: with {@link Durability#BATCH} that is
 *   the group commit's latency; with {@link Durability#NONE} {@code awaitDurable} syncs, so the watcher
 *   syncs as fast as it can, batching whatever was appended meanwhile. After the run every record is read
 *   back and checked (sequence, length, {@code t_i}).</li>
 * </ul>
 * The first {@code warmupSeconds} of the schedule are appended the same way but not recorded. The journal
 * lives in a fresh sub-folder of {@code dir}, deleted at the end. A journal that cannot keep up with the
 * rate makes the latencies grow (correctly); if the run takes more than twice its schedule plus 10 s it is
 * stopped with an error that says to lower the rate.
 */
public final class JournalLatency {
    private static final int SIGNIFICANT_DIGITS = 3;
    private static final long SPIN_NANOS = 50_000;
    private static final long GRACE_NANOS = 10_000_000_000L;
    private static final String USAGE = "usage: JournalLatency [--dir D] [--backend raf|channel-heap|channel-direct"
            + "|mapped|segment] [--durability none|batch|always] [--record-size N] [--rate R] [--seconds S]"
            + " [--mode tail|durable] [--warmup S]";

    private JournalLatency() {
    }

    /**
     * Runs one latency measurement (it takes {@code warmupSeconds + seconds}, plus the journal's set-up).
     *
     * @param spec what to run
     * @return the latencies of the recorded records
     * @throws IolabException when {@code dir} is unusable, the record is too large for a segment, space is
     *     short, the journal fails, the journal cannot keep up with the rate (the run took more than twice its
     *     schedule plus 10 s), or a check of the records fails (a record missing, out of order or wrong)
     */
    public static LatencyResult measure(LatencySpec spec) {
        JournalOptions options = JournalOptions.defaults().withBackend(spec.backend())
                .withDurability(spec.durability());
        if (spec.recordSize() > options.maxRecordSize()) {
            throw new IolabException("bad --record-size " + spec.recordSize() + ": larger than the journal's largest"
                    + " record, " + options.maxRecordSize() + " bytes (the segment size "
                    + Sizes.format(options.segmentSize()) + " minus 80)");
        }
        FileHome home = FileHome.open(spec.dir() == null ? "" : spec.dir().toString());
        Path folder = null;
        try {
            folder = JournalFolder.create(home);
            requireSpace(spec, options, folder);
            try (Journal journal = Journal.open(folder, options)) {
                return new Run(spec, journal).run();
            }
        } finally {
            JournalFolder.delete(folder);
            home.close();
        }
    }

    private static void requireSpace(LatencySpec spec, JournalOptions options, Path folder) {
        long frame = (16L + spec.recordSize() + 7) & ~7L;
        double need = (double) spec.totalRecords() * frame + 2.0 * options.segmentSize();
        long usable;
        try {
            usable = Files.getFileStore(folder).getUsableSpace();
        } catch (IOException e) {
            throw IolabException.io("read the free space of", folder, e);
        }
        if (need > usable) {
            throw new IolabException(String.format(Locale.ROOT, "not enough space in %s: the run appends about"
                    + " %s, %s are free; lower --rate, --seconds or --record-size, or choose another --dir",
                    folder.getParent(), Sizes.format((long) Math.min(need, Long.MAX_VALUE)), Sizes.format(usable)));
        }
    }

    /**
     * Command line: {@code --dir D --backend B --durability D --record-size N --rate R --seconds S
     * --mode tail|durable --warmup S} (each optional; defaults: a temporary folder, {@code segment},
     * {@code none}, 64, 10000, 10, {@code tail}, 2). Prints one line of JSON with every field of
     * {@link LatencyResult}. Bad arguments print one line to standard error and exit with 2; a failed run
     * prints one line and exits with 1.
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
     * @param out receives the JSON line (or the usage, for {@code --help})
     * @param err receives a one-line error
     * @return the exit code: 0 done, 1 the run failed, 2 bad arguments
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        LatencySpec spec;
        try {
            if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
                out.println(USAGE);
                return 0;
            }
            spec = parse(args);
        } catch (IolabException e) {
            err.println("iolab: journal latency: " + oneLine(e.getMessage()) + " (" + USAGE + ")");
            return 2;
        }
        try {
            out.println(measure(spec).toJson());
            return 0;
        } catch (IolabException e) {
            err.println("iolab: journal latency: " + oneLine(e.getMessage()));
            return 1;
        }
    }

    /**
     * @param args the command line (see {@link #main(String[])}); {@code --name value} or {@code --name=value}
     * @return the spec
     * @throws IolabException naming the option that is unknown, repeated, missing its value or bad
     */
    static LatencySpec parse(String[] args) {
        Map<String, String> values = CommandLineOptions.parse(args, Set.of("--dir", "--backend", "--durability",
                "--record-size", "--rate", "--seconds", "--mode", "--warmup"));
        String dirText = values.getOrDefault("--dir", "");
        Path dir = null;
        if (!dirText.isBlank()) {
            dir = Path.of(dirText);
            if (!Files.isDirectory(dir)) {
                throw new IolabException("bad --dir '" + dirText + "': " + (Files.exists(dir) ? "not a directory"
                        : "does not exist") + "; give an existing folder");
            }
        }
        Backend backend;
        String backendText = values.getOrDefault("--backend", Backend.DEFAULT.label());
        try {
            backend = Backend.parse(backendText);
        } catch (IolabException e) {
            throw new IolabException("bad --backend '" + backendText + "': " + e.getMessage());
        }
        Durability durability;
        String durabilityText = values.getOrDefault("--durability", "none");
        try {
            durability = Durability.parse(durabilityText);
        } catch (IolabException e) {
            throw new IolabException("bad --durability '" + durabilityText + "': expected none, batch or always");
        }
        String sizeText = values.getOrDefault("--record-size", "64");
        long size = Sizes.parse(sizeText, "--record-size");
        long max = JournalOptions.defaults().maxRecordSize();
        if (size > max) {
            throw new IolabException("bad --record-size '" + sizeText + "': larger than the journal's largest record, "
                    + max + " bytes");
        }
        long rate = wholeNumber(values.getOrDefault("--rate", "10000"), "--rate", "records per second");
        double seconds = seconds(values.getOrDefault("--seconds", "10"), "--seconds");
        double warmup = seconds(values.getOrDefault("--warmup", "2"), "--warmup");
        LatencySpec.Mode mode = LatencySpec.Mode.parse(values.getOrDefault("--mode", "tail"));
        return new LatencySpec(dir, backend, durability, (int) size, rate, seconds, warmup, mode);
    }

    private static long wholeNumber(String text, String name, String unit) {
        try {
            return Long.parseLong(text.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IolabException("bad " + name + " '" + text + "': expected a whole number of " + unit
                    + ", e.g. 10000");
        }
    }

    private static double seconds(String text, String name) {
        double value;
        try {
            value = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IolabException("bad " + name + " '" + text + "': expected a number of seconds, e.g. 2.5");
        }
        if (!Double.isFinite(value)) {
            throw new IolabException("bad " + name + " '" + text + "': expected a number of seconds, e.g. 2.5");
        }
        return value;
    }

    private static String oneLine(String message) {
        return message == null ? "failed" : message.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /** One run: the appender is the calling thread; a tailer or watcher thread records the latencies. */
    private static final class Run {
        private final LatencySpec spec;
        private final Journal journal;
        private final long total;
        private final long warm;
        private final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        /** Records appended so far (written by the appender only). */
        private final AtomicLong appended = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile boolean appenderDone;
        private long start;
        private long deadline;

        Run(LatencySpec spec, Journal journal) {
            this.spec = spec;
            this.journal = journal;
            this.total = spec.totalRecords();
            this.warm = spec.warmupRecords();
        }

        private long intended(long i) {
            return start + spec.intendedOffsetNanos(i);
        }

        LatencyResult run() {
            boolean appenderRecords = spec.mode() == LatencySpec.Mode.DURABLE
                    && spec.durability() == Durability.ALWAYS;
            Thread consumer = null;
            if (!appenderRecords) {
                Runnable body = spec.mode() == LatencySpec.Mode.TAIL ? this::tail : this::watchDurable;
                String name = "journal-latency-" + spec.mode().label();
                consumer = Thread.ofPlatform().name(name).daemon().unstarted(() -> {
                    try {
                        body.run();
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
            }
            long schedule = spec.intendedOffsetNanos(total);
            start = System.nanoTime() + 20_000_000L; // time for the consumer thread to start
            deadline = start + 2 * schedule + GRACE_NANOS;
            if (consumer != null) {
                consumer.start();
            }
            long lastAppend = start;
            try {
                lastAppend = append(appenderRecords);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            } finally {
                appenderDone = true;
            }
            if (consumer != null) {
                join(consumer);
            }
            Throwable f = failure.get();
            if (f != null) {
                throw f instanceof IolabException e ? e : new IolabException("journal latency run failed: " + f, f);
            }
            if (spec.mode() == LatencySpec.Mode.DURABLE) {
                checkRecords();
            }
            long count = histogram.getTotalCount();
            if (count != total - warm) {
                throw new IolabException("journal latency: recorded " + count + " latencies, expected "
                        + (total - warm));
            }
            double window = (lastAppend - intended(warm)) / 1e9;
            double achieved = window > 0 ? (total - warm) / window : spec.ratePerSecond();
            return new LatencyResult(spec.mode(), spec.backend(), spec.durability(), spec.recordSize(),
                    spec.ratePerSecond(), count, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
                    histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue(),
                    histogram.getMean(), achieved);
        }

        /** @return the time the last append returned */
        private long append(boolean record) {
            ByteBuffer payload = ByteBuffer.allocate(spec.recordSize()).order(ByteOrder.LITTLE_ENDIAN);
            for (int j = Long.BYTES; j < payload.capacity(); j++) {
                payload.put(j, (byte) (j * 31 + 7));
            }
            long done = start;
            for (long i = 0; i < total; i++) {
                long t = intended(i);
                long now = waitUntil(t);
                if (now - deadline > 0) {
                    throw tooSlow(i, now);
                }
                if ((i & 1023) == 0 && failure.get() != null) {
                    return done;
                }
                payload.clear();
                payload.putLong(0, t);
                long seq = journal.append(payload);
                done = System.nanoTime();
                if (seq != i) {
                    throw new IolabException("journal latency: append " + i + " got sequence " + seq);
                }
                if (record && i >= warm) {
                    histogram.recordValue(done - t);
                }
                appended.lazySet(i + 1);
            }
            return done;
        }

        private IolabException tooSlow(long i, long now) {
            double elapsed = (now - start) / 1e9;
            return new IolabException(String.format(Locale.ROOT, "the journal cannot keep up with --rate %d"
                    + " (--backend %s --durability %s --record-size %d): %d of %d records appended in %.1f s (%.0f"
                    + " per second); lower --rate", spec.ratePerSecond(), spec.backend().label(),
                    spec.durability().name().toLowerCase(Locale.ROOT), spec.recordSize(), i, total, elapsed,
                    i / Math.max(elapsed, 1e-9)));
        }

        private void join(Thread consumer) {
            try {
                long left = Math.max(deadline + GRACE_NANOS - System.nanoTime(), GRACE_NANOS);
                consumer.join(Duration.ofNanos(left));
                if (consumer.isAlive()) {
                    consumer.interrupt();
                    consumer.join(Duration.ofSeconds(5));
                    failure.compareAndSet(null, new IolabException("journal latency: the " + spec.mode().label()
                            + " thread did not finish within " + (left / 1_000_000_000L) + " s after the last"
                            + " append"));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                consumer.interrupt();
                throw new IolabException("interrupted while waiting for the journal latency run to finish");
            }
        }

        /** Mode tail: receives every record and records receipt − t_i. */
        private void tail() {
            try (Tailer tailer = journal.tailer(0)) {
                long i = 0;
                while (i < total) {
                    Record r = tailer.poll(Duration.ofMillis(100));
                    long now = System.nanoTime();
                    if (r == null) {
                        if (failure.get() != null || (appenderDone && appended.get() < total)
                                || Thread.currentThread().isInterrupted()) {
                            return;
                        }
                        continue;
                    }
                    long t = check(r.sequence(), i, ByteBuffer.wrap(r.payload()));
                    if (i >= warm) {
                        histogram.recordValue(now - t);
                    }
                    i++;
                }
            }
        }

        /**
         * Checks record {@code expected}: its sequence, its length and the intended time in its payload.
         *
         * @return its intended time
         */
        private long check(long seq, long expected, ByteBuffer payload) {
            if (seq != expected) {
                throw new IolabException("journal latency: received record " + seq + " where record " + expected
                        + " was expected: a record was lost or reordered");
            }
            if (payload.remaining() != spec.recordSize()) {
                throw new IolabException("journal latency: record " + seq + " has " + payload.remaining()
                        + " bytes, expected " + spec.recordSize());
            }
            long t = payload.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(payload.position());
            if (t != intended(seq)) {
                throw new IolabException("journal latency: record " + seq + " carries intended time " + t
                        + ", expected " + intended(seq) + ": its payload is wrong");
            }
            return t;
        }

        /** Mode durable, levels none and batch: charges the time a record became known durable. */
        private void watchDurable() {
            long next = 0;
            while (next < total) {
                long published = appended.get();
                if (published <= next) {
                    // appended is read again after appenderDone: the appender's last increment comes before the flag,
                    // and a watcher that read appended just before it would otherwise stop one record short
                    if (failure.get() != null || appenderDone && appended.get() <= next
                            || Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    long wait = intended(next) - System.nanoTime();
                    if (wait > SPIN_NANOS) {
                        LockSupport.parkNanos(wait - SPIN_NANOS / 2);
                    } else {
                        Thread.onSpinWait();
                    }
                    continue;
                }
                journal.awaitDurable(next);
                long now = System.nanoTime();
                long durable = Math.min(journal.durableSequence(), total - 1);
                for (long s = next; s <= durable; s++) {
                    if (s >= warm) {
                        histogram.recordValue(now - intended(s));
                    }
                }
                next = durable + 1;
            }
        }

        /** Mode durable: reads every record back and checks it. */
        private void checkRecords() {
            long[] expected = {0};
            long n = journal.read(0, (seq, p) -> {
                check(seq, expected[0], p);
                expected[0]++;
                return true;
            });
            if (n != total) {
                throw new IolabException("journal latency: the journal holds " + n + " records, expected " + total);
            }
        }
    }

    /**
     * Waits until {@code nanoTime() >= t}: parks while far from it, then spins.
     *
     * @return the time the wait ended
     */
    private static long waitUntil(long t) {
        long now;
        while ((now = System.nanoTime()) - t < 0) {
            long left = t - now;
            if (left > SPIN_NANOS) {
                LockSupport.parkNanos(left - SPIN_NANOS / 2);
            } else {
                Thread.onSpinWait();
            }
        }
        return now;
    }
}
