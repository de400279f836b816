package org.iolab.os;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Faults in a file mapping's pages ({@link Prefault#populateWrite}, or {@link Prefault#populateRead}) in a
 * background thread, from where its owner writes to a fixed distance ahead, so a writer formatting records in place
 * finds them mapped: without it every new 4 KiB page costs the writer a page fault (several microseconds for a
 * preallocated file). Populating for writing marks the pages dirty, which is why the distance stays short. Pages the
 * writer has passed are skipped, never populated: populating a page the owner has just synced would dirty it again.
 *
 * <p>A page written back to the device (by the owner's sync of the page it is writing in, by another process's
 * {@code sync}, by the kernel's periodic write-back of pages dirty for 30 s) is write-protected again, and the next
 * store into it faults however early it was populated. So for an owner that asks ({@link #guardedBy}), the pages from
 * its position to {@value #NEAR} bytes past it that were populated before are populated once more after each of its
 * syncs ({@link #synced()}), and when its position moves on after {@value #NEAR_AGAIN_NANOS} ns without that: a cheap
 * walk when they are still writable, and the fault moved off the writer when one was cleaned. Each cleaned page this
 * dirties again holds zeros or bytes already written, and costs at most one more page write.
 *
 * <p>The thread polls the owner's position every 200 µs while it keeps finding work (it faults in 1 MiB at a time,
 * so it may run up to that much past the distance); while idle it backs off, doubling
 * the wait up to the owner's {@code idleParkNanos} (an owner that calls {@link #wake()} whenever its position moves
 * on can let it sleep long; one that does not keeps it short). {@link #stop()} must be called, and returns, before the
 * mapping is released.
 */
public final class Prefaulter implements Runnable {
    /** The kernel's page size (4096 where it cannot be asked; the hints are then off anyway). */
    public static final long PAGE = pageSize();
    private static final long CHUNK = 1 << 20;
    /** How far past the owner's position populated pages are populated again when the position moves. */
    static final long NEAR = 1 << 20;
    /**
     * A position that moves on after this long without a populate again gets one (pages cleaned while the owner was
     * idle: another process's {@code sync}, the kernel's write-back of pages dirty for 30 s).
     */
    static final long NEAR_AGAIN_NANOS = 50_000_000;
    /** Bytes populated again per call, each call from where the owner is then, under the guard. */
    private static final long WRITE_STEP = 64 << 10;
    /** The wait between polls while it finds work, and the shortest idle wait. */
    public static final long BUSY_PARK = 200_000;
    private final MemorySegment region;
    private final long base;
    private final LongSupplier position;
    private final long ahead;
    private final long idlePark;
    private volatile boolean stopped;
    private volatile boolean forReading;
    private volatile boolean nearAgain;
    /** Held around each populate again once {@link #guardedBy} set it (the owner's syncs hold it). */
    private volatile Lock guard;
    private Thread thread;

    private Prefaulter(MemorySegment region, long base, LongSupplier position, long ahead, boolean forReading,
            long idlePark) {
        this.region = region;
        this.base = base;
        this.position = position;
        this.ahead = ahead;
        this.forReading = forReading;
        this.idlePark = Math.max(BUSY_PARK, idlePark);
    }

    /**
     * @param region the pages to fault in (page-aligned start), from file offset {@code base} on
     * @param base the file offset of the region's first byte
     * @param position the file offset its owner writes at now (read from the thread)
     * @param ahead how far past {@code position} pages are faulted in
     * @param name the thread's name
     * @param forReading populate for reading only from the start ({@link #forReading()})
     * @param idleParkNanos the longest wait between polls while idle ({@link #BUSY_PARK} keeps polling at that pace)
     * @return the running prefaulter (a daemon thread)
     */
    public static Prefaulter start(MemorySegment region, long base, LongSupplier position, long ahead, String name,
            boolean forReading, long idleParkNanos) {
        Prefaulter p = new Prefaulter(region, base, position, ahead, forReading, idleParkNanos);
        p.thread = Thread.ofPlatform().daemon().name(name).start(p);
        return p;
    }

    /**
     * Keeps the pages near the owner's position writable (see the class comment), each populate again holding
     * {@code syncGuard} and starting no lower than the owner's position read under it: a page the owner has passed
     * may be one it has synced, which a populate would dirty again (an extra page write, its bytes unchanged) behind
     * where the owner's next sync starts. For an owner whose {@code position} is where it writes now, not one that
     * reports it in steps.
     *
     * @param syncGuard a lock the owner holds while it syncs, or starts the write-back of, pages it has written
     * @return this
     */
    public Prefaulter guardedBy(Lock syncGuard) {
        guard = syncGuard;
        return this;
    }

    /**
     * Tells it the owner has just synced: it populates again the pages from the position to {@value #NEAR} bytes past
     * it (see the class comment; only once {@link #guardedBy} was called).
     */
    public void synced() {
        nearAgain = guard != null;
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        long size = region.byteSize();
        long done = 0;
        long park = BUSY_PARK;
        long lastAt = position.getAsLong() - base;
        long nearAt = System.nanoTime();
        while (done < size && !stopped) {
            long at = position.getAsLong() - base;
            // the owner is past these pages: populating them now could only dirty pages it has synced
            done = Math.max(done, Math.min(size, at & -PAGE));
            // only forward: a position that went back means the owner has left the region (a journal's tip moved to
            // the next segment, whose offsets restart), whose pages it is syncing now
            boolean movedOn = at > lastAt;
            lastAt = Math.max(lastAt, at);
            if (nearAgain || (guard != null && movedOn && System.nanoTime() - nearAt > NEAR_AGAIN_NANOS)) {
                nearAgain = false;
                nearAt = System.nanoTime();
                if (!forReading && at >= 0 && !populateNear(at, done)) {
                    return;
                }
            }
            long wanted = Math.min(size, at + ahead);
            if (done >= wanted) {
                LockSupport.parkNanos(park);
                park = Math.min(idlePark, park * 2);
                continue;
            }
            park = BUSY_PARK;
            // a whole chunk, without the guard: 64 KiB steps waiting for each sync let the appender catch up
            // (JournalAppendBenchmark BATCH 64 B: 3.2-3.5 M/s, against 4.0-4.2 M/s without, alternated)
            long n = Math.min(CHUNK, size - done);
            MemorySegment slice = region.asSlice(done, n);
            if (!(forReading ? Prefault.populateRead(slice) : Prefault.populateWrite(slice))) {
                return; // the kernel cannot: the owner's writes fault the pages in themselves
            }
            done += n;
        }
    }

    /**
     * Populates for writing, again, the pages already populated ({@code done}) from the owner's position {@code at}
     * to {@link #NEAR} past it, in steps.
     *
     * @return false when the kernel cannot populate
     */
    private boolean populateNear(long at, long done) {
        long to = Math.min(done, (at & -PAGE) + NEAR);
        for (long from = at & -PAGE; from < to && !forReading && !stopped; from += WRITE_STEP) {
            if (!populateWrite(from, Math.min(WRITE_STEP, to - from), at)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Populates {@code [from, from + n)} for writing, or its part from the owner's page on when the owner has passed
     * {@code from}, holding the {@link #guard} if there is one and reading the position under it: a page the owner
     * has passed may be one it has synced, which this would dirty again (an extra page write, its bytes unchanged).
     *
     * @param left a position below which the owner has left the region (a journal's tip moved to the next segment,
     *        whose offsets restart; nothing is populated)
     * @return false when the kernel cannot populate
     */
    private boolean populateWrite(long from, long n, long left) {
        Lock g = guard;
        if (g != null) {
            g.lock();
        }
        try {
            long now = position.getAsLong() - base;
            if (now < left) {
                return true;
            }
            long start = Math.max(from, now & -PAGE);
            return start >= from + n || Prefault.populateWrite(region.asSlice(start, from + n - start));
        } finally {
            if (g != null) {
                g.unlock();
            }
        }
    }

    /** Makes the thread look at the owner's position now instead of at its next poll. */
    public void wake() {
        LockSupport.unpark(thread);
    }

    /** From now on populates pages for reading only ({@link Prefault#populateRead}). */
    public void forReading() {
        forReading = true;
    }

    /** @return whether it populates pages for reading only */
    public boolean isForReading() {
        return forReading;
    }

    /** Stops it and waits for the thread, so the mapping can be released; keeps the caller's interrupt status. */
    public void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        Joins.uninterruptibly(thread);
    }

    private static long pageSize() {
        try {
            return PageCache.pageSize();
        } catch (RuntimeException | LinkageError e) {
            return 4096;
        }
    }
}
