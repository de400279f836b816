package org.iolab.journal;

import java.nio.file.Path;

/** One segment file as the journal knows it. */
final class SegmentRef {
    final long firstSeq;
    final Path path;
    final long capacity;
    /** Where its records end, once this process sealed it by rolling; -1 when unknown. */
    volatile long sealedEnd = -1;
    /** Read-only opens: its header showed the seal marker's write had begun when it was read. */
    boolean sealedOnDisk;
    /**
     * The offset below which its header said every record was synced when it was read ({@link Format#syncedMark}),
     * by recovery or a read-only open; a writer raises it (only a repair lowers it, to where it cuts), so a stale
     * value read beside a writer is a safe one.
     */
    long syncedMark = Format.HEADER_SIZE;

    SegmentRef(long firstSeq, Path path, long capacity) {
        this.firstSeq = firstSeq;
        this.path = path;
        this.capacity = capacity;
    }
}
