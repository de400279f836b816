package org.iolab.storage;

/** How the mapped backends grow their file: in steps that double, from 1 MiB up to steps of 1 GiB. */
final class Growth {
    /** The smallest step. */
    static final long MIN_STEP = 1L << 20;
    /** The largest step. */
    static final long MAX_STEP = 1L << 30;
    private static final long PAGE = 4096;

    private Growth() {
    }

    /**
     * @param capacity the current mapped length
     * @param needed the length a write needs
     * @return the new mapped length: at least {@code needed}, page-aligned, at least one step more
     */
    static long next(long capacity, long needed) {
        long step = Math.clamp(capacity, MIN_STEP, MAX_STEP);
        long target = Math.max(needed, capacity + step);
        long aligned = (target + PAGE - 1) & -PAGE;
        return aligned < target ? target : aligned;
    }
}
