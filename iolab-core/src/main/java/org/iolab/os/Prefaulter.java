package org.iolab.os;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Faults in a file mapping's pages ({@link Prefault#populateWrite}, or {@link Prefault#populateRead}) in a
 * background thread, from where its owner writes to a fixed distance ahead, so a writer formatting records in place
 * finds them mapped: without it every new 4 KiB page costs the writer a page fault (several microseconds for a
 * preallocated file). Populating for writing marks the pages dirty, which is why the distance stays short. Pages the
 * writer has passed are skipped, never populated: populating a page the owner has just synced would dirty it again.
 *
 * <p>The thread polls the owner's position every 200 µs while it keeps finding work (it faults in 1 MiB at a time,
 * so it may run up to that much past the distance); while idle it backs off, doubling the wait up to the owner's
 * {@code idleParkNanos} (an owner that calls {@link #wake()} whenever its position moves on can let it sleep long;
 * one that does not keeps it short). {@link #stop()} must be called, and returns, before the
 * mapping is released.
 */
public final class Prefaulter implements Runnable {
    /** The kernel's page size (4096 where it cannot be asked; the hints are then off anyway). */
    public static final long PAGE = pageSize();
    private static final long CHUNK = 1 << 20;
    /** The wait between polls while it finds work, and the shortest idle wait. */
    public static final long BUSY_PARK = 200_000;
    private final MemorySegment region;
    private final long base;
    private final LongSupplier position;
    private final long ahead;
    private final long idlePark;
    private volatile boolean stopped;
    private volatile boolean forReading;
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

    @Override
    public void run() {
        long size = region.byteSize();
        long done = 0;
        long park = BUSY_PARK;
        while (done < size && !stopped) {
            long at = position.getAsLong() - base;
            // the owner is past these pages: populating them now could only dirty pages it has synced
            done = Math.max(done, Math.min(size, at & -PAGE));
            long wanted = Math.min(size, at + ahead);
            if (done >= wanted) {
                LockSupport.parkNanos(park);
                park = Math.min(idlePark, park * 2);
                continue;
            }
            park = BUSY_PARK;
            long n = Math.min(CHUNK, size - done);
            MemorySegment slice = region.asSlice(done, n);
            if (!(forReading ? Prefault.populateRead(slice) : Prefault.populateWrite(slice))) {
                return; // the kernel cannot: the owner's writes fault the pages in themselves
            }
            done += n;
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
