package org.iolab.journal;

import java.time.Duration;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * How a {@link Journal} is opened: immutable; each {@code withX} method returns a changed copy.
 *
 * <p>Defaults: {@link Backend#DEFAULT}, {@link Durability#BATCH}, 256 MiB segments, a group commit at least
 * every 2 ms or every 1 MiB appended, segments preallocated with {@code fallocate}.
 */
public final class JournalOptions {
    /**
     * The default segment size: 256 MiB. Smaller segments roll often enough to cost appends measurably (each roll
     * preallocates, maps and faults in a new file); larger ones preallocate more disk for a small journal.
     */
    public static final long DEFAULT_SEGMENT_SIZE = 256L << 20;

    private final Backend backend;
    private final Durability durability;
    private final long segmentSize;
    private final Duration batchInterval;
    private final long batchBytes;
    private final Preallocation preallocation;
    private final StorageOpener opener;
    private final boolean prefault;

    private JournalOptions(Backend backend, Durability durability, long segmentSize, Duration batchInterval,
            long batchBytes, Preallocation preallocation, StorageOpener opener, boolean prefault) {
        this.backend = Journal.given(backend, "backend");
        this.durability = Journal.given(durability, "durability");
        this.segmentSize = segmentSize;
        this.batchInterval = Journal.given(batchInterval, "batchInterval");
        this.batchBytes = batchBytes;
        this.preallocation = Journal.given(preallocation, "preallocation");
        this.opener = opener;
        this.prefault = prefault;
    }

    /** @return the default options */
    public static JournalOptions defaults() {
        return new JournalOptions(Backend.DEFAULT, Durability.BATCH, DEFAULT_SEGMENT_SIZE, Duration.ofMillis(2),
                1L << 20, Preallocation.FALLOCATE, null, true);
    }

    /**
     * @param value the storage backend segment files are written and read through
     * @return a copy with it
     */
    public JournalOptions withBackend(Backend value) {
        return new JournalOptions(value, durability, segmentSize, batchInterval, batchBytes, preallocation,
                null, prefault);
    }

    /**
     * @param value when an append counts as durable (see {@link Durability})
     * @return a copy with it
     */
    public JournalOptions withDurability(Durability value) {
        return new JournalOptions(backend, value, segmentSize, batchInterval, batchBytes, preallocation,
                opener, prefault);
    }

    /**
     * @param bytes the size of new segment files, a multiple of 8 from 4 KiB to 1 TiB; a record's payload can
     *        be at most {@code bytes - 80} bytes, and never more than {@code Integer.MAX_VALUE - 64}
     * @return a copy with it
     */
    public JournalOptions withSegmentSize(long bytes) {
        if (bytes < 4096 || bytes > Format.MAX_CAPACITY || bytes % Format.ALIGN != 0) {
            throw new IolabException("bad journal segment size " + bytes
                    + ": use a multiple of 8 from 4096 (4 KiB) to 1 TiB");
        }
        return new JournalOptions(backend, durability, bytes, batchInterval, batchBytes, preallocation, opener,
                prefault);
    }

    /**
     * @param interval with {@link Durability#BATCH}, the longest time between an append and the group commit
     *        that makes it durable (1 µs to a day)
     * @param bytes with {@link Durability#BATCH}, a group commit also starts (in the background) once this many
     *        bytes were appended since the last one; an appender that finds several times this many not yet synced
     *        syncs itself (at least 1)
     * @return a copy with them
     */
    public JournalOptions withBatch(Duration interval, long bytes) {
        if (Journal.given(interval, "batchInterval").compareTo(Duration.ofNanos(1000)) < 0
                || interval.compareTo(Duration.ofDays(1)) > 0 || bytes < 1) {
            throw new IolabException("bad batch thresholds " + interval + " / " + bytes
                    + " bytes: use an interval from 1 µs to a day and at least 1 byte");
        }
        return new JournalOptions(backend, durability, segmentSize, interval, bytes, preallocation, opener, prefault);
    }

    /**
     * @param value how new segment files are preallocated: {@link Preallocation#NONE} (grown by writes),
     *        {@link Preallocation#ZERO_FILL} (written full of zeros and synced) or {@link Preallocation#FALLOCATE}
     *        (the default). The latter two find a full disk when the segment is made. With {@code NONE} the
     *        copying backends find it at the write that needs a block; a mapping backend allocates its mapping's
     *        blocks as it maps them (the whole segment for {@code segment}, steps for {@code mapped}), so the append
     *        that needs a step throws {@link org.iolab.os.NoSpaceException}: never a fault from a store into a page
     *        with no block behind it
     * @return a copy with it
     */
    public JournalOptions withPreallocation(Preallocation value) {
        return new JournalOptions(backend, durability, segmentSize, batchInterval, batchBytes, value, opener,
                prefault);
    }

    /**
     * @param value with a mapping backend ({@link Backend#SEGMENT}), fault in the active segment's pages in a
     *        background thread a few MiB ahead of the appender ({@code madvise(MADV_POPULATE_WRITE)}), so appends do
     *        not stop for the kernel at each new page (figures in docs/RESULTS.md); on by default, at every
     *        durability level: a sync covers only the range up to the tip, never the zero pages dirtied ahead
     * @return a copy with it
     */
    public JournalOptions withPrefault(boolean value) {
        return new JournalOptions(backend, durability, segmentSize, batchInterval, batchBytes, preallocation, opener,
                value);
    }

    /** Tests: open files through {@code value} instead of the backend. */
    JournalOptions withOpener(StorageOpener value) {
        return new JournalOptions(backend, durability, segmentSize, batchInterval, batchBytes, preallocation,
                value, prefault);
    }

    /** @return the storage backend */
    public Backend backend() {
        return backend;
    }

    /** @return the durability level */
    public Durability durability() {
        return durability;
    }

    /** @return the size of new segment files in bytes */
    public long segmentSize() {
        return segmentSize;
    }

    /** @return the longest time between an append and its group commit ({@link Durability#BATCH}) */
    public Duration batchInterval() {
        return batchInterval;
    }

    /** @return the bytes appended that start a group commit ({@link Durability#BATCH}) */
    public long batchBytes() {
        return batchBytes;
    }

    /** @return how new segment files are preallocated */
    public Preallocation preallocation() {
        return preallocation;
    }

    /** @return true when the active segment's pages are faulted in ahead of the appender */
    public boolean prefault() {
        return prefault;
    }

    /** @return the largest payload one record can have with these options */
    public long maxRecordSize() {
        return Math.min(Format.maxPayload(segmentSize), Integer.MAX_VALUE - 64);
    }

    StorageOpener opener() {
        return opener != null ? opener : backend::open;
    }

    @Override
    public String toString() {
        return "JournalOptions[backend=" + backend + ", durability=" + durability + ", segmentSize=" + segmentSize
                + ", batch=" + batchInterval + "/" + batchBytes + " bytes, preallocation=" + preallocation.label()
                + ", prefault=" + prefault + "]";
    }
}
