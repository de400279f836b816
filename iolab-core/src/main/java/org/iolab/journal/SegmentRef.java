package org.iolab.journal;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.storage.StorageFile;

/** One segment file as the journal knows it. */
final class SegmentRef {
    final long firstSeq;
    final Path path;
    final long capacity;
    /** Where its records end, once this process sealed it by rolling; -1 when unknown. */
    volatile long sealedEnd = -1;
    /** Read-only opens: its header showed the seal marker's write had begun when it was read. */
    boolean sealedOnDisk;
    /** Opens: the journal may begin at it (sequence 0, or its header carried the start marker when it was read). */
    boolean start;
    /** Opens: its header's word at {@link Format#START_OFFSET} when it was read (a start or a gap marker, or 0). */
    int marker;
    /**
     * The offset below which its header said every record was synced when it was read ({@link Format#syncedMark}),
     * by recovery or a read-only open; a writer raises it (only a repair lowers it, to where it cuts), so a stale
     * value read beside a writer is a safe one.
     */
    long syncedMark = Format.HEADER_SIZE;
    /** Read-only opens: the identity of the file its header was read from (a writer may put a new file there). */
    Object fileKey;
    /**
     * The segment's whole-file lent mapping ({@link StorageFile#mappedBuffer()}), kept from the
     * first reader of a writer's own journal that made one: later readers take a view of it instead of mapping the
     * file again. Each replay used to leave a mapping of its own for the garbage collector (200 replays of one
     * segment: 201 mappings), and took its page faults again. Held weakly: a collection releases it once no reader
     * holds a view (a strong hold kept one mapping per segment for the journal's life, and 66,000 small segments
     * ran the process out of mappings, vm.max_map_count, until the JVM itself could not map memory); dropped at
     * close and with the reference (deleteBefore). It may be longer than the file a later reader opens (made while
     * the file had its whole length): readers bound their reads by the end they know (the tip, the sealed end) and
     * the size of the file they opened, and read a word that begins a page past what they know is written through
     * the descriptor ({@link SegmentCursor}), as a reader that kept its cursor across a cut always did.
     */
    private volatile WeakReference<ByteBuffer> lent;

    /**
     * @param expected the sequence after the last record of the segment before this one
     * @return whether this segment follows on from it (see {@link Format#follows})
     */
    boolean follows(long expected) {
        return Format.follows(marker, firstSeq, expected);
    }

    SegmentRef(long firstSeq, Path path, long capacity) {
        this.firstSeq = firstSeq;
        this.path = path;
        this.capacity = capacity;
    }

    /**
     * @param file the segment, opened read-only by the reader asking
     * @return the kept lent mapping, else {@code file}'s, kept when it covers the whole segment; null when the backend
     *         lends none. Shared: the caller reads it through duplicates only, and holds it (so that it stays kept)
     *         while it reads
     */
    ByteBuffer lent(StorageFile file) {
        WeakReference<ByteBuffer> kept = lent;
        ByteBuffer l = kept == null ? null : kept.get();
        if (l == null) {
            l = file.mappedBuffer();
            if (l == null) {
                return null;
            }
            if (l.capacity() >= Math.min(capacity, Integer.MAX_VALUE)) {
                // two first readers may both map: one mapping is kept, the other collected
                lent = new WeakReference<>(l);
            }
        }
        return l;
    }

    /** Forgets the kept mapping (the journal closes); the collector releases it once no reader holds a view. */
    void dropLent() {
        lent = null;
    }
}
