package org.iolab.os;

import java.lang.foreign.MemorySegment;

/**
 * Faults in the pages of a writable file mapping ahead of the writer ({@code madvise(MADV_POPULATE_WRITE)},
 * Linux 5.14+), so that a writer formatting records in place does not stop at every new page for the kernel to
 * allocate it. The pages' contents are not changed.
 */
public final class Prefault {
    private static final int MADV_POPULATE_WRITE = 23;
    private static volatile boolean unsupported;

    private Prefault() {
    }

    /**
     * Populates the pages of {@code region} for writing.
     *
     * @param region a page-aligned slice of a writable shared file mapping
     * @return false when the kernel does not support it (then nothing happened, and later calls return false
     *     at once); true otherwise, including when the range was no longer mapped (harmless)
     */
    public static boolean populateWrite(MemorySegment region) {
        if (unsupported || region.byteSize() == 0) {
            return !unsupported;
        }
        int errno = Libc.madvise(region, region.byteSize(), MADV_POPULATE_WRITE);
        if (errno == 22) { // EINVAL: an older kernel
            unsupported = true;
            return false;
        }
        return true;
    }
}
