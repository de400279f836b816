package org.iolab.storage;

import java.nio.file.Path;
import org.iolab.os.FileSpace;
import org.iolab.os.NoSpaceException;

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

    /**
     * Grows {@code file} for a write that needs {@code needed} bytes: to {@link #next}, with its blocks allocated
     * ({@link FileSpace#reserve}; sparse where the file system cannot), or, when the device has no room for a whole
     * step, to just {@code needed} (page-aligned), so a nearly full disk is used to the end.
     *
     * @param channel the file, open for writing
     * @param file its path
     * @param capacity its mapped length now
     * @param needed the length the write needs
     * @return the new length
     * @throws org.iolab.os.NoSpaceException when not even {@code needed} fits; nothing was written past the old end
     */
    static long grow(ReopeningChannel channel, Path file, long capacity, long needed) {
        long target = next(capacity, needed);
        try {
            if (!FileSpace.reserve(file, capacity, target - capacity)) {
                Problems.setLength(channel, file, target);
            }
            return target;
        } catch (NoSpaceException full) {
            long least = (needed + PAGE - 1) & -PAGE;
            if (least >= target || least <= capacity) {
                throw full;
            }
            FileSpace.reserve(file, capacity, least - capacity);
            return least;
        }
    }
}
