package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongToIntFunction;
import java.util.zip.CRC32C;

/**
 * Checks the frames of a long run of a replay on another core, ahead of the thread that hands them out: the reader
 * ({@link SegmentCursor#visitBuffered}) hands out a frame only once this has found its length in bounds, its sequence
 * the next one and its CRC32C good, so no record reaches a visitor unchecked, and the CRC (a third of the time of a
 * 64 B replay) no longer adds to the reader's. It stops at the first frame that fails a check, where the reader stops
 * too and leaves the frame to {@link SegmentCursor#next} (which reports it), at the end, or when cancelled. Where the
 * end is not known ({@code guard}), a length word that begins a page is read through the file's descriptor, as
 * {@link SegmentCursor#next} does: the page may lie past a tail the writer has cut since, and a mapped read of it
 * would fault; a length found there means the frame is written, and its bytes are then read from the mapping.
 *
 * <p>Only over a mapping the garbage collector releases (the {@code plain} view), which stays mapped while this
 * holds it; only for runs of at least {@link #MIN_RUN} bytes, and only with two processors or more.
 */
final class CheckAhead implements Runnable {
    /** Runs shorter than this are checked by the reader itself: handing one over costs tens of microseconds. */
    static final long MIN_RUN = 1 << 20;
    /** Checked bytes are published at least this often (and after each frame at least this long). */
    private static final long PUBLISH = 32 << 10;
    /** Polls of {@link #done} before {@link #stop} parks between them. */
    private static final int STOP_SPINS = 1 << 12;
    /** Polls of the checked offset before a waiting reader sleeps. */
    private static final int WAIT_SPINS = 64;
    /** A waiting reader's sleep between polls. */
    private static final long WAIT_PARK = 50_000;
    private static final boolean PARALLEL = Runtime.getRuntime().availableProcessors() > 1;
    private static final ExecutorService CHECKERS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10,
            TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "iolab-journal-check");
                t.setDaemon(true);
                return t;
            });

    private final ByteBuffer b;
    private final long end;
    private final boolean guard;
    private final long expected;
    private final long from;
    private final LongToIntFunction presentWord;
    private final CRC32C crc = new CRC32C();
    /** Every frame starting below this offset is checked. */
    private final AtomicLong checkedTo;
    private volatile boolean cancelled;
    private volatile boolean done;

    private CheckAhead(ByteBuffer mapping, long from, long end, boolean guard, long expected,
            LongToIntFunction presentWord) {
        this.b = mapping.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.from = from;
        this.end = end;
        this.guard = guard;
        this.expected = expected;
        this.presentWord = presentWord;
        this.checkedTo = new AtomicLong(from);
    }

    /**
     * @param mapping the whole segment's mapping (offset 0 is the file's first byte); only read
     * @param from the first frame's offset
     * @param end the offset no frame may pass
     * @param guard the end is not known: a length word that begins a page is read with {@code presentWord}
     * @param expected the first frame's sequence
     * @param presentWord the int the file holds now at an offset, 0 past its end (thread-safe)
     * @return a running check, or null when the run is short, the machine has one processor, or no thread is free
     */
    static CheckAhead start(ByteBuffer mapping, long from, long end, boolean guard, long expected,
            LongToIntFunction presentWord) {
        if (!PARALLEL || end - from < MIN_RUN) {
            return null;
        }
        CheckAhead c = new CheckAhead(mapping, from, end, guard, expected, presentWord);
        try {
            CHECKERS.execute(c);
        } catch (RejectedExecutionException | OutOfMemoryError e) {
            return null; // no thread to be had (OutOfMemoryError: "unable to create native thread"): the reader checks
        }
        return c;
    }

    @Override
    public void run() {
        long p = from;
        try {
            long published = p;
            long n = 0;
            while (!cancelled && p + Format.FRAME_HEADER <= end) {
                int at = (int) p;
                int length = guard && (p & 4095) == 0 ? presentWord.applyAsInt(p) : b.getInt(at);
                if (length < Format.FRAME_HEADER || length > end - p || b.getLong(at + 8) != expected + n) {
                    break;
                }
                crc.reset();
                b.limit(at + length).position(at + 8);
                crc.update(b);
                b.limit(b.capacity());
                if (b.getInt(at + 4) != (int) crc.getValue()) {
                    break;
                }
                p += Format.align(length);
                n++;
                if (p - published >= PUBLISH) {
                    checkedTo.setRelease(p);
                    published = p;
                }
            }
        } catch (RuntimeException e) {
            // nothing past p is handed out; the reader's own checks (SegmentCursor.next) take over from there
        } finally {
            checkedTo.setRelease(p);
            done = true;
        }
    }

    /**
     * Waits until the frame at {@code p} is checked, or the check has stopped before it.
     *
     * @param p a frame's offset
     * @return the offset below which every frame is checked: above {@code p}, or at most {@code p} when the check
     *         stopped there (the reader stops too)
     */
    long awaitPast(long p) {
        int spins = 0;
        for (;;) {
            boolean finished = done;
            long c = checkedTo.getAcquire();
            if (c > p || finished) {
                return c;
            }
            if (++spins < WAIT_SPINS) {
                Thread.onSpinWait();
            } else {
                // asleep, not spinning or yielding: a waiting reader's spin slowed the check thread on the other
                // vCPU to half its pace (see docs/RESULTS.md)
                LockSupport.parkNanos(WAIT_PARK);
            }
        }
    }

    /** Stops the check and waits for its thread to leave the mapping (at most one frame's CRC). */
    void stop() {
        cancelled = true;
        int spins = 0;
        while (!done) {
            if (++spins < STOP_SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
    }
}
