package org.iolab.bench;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * One latency run of {@link JournalLatency}: a journal with {@code backend} and {@code durability}, records of
 * {@code recordSize} bytes appended at {@code ratePerSecond} on a fixed schedule for {@code warmupSeconds}
 * (not recorded) and then {@code seconds} (recorded).
 *
 * @param dir folder in which the journal's own fresh sub-folder is created (and deleted at the end), or
 *     {@code null} for a temporary folder in {@code java.io.tmpdir}
 * @param backend the journal's storage backend
 * @param durability the journal's durability level
 * @param recordSize payload bytes of each record, at least 8 (the first 8 hold the record's intended time)
 * @param ratePerSecond records appended per second, 1 to {@value #MAX_RATE}
 * @param seconds length of the recorded part of the run, more than 0
 * @param warmupSeconds length of the warm-up before it, 0 or more; its records are appended but not recorded
 * @param mode what is measured
 */
public record LatencySpec(Path dir, Backend backend, Durability durability, int recordSize, long ratePerSecond,
        double seconds, double warmupSeconds, Mode mode) {
    /** Highest rate accepted: 10,000,000 records per second (a 100 ns schedule). */
    public static final long MAX_RATE = 10_000_000;
    /** Longest run accepted (warm-up plus recorded part): one day. */
    public static final double MAX_SECONDS = 86_400;
    /** Smallest record: the 8-byte intended time. */
    public static final int MIN_RECORD_SIZE = Long.BYTES;

    /** What a latency run measures. */
    public enum Mode {
        /** Append to receipt by a tailer thread of the same journal. */
        TAIL,
        /** Append to durable: until {@code Journal.durableSequence()} covers the record. */
        DURABLE;

        /** @return {@code tail} or {@code durable}, as on the command line and in the JSON line */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param text {@code tail} or {@code durable}
         * @return the mode
         * @throws IolabException naming {@code --mode} when it is neither
         */
        public static Mode parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "tail" -> TAIL;
                case "durable" -> DURABLE;
                default -> throw new IolabException("bad --mode '" + text + "': expected tail or durable");
            };
        }
    }

    /**
     * Checks the values.
     *
     * @throws IolabException naming the parameter (as its command-line option) that is out of range
     * @throws NullPointerException when {@code backend}, {@code durability} or {@code mode} is null
     */
    public LatencySpec {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(mode, "mode");
        if (recordSize < MIN_RECORD_SIZE) {
            throw new IolabException("bad --record-size " + recordSize + ": must be at least " + MIN_RECORD_SIZE
                    + " bytes (the first 8 hold the record's intended time)");
        }
        if (ratePerSecond < 1 || ratePerSecond > MAX_RATE) {
            throw new IolabException("bad --rate " + ratePerSecond + ": must be 1 to " + MAX_RATE
                    + " records per second");
        }
        if (!(seconds > 0) || seconds > MAX_SECONDS) {
            throw new IolabException("bad --seconds " + seconds + ": must be more than 0 and at most " + MAX_SECONDS);
        }
        if (!(warmupSeconds >= 0) || warmupSeconds > MAX_SECONDS) {
            throw new IolabException("bad --warmup " + warmupSeconds + ": must be 0 to " + MAX_SECONDS + " seconds");
        }
        if (seconds + warmupSeconds > MAX_SECONDS) {
            throw new IolabException("bad --seconds " + seconds + " with --warmup " + warmupSeconds
                    + ": the run would last more than " + MAX_SECONDS + " seconds");
        }
        if (recordedRecords(ratePerSecond, seconds) < 1) {
            throw new IolabException("bad --seconds " + seconds + " at --rate " + ratePerSecond
                    + ": that records no record; run longer or faster");
        }
    }

    /** @return records appended during the warm-up (not recorded): {@code round(rate × warmupSeconds)} */
    public long warmupRecords() {
        return recordedRecords(ratePerSecond, warmupSeconds);
    }

    /** @return records appended in the whole run, warm-up included */
    public long totalRecords() {
        return warmupRecords() + recordedRecords(ratePerSecond, seconds);
    }

    /**
     * @param i a record's index in the run (its sequence in the journal)
     * @return its intended time relative to the start of the schedule, in nanoseconds: {@code i × 10⁹ / rate}
     */
    public long intendedOffsetNanos(long i) {
        return i <= Long.MAX_VALUE / 1_000_000_000L
                ? i * 1_000_000_000L / ratePerSecond
                : (long) ((double) i * 1e9 / ratePerSecond);
    }

    private static long recordedRecords(long rate, double seconds) {
        return Math.round(rate * seconds);
    }
}
