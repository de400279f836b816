package org.iolab.store;

import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.iolab.IolabException;
import org.iolab.journal.JournalOptions;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * How a {@link Store} is opened: immutable; each {@code withX} method returns a changed copy.
 *
 * <p>Defaults: {@link Backend#DEFAULT}, {@link Durability#BATCH} with a group commit of the redo log at least
 * every 2 ms or every 1 MiB (like {@link JournalOptions#defaults()}), an index checkpoint file written at every
 * checkpoint, and a checkpoint once the redo log holds 64 MiB.
 */
public final class StoreOptions {
    private final Backend backend;
    private final Durability durability;
    private final Duration batchInterval;
    private final long batchBytes;
    private final boolean checkpoint;
    private final long redoLimit;
    private final FileOpener opener;
    private final UnaryOperator<JournalOptions> journalTweak;
    private final boolean compression;
    private final FileOpener sideFileOpener;

    private StoreOptions(Backend backend, Durability durability, Duration batchInterval, long batchBytes,
            boolean checkpoint, long redoLimit, FileOpener opener, UnaryOperator<JournalOptions> journalTweak,
            boolean compression, FileOpener sideFileOpener) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.durability = Objects.requireNonNull(durability, "durability");
        this.batchInterval = batchInterval;
        this.batchBytes = batchBytes;
        this.checkpoint = checkpoint;
        this.redoLimit = redoLimit;
        this.opener = opener;
        this.journalTweak = journalTweak;
        this.compression = compression;
        this.sideFileOpener = sideFileOpener;
    }

    /** @return the default options */
    public static StoreOptions defaults() {
        JournalOptions j = JournalOptions.defaults();
        return new StoreOptions(Backend.DEFAULT, Durability.BATCH, j.batchInterval(), j.batchBytes(), true,
                64L << 20, null, null, false, null);
    }

    /**
     * @param value the storage backend the data file and the redo log are written and read through
     * @return a copy with it
     */
    public StoreOptions withBackend(Backend value) {
        if (value == null) {
            throw new IolabException("null backend: give one of " + java.util.Arrays.toString(Backend.values()));
        }
        return new StoreOptions(value, durability, batchInterval, batchBytes, checkpoint, redoLimit, opener,
                journalTweak, compression, sideFileOpener);
    }

    /**
     * @param value when an operation counts as durable (see {@link Store} for what each level means)
     * @return a copy with it
     */
    public StoreOptions withDurability(Durability value) {
        if (value == null) {
            throw new IolabException("null durability: give NONE, BATCH or ALWAYS");
        }
        return new StoreOptions(backend, value, batchInterval, batchBytes, checkpoint, redoLimit, opener,
                journalTweak, compression, sideFileOpener);
    }

    /**
     * @param interval with {@link Durability#BATCH}, the longest time between an operation and the group commit
     *        of the redo log that makes it durable (from 1 µs to a day, as for the journal)
     * @param bytes with {@link Durability#BATCH}, a group commit also starts (in the redo log's background thread)
     *        once this many redo bytes were written since the last one; a writer that finds several times this many
     *        not yet synced syncs itself (at least 1; the journal's {@link JournalOptions#withBatch})
     * @return a copy with them
     */
    public StoreOptions withBatch(Duration interval, long bytes) {
        // compared as Durations: toNanos() of a huge one overflows
        if (interval == null || interval.compareTo(Duration.ofNanos(1000)) < 0
                || interval.compareTo(Duration.ofDays(1)) > 0 || bytes < 1) {
            throw new IolabException("bad batch thresholds " + interval + " / " + bytes
                    + " bytes: use an interval from 1 µs to a day and at least 1 byte");
        }
        return new StoreOptions(backend, durability, interval, bytes, checkpoint, redoLimit, opener, journalTweak,
                compression, sideFileOpener);
    }

    /**
     * @param value write the index checkpoint file {@code FILE.idx} at every checkpoint, so that an open loads
     *        the index instead of scanning the data file (true by default); false: every open scans. Without it a
     *        recovery after an OS crash or a power loss at {@link Durability#BATCH} cannot tell a torn write that was
     *        never acknowledged, into a hole the last checkpoint knew, from damage: the open may then throw
     *        {@link StoreCorruptedException}, and {@link Store#repair} keeps every acknowledged operation
     *        ({@code StorePowerLossTest}). With it, the checkpoint's holes are rewritten and no repair is needed
     * @return a copy with it
     */
    public StoreOptions withCheckpoint(boolean value) {
        return new StoreOptions(backend, durability, batchInterval, batchBytes, value, redoLimit, opener,
                journalTweak, compression, sideFileOpener);
    }

    /**
     * @param bytes a checkpoint runs once the redo log holds this many bytes (at least 4096; default 64 MiB)
     * @return a copy with it
     */
    public StoreOptions withRedoLimit(long bytes) {
        if (bytes < 4096) {
            throw new IolabException("bad redo limit " + bytes + ": use at least 4096 bytes");
        }
        return new StoreOptions(backend, durability, batchInterval, batchBytes, checkpoint, bytes, opener,
                journalTweak, compression, sideFileOpener);
    }

    /**
     * @param value with true, {@link Store#compact()} trains a symbol table on the live values and stores every value
     *        that gets shorter compressed, and later puts into that file compress with it; with false (the default),
     *        a compaction writes every value plain and drops the file's table. A store whose file has a table
     *        compresses its puts whatever this says (see {@link Store}, <em>Compression</em>)
     * @return a copy with it
     */
    public StoreOptions withCompression(boolean value) {
        return new StoreOptions(backend, durability, batchInterval, batchBytes, checkpoint, redoLimit, opener,
                journalTweak, value, sideFileOpener);
    }

    /** Tests: open the data file through {@code value} instead of the backend. */
    StoreOptions withOpener(FileOpener value) {
        return new StoreOptions(backend, durability, batchInterval, batchBytes, checkpoint, redoLimit, value,
                journalTweak, compression, sideFileOpener);
    }

    /**
     * Tests: write the store's side files ({@code FILE.idx}, and {@code FILE.rewrite} after a failed sync) through
     * {@code value} instead of {@link Backend#CHANNEL_HEAP}.
     */
    StoreOptions withSideFileOpener(FileOpener value) {
        return new StoreOptions(backend, durability, batchInterval, batchBytes, checkpoint, redoLimit, opener,
                journalTweak, compression, value);
    }

    /** Tests: change the redo log's journal options (e.g. to open its segments through a faulty opener). */
    StoreOptions withJournalTweak(UnaryOperator<JournalOptions> value) {
        return new StoreOptions(backend, durability, batchInterval, batchBytes, checkpoint, redoLimit, opener,
                value, compression, sideFileOpener);
    }

    /** @return the storage backend */
    public Backend backend() {
        return backend;
    }

    /** @return the durability level */
    public Durability durability() {
        return durability;
    }

    /** @return the longest time between an operation and its group commit ({@link Durability#BATCH}) */
    public Duration batchInterval() {
        return batchInterval;
    }

    /** @return the redo bytes that start a group commit ({@link Durability#BATCH}; see {@link #withBatch}) */
    public long batchBytes() {
        return batchBytes;
    }

    /** @return whether checkpoints write the index file {@code FILE.idx} */
    public boolean checkpoint() {
        return checkpoint;
    }

    /** @return the redo log size that triggers a checkpoint */
    public long redoLimit() {
        return redoLimit;
    }

    /** @return whether {@link Store#compact()} compresses the values ({@link #withCompression}) */
    public boolean compression() {
        return compression;
    }

    FileOpener opener() {
        return opener != null ? opener : backend::open;
    }

    /**
     * @return how the side files ({@code FILE.idx}, {@code FILE.rewrite}) are written: a positional
     *     {@code FileChannel} (each is written once, whole)
     */
    FileOpener sideFileOpener() {
        return sideFileOpener != null ? sideFileOpener : Backend.CHANNEL_HEAP::open;
    }

    JournalOptions journalOptions() {
        // 64 MiB redo segments: room for the largest operation (a 32 MiB value), without the journal's larger
        // default preallocated beside a small store
        JournalOptions j = JournalOptions.defaults().withBackend(backend).withSegmentSize(64L << 20)
                .withDurability(durability == Durability.ALWAYS ? Durability.ALWAYS : Durability.BATCH)
                .withBatch(batchInterval, batchBytes);
        return journalTweak == null ? j : journalTweak.apply(j);
    }

    @Override
    public String toString() {
        return "StoreOptions[backend=" + backend + ", durability=" + durability + ", batch=" + batchInterval + "/"
                + batchBytes + " bytes, checkpoint=" + checkpoint + ", redoLimit=" + redoLimit
                + ", compression=" + compression + "]";
    }
}
