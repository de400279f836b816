package org.iolab.os;

import java.lang.foreign.MemorySegment;

/**
 * Faults in the pages of a file mapping ahead of the writer ({@code madvise(MADV_POPULATE_WRITE)} or {@code _READ},
 * Linux 5.14+), so that a writer formatting records in place does not stop at every new page for the kernel to
 * allocate it. The pages' contents are not changed.
 */
public final class Prefault {
    private static final int MADV_DONTNEED = 4;
    private static final int MADV_POPULATE_READ = 22;
    private static final int MADV_POPULATE_WRITE = 23;
    /** Set once the kernel refused a populate advice: MADV_POPULATE_READ and _WRITE came together, in Linux 5.14. */
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
        return populate(region, MADV_POPULATE_WRITE);
    }

    /**
     * Populates the pages of {@code region} for reading ({@code madvise(MADV_POPULATE_READ)}): the file's pages
     * come into the page cache (zeros where nothing was written, through the kernel's read-ahead, which builds
     * large folios) and are mapped read-only, so none of them is dirtied or needs cleaning by a later sync. For a
     * writer that writes the file through its descriptor: its writes then copy into those folios, and a later
     * mapping of the file maps them in large steps.
     *
     * @param region a page-aligned slice of a shared file mapping
     * @return false when the kernel does not support it (then later calls return false at once); true otherwise
     */
    public static boolean populateRead(MemorySegment region) {
        return populate(region, MADV_POPULATE_READ);
    }

    private static boolean populate(MemorySegment region, int advice) {
        if (unsupported || region.byteSize() == 0) {
            return !unsupported;
        }
        if (Libc.madvise(region, region.byteSize(), advice) == 22) { // EINVAL: an older kernel
            unsupported = true;
            return false;
        }
        return true;
    }

    /**
     * Drops this process's page table entries for {@code region} ({@code madvise(MADV_DONTNEED)}), a writer's mapping
     * it has finished writing: the pages stay in the page cache, dirty ones stay dirty (a shared file mapping loses
     * nothing), and a later access faults them in again. A sync that follows then finds no writable entry to clean:
     * cleaning one write-protects it and costs a TLB shootdown per page, the zap one flush per batch of pages.
     *
     * @param region a page-aligned slice of a shared file mapping
     * @return whether the kernel did it
     */
    public static boolean release(MemorySegment region) {
        return region.byteSize() == 0 || Libc.madvise(region, region.byteSize(), MADV_DONTNEED) == 0;
    }
}
