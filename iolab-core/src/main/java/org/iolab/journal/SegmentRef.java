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

    SegmentRef(long firstSeq, Path path, long capacity) {
        this.firstSeq = firstSeq;
        this.path = path;
        this.capacity = capacity;
    }
}
