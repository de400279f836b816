package org.iolab.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import java.util.zip.CRC32C;
import org.iolab.IolabException;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalCorruptedException;
import org.iolab.os.Prefaulter;
import org.iolab.storage.Backend;
import org.iolab.storage.Bytes;
import org.iolab.storage.Durability;
import org.iolab.storage.FileLocks;
import org.iolab.storage.FileModes;
import org.iolab.storage.StorageFile;
import org.iolab.storage.SyncFailureNote;

/**
 * A crash-safe keyed record store in one file: Bruno's design (a record header, an in-memory index, delete by
 * marking a record free, a free-space index that reuses holes by exact fit or by splitting, a front-to-back
 * scan) made safe by CRCs, sequences, write ordering and a redo log.
 *
 * <h2>Files</h2>
 * {@code FILE} the data, {@code FILE.lock} the writer's lock, {@code FILE.idx} the index checkpoint,
 * {@code FILE.wal/} the redo log (an {@link Journal}; {@link Durability#BATCH} and {@link Durability#ALWAYS} only),
 * {@code FILE.compact} a compaction in progress, {@code FILE.failed} the note a failed sync of the store's files leaves
 * (the next writable open copies the data file into {@code FILE.rewrite}, new blocks, and renames it over the file:
 * see <em>A sync that fails</em> below). All integers are little-endian.
 *
 * <h2>Data file</h2>
 * A 4 KiB header page holds two header copies, A at offset 0 and B at 512; each header write goes to the copy
 * its generation selects (even: A, odd: B), alternating, so a torn header write never loses the previous one;
 * the valid copy with the higher generation wins:
 * <pre>
 * offset  size  field
 *      0     8  magic "IOLABSTO"
 *      8     4  version (2; 3 when the file holds a symbol table; 1 had 24-byte slot headers)
 *     12     4  flags: bit 0 clean (file and FILE.idx are exactly the checkpoint), bit 1 redo log in use
 *     16     8  generation
 *     24     8  checkpoint sequence (the last operation the checkpoint covers)
 *     32     8  data end at the checkpoint
 *     40     8  incarnation (random; new on creation, compaction and every checkpoint; FILE.idx names it)
 *     48     8  zero
 *     56     4  CRC32C of bytes 0..55
 *     60     4  zero
 * </pre>
 * A version-3 file holds a {@link SymbolTable} at offset 1024 of the header page (written once, by the compaction that
 * made the file; magic, symbols, CRC32C): see <em>Compression</em> below.
 * Slots follow from offset 4096 to the data end, each 8-byte aligned, back to back:
 * <pre>
 * offset  size  field
 *      0     4  bits 0-22: slot length / 8 (the length includes header and padding)
 *               bits 23-24: type, 1 live record, 2 free (a hole); bits 25-30: padding p (0 in a hole); bit 31:
 *               packed, the value is compressed with the file's symbol table (0 in a hole, and without a table)
 *      4     2  key length k (0 in a hole)
 *      6     2  sequence bits 0-15 (the sequence of the operation that wrote it; the freeing one's, in a hole)
 *      8     4  sequence bits 16-47
 *     12     4  CRC32C of bytes 0..11 and the key and value
 *     16     k  key
 *   16+k     v  value: v = slot length - 16 - k - p (no value in a hole)
 * 16+k+v     p  padding (zeros when written): to 8 bytes, plus 8 when a hole too short to split was taken whole
 * </pre>
 * A record of a 10-byte key and a 40-byte value takes 72 bytes. The first 8 bytes are "the first word".
 * A slot is written body first and its first word last, so a process crash mid-write leaves the old hole's
 * header in place; a split writes the remainder's free header first. Every length is checked against the data
 * end before it is used: a garbage length cannot cause a large allocation, a hang or an out-of-bounds read.
 *
 * <h2>Index checkpoint {@code FILE.idx}</h2>
 * <pre>
 *      0     8  magic "IOLABIDX"      8  4  version (2)      12  4  zero
 *     16     8  incarnation           24  8  checkpoint sequence     32  8  data end
 *     40     8  shards S (256)        48  8  entries E       56  8  holes H
 *     64     8  live key+value bytes  72  8  stored slot bytes
 *     80   8*S  per shard: table length (log2) &lt;&lt; 32 | its entries
 *      .   8*E  the index's entries ({@code KeyIndex}: fingerprint &lt;&lt; 37 | offset / 8), shard by shard, each
 *               shard's in table order from an empty one (placed in that order, they rebuild its table)
 *      .  16*H  the holes: offset, length
 *      .     4  CRC32C of everything before;  4 zero
 * </pre>
 * Written to {@code FILE.idx.tmp}, synced, renamed, directory synced. An open uses it only when its CRC matches
 * and it names the header's incarnation, checkpoint sequence and data end; otherwise the index is rebuilt by a
 * scan of the data file (highest sequence wins when two copies of a key survived).
 *
 * <h2>Durability</h2>
 * <ul>
 *   <li>{@link Durability#NONE}: no redo log; writes go straight to the data file (page cache); a freed slot gets
 *       its free header at once. Survives a process crash (kill -9): the page cache keeps program order, and the
 *       header-word-last order leaves each slot old or new. After an OS crash or power loss: no guarantee ({@code
 *       open} may report damage; {@link #repair} drops it). {@link #sync()} fsyncs and checkpoints;
 *       {@link #durableSequence()} is the last checkpoint's sequence.</li>
 *   <li>{@link Durability#BATCH} and {@link Durability#ALWAYS}: every operation is first appended to the redo log
 *       {@code FILE.wal} (group commit with the batch thresholds, or a sync per operation), one record per
 *       operation holding its slot bytes, offsets and the slot it frees; then the data file is written (page
 *       cache, never synced between checkpoints). A freed slot (old copy of an updated key, deleted record) is
 *       reused, and marked free on disk, only once its operation is durable in the redo log; a put that finds no
 *       hole while frees of at least 64 KiB and a 32nd of the data wait syncs the log first (below that it
 *       appends, so the data grows by at most that much before the group commit lets the space be reused).
 *       Every operation with a sequence at or below
 *       {@link #durableSequence()} survives an OS crash and a power loss (if the device honours flushes).</li>
 * </ul>
 * A checkpoint (on close, {@link #sync()} at NONE, when the redo log passes {@link StoreOptions#redoLimit()}, after
 * {@link #compact()}) merges holes that lie end to end into one (up to the longest slot) and drops the holes at the end
 * of the data, writes the free headers of the holes, fsyncs the data file, writes {@code FILE.idx}, writes the header
 * (clean), cuts the file at the (possibly shorter) data end and empties the redo log. Recovery (an open after an
 * unclean stop) loads the checkpoint, applies every redo record after it to the index and the free space, checks that
 * every index entry then points at a live record of its key with a valid CRC (one a redo record writes, or one on
 * disk), and only then writes the records' slot bytes at their offsets and their frees, rewrites the holes' headers,
 * cuts the file at the data end and checkpoints; at NONE (or without a valid checkpoint) it scans the data file
 * instead. The check costs a read of every record, after an unclean stop only. No crash fails it: a checkpointed record
 * is freed on disk, and reused, only once its operation is durable in the redo log, so the replay moves its entry. An
 * entry that points at a hole or at another key's record proves that the redo log lost operations the data file holds
 * (a segment cut, zeroed or deleted after they were acknowledged): the open throws {@link StoreCorruptedException}
 * before it writes anything, and {@link #repair} rebuilds the index from the data file, keeping them.
 *
 * <h2>A sync that fails</h2>
 * When the write-back of a page fails (an I/O error, or ENOSPC on a thin-provisioned volume), Linux reports it to one
 * {@code fsync} and marks the page clean, its bytes still in the page cache but not on the device. The failed sync
 * throws, the store can no longer write, and a sync of the data file or of {@code FILE.idx} that failed (the kernel
 * reports a failed write-back to whichever file is synced next) leaves {@code FILE.failed}. The next
 * writable open (in the same boot, the page cache still holds what the failed sync wrote) copies the whole data file
 * into new blocks ({@code FILE.rewrite}, synced, renamed over the file) before it reads it, then deletes the note.
 * Without that copy the open's recovery would read the pages back and its checkpoint would call them durable without
 * writing them; after a reboot the store was refused as damaged. A failed sync of the redo log leaves the journal's
 * own note, and its open cuts the log at the first operation no completed sync covers.
 *
 * <h2>What the format assumes</h2>
 * Nothing about sector atomicity: a torn header write leaves the other header copy; a torn or lost slot write
 * after a checkpoint is either redone from the redo log or was never acknowledged (its CRC fails, or its sequence
 * is above the last logged one, or its hole is rewritten from the index checkpoint). A process crash is assumed
 * to keep every completed write in the page cache, in order, and to cut a write only between aligned 8-byte words
 * (the first header word is always written whole). Damage that none of this explains — a failed CRC or an
 * impossible length in checkpointed data, an index entry pointing to no record, a redo log that lost acknowledged
 * operations — throws {@link StoreCorruptedException} naming the file and the offset.
 *
 * <h2>Compression</h2>
 * With {@link StoreOptions#withCompression(boolean) compression} on, {@link #compact()} trains a static symbol table
 * ({@link SymbolTable}: up to 255 symbols of 1 to 8 bytes, the FSST scheme) on a sample of the live values, writes it
 * into the new file's header page and stores every value that gets shorter compressed (bit 31 of its slot); later
 * puts into that file compress with the same table. Each value is compressed alone, so a get decodes one record and
 * nothing else; keys are never compressed. Values over 1 MiB are stored as they are. A compaction without
 * compression writes every value plain and drops the table. The CRC covers the stored (compressed) bytes;
 * {@link StoreStats#liveBytes()} counts stored bytes. A file with a table is format version 3, which iolab versions
 * without compression refuse (rather than read compressed values as garbage).
 *
 * <h2>Concurrency</h2>
 * One writer per file: {@link #open} takes an exclusive lock on {@code FILE.lock}; a second writer, in this process
 * or another, gets {@link StoreLockedException}. {@link #openReadOnly} takes a shared lock on it instead: any number
 * of read-only stores, and no writer, while they are open. Writes ({@code put}, {@code delete}, {@code sync},
 * {@code compact}) are serialized; any number of threads may {@code get}, {@code contains} and {@code scan}
 * concurrently with them (a read lock held during the read and the visitor call).
 *
 * <h2>Limits</h2>
 * Keys up to 65,535 bytes, values up to 32 MiB, data files up to 1 TiB, about 120 million records.
 */
public final class Store implements AutoCloseable {
    private static final int READ_CHUNK = 256;
    /** The copy's buffer in {@link #rewriteAfterFailedSync}. */
    private static final int REWRITE_CHUNK = 1 << 20;
    /** Values up to this long are compressed when the file has a symbol table; longer ones are stored plain. */
    static final int PACK_MAX = 1 << 20;
    /** A compaction with compression trains its table on at most this many evenly spaced live values... */
    private static final int SAMPLE_RECORDS = 16_384;
    /** ...and at most this many of their bytes. */
    private static final int SAMPLE_BYTES = 1 << 20;
    /** Slots up to this long are copied out of the mapping by a lookup ({@code Ctx.readSlot}). */
    private static final int SMALL_SLOT = 512;
    /**
     * How far past the data end the mapping's pages are faulted in by {@link #prefaulter}; it is woken again each
     * time the data end has moved half of this past the end it was last told about.
     */
    private static final long PREFAULT_AHEAD = 2L << 20;
    private static final String[] NO_SEGMENTS = {};
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path file;
    private final Path walDir;
    private final StoreOptions options;
    private final boolean redo;
    /** Repair: the redo log was damaged, so the operations after the damage are known only from the data file. */
    private boolean redoDamaged;
    private final FileLock lock;
    private final ReentrantLock writer = new ReentrantLock();
    /**
     * Readers' and writers' lock: a StampedLock whose readers let a waiting writer go first. A StampedLock alone grants
     * a read lock whenever no writer holds it, queued writers or not, so readers that overlap (a scan on one thread,
     * gets on others) kept put, delete and close waiting for seconds. A ReentrantReadWriteLock, which does queue
     * readers behind a writer, cost the get phase of StoreBenchmark about 4% (59.9 and 64.1 ms against 62.3 and
     * 68.2, alternated; the command is in docs/RESULTS.md): here a reader pays one volatile read while no writer waits.
     */
    private final RwLock rw = new RwLock();

    private static final class RwLock {
        private final StampedLock lock = new StampedLock();
        private final java.util.concurrent.atomic.AtomicInteger writersWaiting =
                new java.util.concurrent.atomic.AtomicInteger();

        long readLock() {
            for (int spins = 0; writersWaiting.get() != 0; spins++) {
                // a writer waits for the readers in: this one waits until it has the lock (then blocks below while
                // it holds it)
                if (spins < 64) {
                    Thread.onSpinWait();
                } else {
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                }
            }
            return lock.readLock();
        }

        void unlockRead(long stamp) {
            lock.unlockRead(stamp);
        }

        long writeLock() {
            writersWaiting.incrementAndGet();
            try {
                return lock.writeLock();
            } finally {
                writersWaiting.decrementAndGet();
            }
        }

        void unlockWrite(long stamp) {
            lock.unlockWrite(stamp);
        }
    }
    /** The longest key, in bytes. */
    public static final int MAX_KEY = Slots.MAX_KEY;
    /** The longest value, in bytes (32 MiB). */
    public static final int MAX_VALUE = Slots.MAX_VALUE;
    /** A store file's header page: every store file is at least this long. */
    public static final int HEADER_PAGE = Header.PAGE;
    private final ThreadLocal<Ctx> contexts = ThreadLocal.withInitial(() -> new Ctx(this));
    private final CRC32C wcrc = new CRC32C();
    private final int[] holeLength = new int[1];
    private final FreeSpace free = new FreeSpace();
    /**
     * A put that finds no hole syncs the redo log, to turn the frees waiting for it into holes, only once they hold
     * at least this much and a 32nd of the data; below that it appends, and the group commit drains them. Every
     * update leaves such a free: syncing whenever one waited made BATCH updates cost a sync each (632 µs, against
     * 253 µs at ALWAYS). So the file grows by at most about a 32nd, or 64 KiB, before the space is reused.
     */
    private static final long REUSE_SYNC_MIN = 64 << 10;
    /** Set by a compaction whose copy failed before the swap (the store is unchanged; the writer's lock guards it). */
    private boolean copyFailed;
    private final PendingFrees pending = new PendingFrees();
    /** Problems found and dropped while repairing; null: damage throws. */
    private final List<StoreReport.Problem> repairs;
    /** Opened by {@link #openReadOnly}: nothing is written, every write throws. */
    private final boolean readOnly;
    /** A read-only store's hold on the shared lock; null otherwise. */
    private final FileLocks.Shared shared;

    /** The redo log and the store sequence of its record 0. */
    private record Log(Journal journal, long base) {
    }

    private StorageFile data;
    private volatile Log log;
    private Header header;
    private boolean dirtyOnDisk;
    private boolean rewriteHoles;
    private volatile long checkpointSeq;
    private volatile long lastSeq;
    private long dataEnd;
    private KeyIndex index = new KeyIndex();
    private long liveBytes;
    private long storedBytes;
    private long redoBytes;
    /**
     * Allocated by the first write, 4 KiB, grown for a larger slot ({@link #writeBuffer}): a store opened to be read
     * needs none.
     */
    private ByteBuffer wbuf;
    private MemorySegment wseg;
    /**
     * The file's symbol table when its values may be compressed (format version 3), else null. Replaced only under
     * the write lock (a compaction), so a reader holding the read lock sees the table its slots were written with.
     */
    private SymbolTable symbols;
    /** A put's compressed value ({@link #pack}); grown as needed, up to twice {@link #PACK_MAX}. */
    private ByteBuffer packBuf;
    /** A compaction's rebuilt slot ({@link #repack}); dropped after it. */
    private ByteBuffer compactBuf;
    private final ByteBuffer fbuf = ByteBuffer.allocate(Slots.HEADER).order(ByteOrder.LITTLE_ENDIAN);
    /**
     * The data file's mapping when the backend maps files ({@link StorageFile#mapping}), else null: slots are
     * written into it and read from it without a copy. Replaced (under the write lock, which keeps readers out)
     * whenever the file is remapped: grown, truncated, swapped by a compaction, closed.
     */
    private MemorySegment map;
    /** Whether the backend does not map files (then {@link #map} stays null). */
    private boolean unmapped;
    /**
     * Faults in the pages of {@link #map} past the data end in a background thread (madvise MADV_POPULATE_WRITE),
     * so the writer's copies into new pages do not stop for a page fault each; null while none runs. It works on
     * the current {@link #map}: stopped ({@link #stopPrefaulter}) before any mapping is released or replaced.
     */
    private Prefaulter prefaulter;
    /** The data end {@link #prefaulter} was last told about: it faults pages in up to {@value #PREFAULT_AHEAD} past. */
    private volatile long prefaultFrom;
    private volatile boolean closed;
    private volatile Throwable failure;
    /** Whether a failed sync of the data file has left its note ({@link #noteFailedSync}): once per store. */
    private volatile boolean syncFailureNoted;

    private Store(Path file, StoreOptions options, FileLock lock, List<StoreReport.Problem> repairs) {
        this(file, options, lock, repairs, null);
    }

    /** @param shared for a read-only store, its hold on the shared lock (else null: the store writes) */
    private Store(Path file, StoreOptions options, FileLock lock, List<StoreReport.Problem> repairs,
            FileLocks.Shared shared) {
        this.readOnly = shared != null;
        this.shared = shared;
        this.file = file;
        this.walDir = walOf(file);
        this.options = options;
        this.redo = options.durability() != Durability.NONE;
        this.lock = lock;
        this.repairs = repairs;
        if (!readOnly) {
            rewriteAfterFailedSync(file, options.sideFileOpener());
        }
        this.data = options.opener().open(file, !readOnly);
        // a read-only store reads with copies: a backend maps only a file it may write (StorageFile.mapping)
        this.unmapped = readOnly;
        try {
            remapped();
            recover();
        } catch (RuntimeException | Error e) {
            stopPrefaulter();
            Log l = log;
            if (l != null) {
                try {
                    l.journal().close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            try {
                data.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            contexts.remove();
            throw e;
        }
    }

    /**
     * Opens (creating if needed) the store in {@code file}, recovering from an unclean stop.
     *
     * @param file the data file
     * @param options backend, durability, batch thresholds, checkpoint
     * @return the open store; close it
     * @throws StoreLockedException when another writer holds the store
     * @throws StoreCorruptedException when the data file holds damage no crash explains, or the redo log lost
     *         operations the data file holds
     */
    public static Store open(Path file, StoreOptions options) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            checkArguments(file, options);
            Path f = file.toAbsolutePath();
            FileLock fileLock = acquire(f);
            try {
                checkSideFiles(f, options.durability() != Durability.NONE);
                Path shown = Files.exists(f) ? null : heldRecords(f);
                if (shown != null) {
                    // not created here: the store's other files show it held records, and its data file is gone
                    throw new StoreCorruptedException(f, 0, "the data file is missing, but " + shown
                            + " beside it shows"
                            + " that the store held records", "nothing was created; restore the data file, or delete "
                            + IndexFile.of(f) + " and " + walOf(f) + " to create a new, empty store");
                }
                return new Store(f, options, fileLock, null);
            } catch (RuntimeException | Error e) {
                FileLocks.release(fileLock, !Files.exists(f) || refusedAsForeign(f, e));
                throw e;
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Refuses, before anything is written, a folder where the store's index checkpoint goes ({@code FILE.idx}) or a
     * file where its redo log's folder goes ({@code FILE.wal}): the first failed the first checkpoint, after the store
     * had taken writes, and was taken for a checkpoint showing that a missing data file held records; the second
     * failed the first redo write with "a write or sync failed ... close it and open it again".
     */
    private static void checkSideFiles(Path file, boolean logged) {
        Path idx = IndexFile.of(file);
        if (Files.isDirectory(idx)) {
            throw new IolabException("store " + file + ": " + idx + " is a folder, where the store keeps its index"
                    + " checkpoint file; nothing was changed: move or delete that folder and open the store again");
        }
        Path wal = walOf(file);
        // only a store that logs makes the folder (at NONE such a file is in nobody's way, and it opened before)
        if (logged && Files.exists(wal, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(wal)) {
            throw new IolabException("store " + file + ": " + wal + " is " + (Files.isSymbolicLink(wal)
                    ? "a link to no folder" : "a file") + ", where the store keeps its redo log's folder; nothing was"
                    + " changed: move or delete it and open the store again");
        }
    }

    /**
     * @return whether an open failed with {@code e} because {@code file} is not a store: a lock file the open made
     *         beside it then goes, to leave nothing behind (beside a store it stays: others may hold it by now)
     */
    static boolean refusedAsForeign(Path file, Throwable e) {
        if (!(e instanceof StoreCorruptedException)) {
            return false;
        }
        try {
            return !beginsAsStore(file);
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    /**
     * Opens the store in {@code file} to read it, writing nothing: {@code get}, {@code contains}, {@code size},
     * {@code scan} and {@code stats} work; {@code put}, {@code delete}, {@code sync} and {@code compact} throw. It
     * holds a shared lock on {@code FILE.lock} until closed, so writers are refused meanwhile (readers are not).
     * Values are read with copies, whatever the backend. A store that needs recovery first (an unclean stop: the
     * header says open, or the redo log holds operations after the checkpoint) is refused with
     * {@link StoreRecoveryNeededException}: recovery writes, so open it once with {@link #open}.
     *
     * @param file the data file
     * @param options the backend (durability and thresholds are not used)
     * @return the open store; close it
     * @throws StoreLockedException when a writer has the store open
     * @throws StoreRecoveryNeededException when the store was not closed cleanly
     * @throws StoreCorruptedException when the file is not a store, or the data file is damaged
     * @throws IolabException when the file is missing or cannot be read
     */
    public static Store openReadOnly(Path file, StoreOptions options) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            checkArguments(file, options);
            Path f = file.toAbsolutePath();
            if (Files.isDirectory(f)) {
                throw new IolabException("store file " + f + " is a directory: give the store's data file");
            }
            if (!Files.exists(f)) {
                throw new IolabException("no store file " + f + ": give the data file a store was created in");
            }
            FileLocks.Shared hold = acquireShared(f);
            try {
                return new Store(f, options, null, null, hold);
            } catch (RuntimeException | Error e) {
                // a file of zeros is refused as a foreign one is, leaving nothing beside it
                hold.release(refusedAsForeign(f, e) || e instanceof StoreRecoveryNeededException r && r.blank());
                throw e;
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Whether {@code file} begins as a store does: a header copy (offset 0 or 512) that begins with the store's magic,
     * or a header page of zeros (a store that lost its first block) followed by nothing but zeros, or beside the
     * store's index checkpoint or redo log, or with a record that checks out somewhere after it. {@link #repair}
     * rewrites the header of any file and keeps only the records its scan finds, which for a file of another kind is
     * none: a tool can ask this first. (A file of another kind whose first 4 KiB happen to be zeros was taken for a
     * store: repair cut it to 4 KiB.) Reads the first 4 KiB and, after a zero page, up to the first record that checks
     * out (the whole file when there is none); takes no lock.
     *
     * @param file a file
     * @return true when it begins as a store does
     * @throws IolabException when it cannot be read
     */
    public static boolean beginsAsStore(Path file) {
        try (StorageFile f = Backend.DEFAULT.open(file, false)) {
            if (hasMagic(f)) {
                return true;
            }
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(Header.PAGE, f.size()));
            f.read(0, b);
            for (int i = 0; i < b.limit(); i++) {
                if (b.get(i) != 0) {
                    return false;
                }
            }
            return f.size() <= Slots.DATA_START || heldRecords(file.toAbsolutePath()) != null
                    || isBlank(f, file.toAbsolutePath()) || anyRecord(f);
        }
    }

    /** How far after the header page {@link #anyRecord} looks for a record. */
    private static final int RECORD_SEARCH = 1 << 20;
    /** The longest slot {@link #anyRecord} checks (longer candidates are skipped). */
    private static final int RECORD_SEARCH_SLOT = 64 << 10;

    /**
     * @return whether a record whose shape and CRC check out, of at most {@value #RECORD_SEARCH_SLOT} bytes, starts at
     *     an 8-aligned offset in the first {@value #RECORD_SEARCH} bytes after the header page. Bounded: random bytes
     *     pass the shape check often, and reading and checking every candidate of a whole file took minutes for a
     *     16 MiB file of another kind (a review); a store that lost its first page and the MiB after it is repaired
     *     with {@code --force}
     */
    private static boolean anyRecord(StorageFile f) {
        long size = f.size();
        int n = (int) Math.min(RECORD_SEARCH + RECORD_SEARCH_SLOT, size - Slots.DATA_START);
        if (n < Slots.HEADER) {
            return false;
        }
        ByteBuffer window = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        f.read(Slots.DATA_START, window);
        CRC32C crc = new CRC32C();
        for (int i = 0; i + Slots.HEADER <= Math.min(n, RECORD_SEARCH); i += 8) {
            long w0 = window.getLong(i);
            if (w0 == 0 || Slots.checkShape(w0, Slots.DATA_START + i, size) != null
                    || Slots.slotLength(w0) > RECORD_SEARCH_SLOT || i + Slots.slotLength(w0) > n) {
                continue;
            }
            int kv = Slots.keyAndValue(w0);
            if (Slots.storedCrc(window, i) == Slots.crc(crc, window, i, kv)) {
                return true;
            }
        }
        return false;
    }


    /**
     * Deletes the store in {@code file}: its redo log, index checkpoint (and what an interrupted checkpoint,
     * compaction or rewrite left), data file, failed-sync note and lock file, in that order. When {@code file} is a
     * symbolic link, the data file it names is deleted, then the link (the other files are beside the link).
     *
     * @param file the data file
     * @throws StoreLockedException when a writer has it open (nothing is deleted)
     * @throws IolabException when a file cannot be deleted (the ones before it are gone)
     */
    public static void deleteFiles(Path file) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            Path f = file.toAbsolutePath();
            Path walDir = walOf(f);
            FileLock fileLock = acquire(f);
            try {
                if (Files.isDirectory(walDir)) {
                    try (java.util.stream.Stream<Path> in = Files.list(walDir)) {
                        for (Path p : in.toList()) {
                            Files.deleteIfExists(p);
                        }
                    }
                    Files.deleteIfExists(walDir);
                }
                IndexFile.delete(f);
                Files.deleteIfExists(IndexFile.unfinished(f));
                Path real = FileModes.target(f);
                Files.deleteIfExists(compactOf(real));
                Files.deleteIfExists(rewriteOf(real));
                if (!real.equals(f)) {
                    // a link's data file: the store's records, which deleting only the link would leave behind unnamed
                    Files.deleteIfExists(real);
                    syncDirectory(real);
                }
                Files.deleteIfExists(f);
                SyncFailureNote.clear(failedOf(f), true);
                // last, and while held: a writer that opens it now finds no store to write to
                Files.deleteIfExists(lockFileOf(f));
            } catch (IOException e) {
                throw IolabException.io("delete the store", f, e);
            } finally {
                FileLocks.release(fileLock);
            }
            syncDirectory(f);
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    static Path dataFileOf(Path lockFile) {
        String name = lockFile.getFileName().toString();
        return lockFile.resolveSibling(name.endsWith(".lock") ? name.substring(0, name.length() - 5) : name);
    }

    /** @return the lock file of the store whose data file is {@code file}: {@code FILE.lock} */
    static Path lockFileOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".lock");
    }

    /** A writer's exclusive lock on the store's lock file, or {@link StoreLockedException}. */
    private static FileLock acquire(Path file) {
        FileLock fileLock = FileLocks.tryLock(lockFileOf(file));
        if (fileLock == null) {
            throw new StoreLockedException(lockFileOf(file));
        }
        return fileLock;
    }

    /** Readers' shared lock on the store's lock file, or {@link StoreLockedException} while a writer holds it. */
    static FileLocks.Shared acquireShared(Path file) {
        FileLocks.Shared hold = FileLocks.tryShared(lockFileOf(file));
        if (hold == null) {
            throw new StoreLockedException(lockFileOf(file));
        }
        return hold;
    }

    /** fsyncs the directory holding {@code file} (after creating, renaming or deleting a file in it). */
    static void syncDirectory(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            throw IolabException.io("sync the directory", dir, e);
        }
    }

    // ---------------------------------------------------------------- recovery

    private void recover() {
        try {
            // a compaction that did not reach its rename: the data file is still the old one, complete; a checkpoint
            // that did not reach its rename: FILE.idx is still the old one
            if (!readOnly) {
                Path real = FileModes.target(file);
                Files.deleteIfExists(compactOf(real));
                Files.deleteIfExists(IndexFile.unfinished(file));
                // a copy a failed-sync rewrite left when its note went some other way (a power loss)
                Files.deleteIfExists(rewriteOf(real));
            }
        } catch (IOException e) {
            throw IolabException.io("delete the unfinished compaction file of", file, e);
        }
        Header h = readHeader(data, file);
        symbols = null;
        if (h != null && h.packed()) {
            symbols = SymbolTable.read(tablePage(data), 0);
            if (symbols == null && repairs == null) {
                throw new StoreCorruptedException(file, Header.TABLE, "the symbol table of this compressed store is"
                        + " damaged, so its compressed values cannot be decoded", "the file is unchanged; 'iolab store"
                        + " repair " + file + "' keeps the records stored plain and drops the compressed ones; restore"
                        + " the file from a backup to keep those");
            }
            if (symbols == null) {
                repairs.add(new StoreReport.Problem(file, Header.TABLE, "the symbol table is damaged: the compressed"
                        + " records are dropped and the file is written plain", false));
                // not clean: the index is rebuilt by the scan, which drops them; the header written is version 2
                h = new Header(h.generation(), h.checkpointSeq(), h.dataEnd(), false, h.incarnation(), h.redoFlag(),
                        false);
            }
        }
        if (h == null) {
            if (isBlank(data, file) && readOnly) {
                throw new StoreRecoveryNeededException(file, "its creation was interrupted (the file holds only"
                        + " zeros)", true);
            }
            if (isBlank(data, file)) {
                create();
                return;
            }
            if (repairs == null) {
                if (!hasMagic(data)) {
                    throw new StoreCorruptedException(file, 0, "neither header copy (offsets 0 and 512) begins with"
                            + " the store's magic: this is not an iolab store, or its header page was overwritten",
                            "the file is unchanged; give the path of a store, or a new path to create one (if it is"
                            + " a damaged store, 'iolab store verify " + file + "' shows what is left)");
                }
                throw new StoreCorruptedException(file, 0, "neither header copy (offsets 0 and 512) is valid");
            }
            repairs.add(new StoreReport.Problem(file, 0, "neither header copy is valid; a new header was written",
                    false));
            // its data end is the file's: a run of zeros is damage to skip, not the end of the data
            // a symbol table that still checks out says the file was compressed (its slots' packed bits need it)
            symbols = SymbolTable.read(tablePage(data), 0);
            h = new Header(1, 0, Math.max(Slots.DATA_START, data.size() & -8L), false,
                    ThreadLocalRandom.current().nextLong(), false, symbols != null);
        }
        header = h;
        checkpointSeq = h.checkpointSeq();
        lastSeq = h.checkpointSeq();
        dataEnd = h.dataEnd();
        if (data.size() < h.dataEnd()) {
            // no crash leaves this, clean or not: a checkpoint syncs the file at its data end before a header names
            // it, and the file only grows until the next one
            if (repairs == null) {
                throw new StoreCorruptedException(file, data.size(), "the file ends before its data end "
                        + h.dataEnd() + " (truncated)");
            }
            repairs.add(new StoreReport.Problem(file, data.size(), "the file ends before its data end " + h.dataEnd()
                    + " (truncated); the records after it are lost", false));
        }
        boolean logged = segmentNames(walDir).length > 0;
        List<ByteBuffer> records = logged ? redoRecords(h.checkpointSeq()) : new ArrayList<>();
        boolean unclean = !h.clean() || !records.isEmpty();
        if (unclean && readOnly) {
            throw new StoreRecoveryNeededException(file, records.isEmpty() ? "it was not closed cleanly"
                    : "its redo log holds " + records.size() + " operations after its last checkpoint");
        }
        if (!unclean && repairs == null) {
            boolean rebuilt = !loadCheckpoint(h);
            if (rebuilt) {
                scan(Slots.DATA_START, dataEnd, new Scanner.Policy(Long.MAX_VALUE, false, 0, Long.MAX_VALUE, false));
            }
            if (readOnly) {
                return; // a zero tail past the data end, the redo log's empty segments: left for the writer
            }
            if (rebuilt && options.checkpoint()) {
                // the scan's index is exactly the clean header's checkpoint: replace the missing or damaged FILE.idx
                IndexFile.write(file, h, index, free, liveBytes, storedBytes, options.sideFileOpener(), this::noteFailedSync);
            }
            if (data.size() > dataEnd) {
                truncateData(dataEnd);
            }
            dirtyOnDisk = false;
            if (logged) {
                startLog(); // no segment to delete otherwise
            }
            return;
        }
        // an unclean stop (or a repair): rebuild, replay, checkpoint
        if (h.clean()) {
            // a repair of a clean store writes (relengthened records, hole headers) before its checkpoint: the header
            // must stop calling the file and FILE.idx the checkpoint first, or a crash in between leaves a clean
            // header whose FILE.idx the next open trusts over data it no longer describes
            Header d = h.next(h.checkpointSeq(), h.dataEnd(), false, h.redoFlag());
            writeHeader(d);
            forceData(false);
            header = d;
        }
        // a header that names a redo log when there is none: the log was deleted by the checkpoint that wrote the
        // newer header copy, which is damaged now (no crash leaves this: the log goes only once a clean header is
        // synced), so the data file holds every operation and the scan below keeps them all; trusting this older
        // header's checkpoint sequence would drop every later record as never acknowledged
        boolean redoWasUsed = !records.isEmpty() || h.redoFlag() && hasSegments();
        boolean checkpointed = redoWasUsed && loadCheckpoint(h);
        // repair: the data file is ahead of a redo log that lost operations (acknowledged ones)
        // a damaged log cannot say which of the data file's later records were acknowledged: the repair keeps every
        // whole one (the newest of each key), as its report says, rather than drop them all as never acknowledged.
        // A delete leaves no trace there until its free is written (at BATCH, after a later operation drains it), so
        // a key deleted after the damage can come back: the report says so
        boolean dataAhead = checkpointed && repairs != null && logLostOperations(records)
                || repairs != null && redoDamaged;
        if (checkpointed && repairs == null) {
            replayOverCheckpoint(records);
        } else if (redoWasUsed) {
            for (ByteBuffer r : records) {
                redoWrites(Redo.Op.decode(r, walDir), dataAhead);
            }
            long replayed = lastSeq;
            lastSeq = h.checkpointSeq();
            long end = Math.max(dataEnd, h.dataEnd());
            resetState();
            // the records of operations after the log's last one: never acknowledged (holes), unless the log lost
            // them; then they are kept, the newest of each key, up to a zero header word after the replayed data
            long found = scan(Slots.DATA_START, dataAhead ? data.size() : Math.min(end, data.size()),
                    new Scanner.Policy(dataAhead ? end : Long.MAX_VALUE, true, h.checkpointSeq(),
                            dataAhead ? Long.MAX_VALUE : replayed, repairs != null));
            lastSeq = Math.max(lastSeq, replayed);
            dataEnd = found;
        } else {
            resetState();
            long end = h.clean() ? Math.min(h.dataEnd(), data.size()) : data.size();
            // a clean header (a repair) means nothing was written since the checkpoint: no slot is crash debris, a
            // failed CRC is damage to report (as verify does), not a hole to make of it silently
            dataEnd = scan(Slots.DATA_START, end,
                    new Scanner.Policy(h.clean() ? Long.MAX_VALUE : h.dataEnd(), !h.clean(), h.checkpointSeq(),
                            Long.MAX_VALUE, repairs != null));
        }
        rewriteHoles = true;
        dirtyOnDisk = true;
        checkpoint();
        startLog();
    }

    private void resetState() {
        index = new KeyIndex();
        free.clear();
        liveBytes = 0;
        storedBytes = 0;
    }

    /** @return null when the compressed value of {@code v} bytes at {@code at} of {@code b} decodes, else why not */
    static String undecodable(SymbolTable t, ByteBuffer b, int at, int v) {
        if (t == null) {
            return "a compressed value in a file without a symbol table";
        }
        int n = t.decodedLength(b, at, v);
        return n < 0 || n > Slots.MAX_VALUE ? "a compressed value that does not decode with the file's symbol table"
                : null;
    }

    /** @return the bytes of the header page where a symbol table is written (fewer when the file is shorter) */
    static ByteBuffer tablePage(StorageFile f) {
        int n = (int) Math.max(0, Math.min(SymbolTable.MAX_SERIALIZED, f.size() - Header.TABLE));
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        if (n > 0) {
            f.read(Header.TABLE, b);
        }
        return b.clear();
    }

    private static Header readHeader(StorageFile f, Path file) {
        if (f.size() < Header.COPY_B + Header.SIZE) {
            return null;
        }
        ByteBuffer page = ByteBuffer.allocate(Header.COPY_B + Header.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        f.read(0, page);
        Header.checkVersion(page, file);
        Header a = Header.decode(page, Header.COPY_A);
        Header b = Header.decode(page, Header.COPY_B);
        if (a == null || (b != null && b.generation() > a.generation())) {
            return b;
        }
        return a;
    }

    /** @return the redo log folder of the store in {@code file}: {@code FILE.wal} */
    static Path walOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".wal");
    }

    /** @return the note a failed sync of the data file in {@code file} leaves: {@code FILE.failed} */
    static Path failedOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".failed");
    }

    /** @return where an open after a failed sync writes the copy of {@code file} it renames over the file */
    static Path rewriteOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".rewrite");
    }

    /**
     * A writable open (or a repair) after a sync of the data file failed ({@code FILE.failed}, a
     * {@link SyncFailureNote}): the pages that sync wrote may be clean in the page cache without being on the device,
     * and the recovery that follows would read them back, and its checkpoint would call them durable without writing
     * them. So the whole file is first copied into {@code FILE.rewrite} (read through the page cache, written, synced),
     * renamed over the data file and the folder synced; only then the note goes. Not rewritten in place: on ext4 the
     * blocks of a failed write-back can stay unwritten, and data written to them again reads back as zeros after a
     * remount (measured with {@code scripts/eio-rig.sh}: docs/RESULTS.md). The copy costs a read and a write of the
     * file, once, after a failure. A copy that fails (the device still full) is deleted, and the note stays.
     */
    private static void rewriteAfterFailedSync(Path file, FileOpener opener) {
        Path note = failedOf(file);
        if (!SyncFailureNote.present(note)) {
            return;
        }
        // a note that does not check out (a power loss cut its write, or a user's file of that name) still gets the
        // copy: an extra copy costs a read and a write; a missed one, records that are not on the device
        boolean valid = SyncFailureNote.read(note) >= 0;
        if (Files.exists(file)) {
            // the file itself, not a link to it: the copy goes beside it and replaces it, keeping the link
            Path real = FileModes.target(file);
            Path copy = rewriteOf(real);
            long size = 0;
            try {
                size = Files.size(real);
                try (FileChannel from = FileChannel.open(real, StandardOpenOption.READ);
                        StorageFile to = opener.open(copy, true)) {
                    to.truncate(0);
                    FileModes.copy(real, copy);
                    ByteBuffer chunk = ByteBuffer.allocateDirect(REWRITE_CHUNK);
                    for (long p = 0; p < size; ) {
                        chunk.clear().limit((int) Math.min(REWRITE_CHUNK, size - p));
                        while (chunk.hasRemaining()) {
                            if (from.read(chunk, p + chunk.position()) < 0) {
                                throw new IOException("the file ended at offset " + (p + chunk.position())
                                        + " while it was copied, before its size " + size);
                            }
                        }
                        chunk.flip();
                        int n = chunk.remaining();
                        if (Bytes.nonZero(chunk)) {
                            to.write(p, chunk);
                        }
                        // else a preallocated tail (a mapped backend grows the file in steps of up to 1 GiB): left a
                        // hole, not written out, so the copy needs room for the data only (the next open's mapping
                        // reserves the blocks again)
                        p += n;
                    }
                    if (to.size() < size) {
                        // the file's length, its zero tail a hole (one zero written at its end)
                        to.write(size - 1, ByteBuffer.allocate(1));
                    }
                    to.force(true);
                }
                Files.move(copy, real, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                String why = e instanceof IOException io ? IolabException.io("write", copy, io).getMessage()
                        : e.getMessage();
                IolabException x = new IolabException("cannot rewrite the data file " + real + " into new blocks, as"
                        + " the next open after a failed sync must (" + note + " says one failed; the copy "
                        + copy.getFileName() + " needs up to " + size + " bytes free beside it): " + why, e);
                try {
                    Files.deleteIfExists(copy);
                } catch (IOException suppressed) {
                    x.addSuppressed(suppressed);
                }
                throw x;
            }
            syncDirectory(real);
        }
        SyncFailureNote.clear(note, valid);
    }

    /** @return where a compaction of {@code file} writes its copy before renaming it over the file */
    static Path compactOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".compact");
    }

    /**
     * @return {@code FILE.idx}, or the redo log folder when it holds segments, if one beside {@code file} shows that
     *     the store held records (creation deletes both before it writes); else null
     */
    private static Path heldRecords(Path file) {
        Path idx = IndexFile.of(file);
        if (Files.exists(idx)) {
            return idx;
        }
        Path wal = walOf(file);
        return hasSegments(wal) ? wal : null;
    }

    /**
     * @param f the data file, with no valid header
     * @param file its path
     * @return true when no slot was ever written: the file is empty or holds no first slot (a creation that did not
     *         complete; its header may be torn), and no index checkpoint or redo log says otherwise
     */
    static boolean isBlank(StorageFile f, Path file) {
        // a checkpoint or a redo log beside it shows that the store held records: then the file lost them (cut or
        // zeroed), and recreating it would silently drop what is left (creation deletes both before it writes)
        if (heldRecords(file) != null) {
            return false;
        }
        // a creation writes the header page's zeros, then the header, and syncs both before the first slot: all an
        // interrupted one leaves is zeros, and header copies that begin with the magic (torn). Anything else is
        // not a store of ours, and recreating it would wipe someone's file (a short one was taken for blank)
        long size = f.size();
        ByteBuffer b = ByteBuffer.allocate((int) Math.min(Math.max(size, 8), 1 << 20)).order(ByteOrder.LITTLE_ENDIAN);
        for (long at = 0; at < size; at += b.capacity()) {
            int n = (int) Math.min(b.capacity(), size - at);
            b.clear().limit(n);
            f.read(at, b);
            for (int i = 0; i < n; i++) {
                if (i + 8 <= n && (at + i) % 8 == 0 && b.getLong(i) == 0) {
                    i += 7;
                    continue;
                }
                if (b.get(i) != 0 && !inTornHeader(b, at, at + i)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** @return whether either header copy of {@code f} begins with the store's magic */
    private static boolean hasMagic(StorageFile f) {
        ByteBuffer b = ByteBuffer.allocate(Header.COPY_B + 8).order(ByteOrder.LITTLE_ENDIAN);
        if (f.size() < b.capacity()) {
            b.limit((int) f.size());
        }
        f.read(0, b);
        return b.limit() >= 8 && b.getLong(Header.COPY_A) == Header.MAGIC
                || b.limit() >= Header.COPY_B + 8 && b.getLong(Header.COPY_B) == Header.MAGIC;
    }

    /**
     * @param b the bytes read from {@code bufferAt} on
     * @param p an offset of the file
     * @return whether {@code p} lies in a header copy whose first 8 bytes are the magic (first read with the copy)
     */
    private static boolean inTornHeader(ByteBuffer b, long bufferAt, long p) {
        for (int copy : new int[] {Header.COPY_A, Header.COPY_B}) {
            if (p >= copy && p < copy + Header.SIZE) {
                return bufferAt == 0 && b.limit() >= copy + 8 && b.getLong(copy) == Header.MAGIC;
            }
        }
        return false;
    }

    private void create() {
        if (Files.exists(IndexFile.of(file))) {
            // durably gone before the file is touched: an interrupted creation must not look like a damaged store
            IndexFile.delete(file);
            syncDirectory(file);
        }
        deleteSegments();
        truncateData(0);
        truncateData(Header.PAGE);
        header = new Header(0, 0, Slots.DATA_START, true, ThreadLocalRandom.current().nextLong(), false, false);
        symbols = null;
        writeHeader(header);
        forceData(true);
        syncDirectory(file);
        dataEnd = Slots.DATA_START;
        startLog();
    }

    /**
     * After an open: deletes what is left of the redo log (records the checkpoint covers). The redo log itself is
     * opened by the first write ({@link #markDirty()}), so an open that only reads creates nothing.
     */
    private void startLog() {
        deleteSegments();
    }

    /** @return whether FILE.idx was valid and is now the state */
    private boolean loadCheckpoint(Header h) {
        String[] problem = new String[1];
        IndexFile.Loaded c = IndexFile.load(file, h, problem);
        if (c == null) {
            return false;
        }
        c.addHoles(free);
        index = c.index();
        liveBytes = c.liveBytes();
        storedBytes = c.storedBytes();
        return true;
    }

    /** @return the redo records after {@code cpSeq}, in order (copies); call when the log has segments */
    private List<ByteBuffer> redoRecords(long cpSeq) {
        List<ByteBuffer> out = new ArrayList<>();
        try {
            readRedo(cpSeq, out);
        } catch (IolabException e) {
            if (e.getCause() instanceof IOException || e.getCause() instanceof UncheckedIOException) {
                throw e;
            }
            // damage: a record that fails its check, a missing segment, a gap in the sequences
            if (repairs == null) {
                // named with the store's advice: the journal's own repair would cut operations the store needs
                throw e instanceof StoreCorruptedException ? e : e instanceof JournalCorruptedException j
                        ? new StoreCorruptedException(j.file(), j.offset(), "redo log: " + j.what(), storeAdvice())
                        : new StoreCorruptedException(walDir, 0, "the redo log cannot be read: " + e.getMessage());
            }
            // the damage itself, not the journal's advice (its own repair is not the store's; a review found the
            // store's report telling the user to run 'iolab journal repair' on the redo log)
            String damage = e instanceof JournalCorruptedException j ? j.file() + " at offset " + j.offset() + ": "
                    + j.what() : e instanceof StoreCorruptedException sc ? sc.file() + " at offset " + sc.offset()
                    + ": " + sc.what() : e.getMessage();
            repairs.add(new StoreReport.Problem(walDir, 0, "the redo log is damaged (" + damage + "); "
                    + (out.isEmpty() ? "none of its operations could be read, so none was redone"
                    : "the " + out.size() + " operations before the damage were redone")
                    + "; later ones survive only where the data file holds them whole: a put or an update does, a"
                    + " delete may not (a key deleted after the damage can come back with its last value: check the"
                    + " keys deleted since the last checkpoint)", false));
            redoDamaged = true;
        }
        return out;
    }

    /** @return what to do about a damaged redo log: the store's repair, which keeps what the data file holds */
    private String storeAdvice() {
        return "run 'iolab store verify " + file + "' for a full report and 'iolab store repair " + file + "' to"
                + " rebuild the index from the data file (not 'iolab journal repair', which would only cut the log)";
    }

    /** Adds the redo records after {@code cpSeq} to {@code out}, in order (copies), up to the first damage. */
    private void readRedo(long cpSeq, List<ByteBuffer> out) {
        // a read-only store holds the shared lock, so no writer appends meanwhile; its open truncates nothing
        Journal j = readOnly ? Journal.openReadOnly(walDir, options.journalOptions())
                : Journal.open(walDir, options.journalOptions());
        try {
            Redo.read(j, cpSeq, walDir, out);
        } finally {
            j.close();
        }
    }

    private boolean hasSegments() {
        return hasSegments(walDir);
    }

    static boolean hasSegments(Path walDir) {
        return segmentNames(walDir).length > 0;
    }

    /**
     * @return the names of the redo log's segment files, sorted (oldest first); none when there is no log folder.
     *     Listed with {@code File.list}, one call: an open lists the folder, and after a collection (the benchmark's
     *     reopen) the caches are cold and the stream of {@code Files.list} cost 100-200 µs
     * @throws IolabException when the folder exists but cannot be listed
     */
    static String[] segmentNames(Path walDir) {
        java.io.File folder = walDir.toFile();
        String[] names = folder.list();
        if (names == null) {
            if (folder.isDirectory()) {
                throw new IolabException("cannot list the redo log " + walDir + "; check its permissions");
            }
            return NO_SEGMENTS;
        }
        int n = 0;
        for (String name : names) {
            if (name.endsWith(".seg")) {
                names[n++] = name;
            }
        }
        String[] segs = Arrays.copyOf(names, n);
        Arrays.sort(segs);
        return segs;
    }

    /**
     * Deletes the redo log's segments, last first, each followed by a sync of the directory: a crash part way leaves
     * the log's first segments, never later ones without the first (a log that does not begin at its first segment,
     * or at one a deleteBefore marked, is one whose records are missing, and its journal refuses to open). With one
     * sync at the end, a file system that persists the deletions in another order could leave just that.
     */
    private void deleteSegments() {
        String[] names = segmentNames(walDir);
        for (int i = names.length - 1; i >= 0; i--) {
            Path p = walDir.resolve(names[i]);
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                throw IolabException.io("delete redo segment", p, e);
            }
            syncDirectory(walDir.resolve("x"));
        }
    }

    /**
     * Replays the redo records over the checkpoint just loaded: first their effect on the index and the free space
     * ({@link RedoReplay}), then a check of every index entry against the data file, and only then their writes. A
     * failed check throws before anything is written: the data file keeps what the log lost, for a repair.
     *
     * @throws StoreCorruptedException when an index entry points at a hole or another key's record (the redo log
     *         lost operations) or at no valid slot (damage)
     */
    private void replayOverCheckpoint(List<ByteBuffer> records) {
        List<Redo.Op> ops = new ArrayList<>(records.size());
        RedoReplay model = new RedoReplay(file, index, free, liveBytes, storedBytes, dataEnd, lastSeq);
        for (ByteBuffer r : records) {
            Redo.Op op = Redo.Op.decode(r, walDir);
            model.apply(op);
            ops.add(op);
        }
        RedoReplay.Found found = model.check(data, map);
        if (found.lost() != null) {
            throw new StoreCorruptedException(file, found.lost().offset(), found.lost().what()
                    + "; nothing was replayed", "run 'iolab store repair " + file + "' to rebuild the index from the"
                    + " data file, which keeps those operations (the newest record of each key)");
        }
        if (found.damaged() != null) {
            throw new StoreCorruptedException(file, found.damaged().offset(), found.damaged().what());
        }
        for (Redo.Op op : ops) {
            redoWrites(op, false);
        }
        liveBytes = model.liveBytes();
        storedBytes = model.storedBytes();
        dataEnd = model.dataEnd();
        lastSeq = model.lastSeq();
    }

    /**
     * Repair, with a valid checkpoint: whether the redo log lost operations the data file holds ({@link RedoReplay}
     * on the checkpoint, which is then dropped); reports it.
     */
    private boolean logLostOperations(List<ByteBuffer> records) {
        RedoReplay model = new RedoReplay(file, index, free, liveBytes, storedBytes, dataEnd, lastSeq);
        try {
            for (ByteBuffer r : records) {
                model.apply(Redo.Op.decode(r, walDir));
            }
        } catch (StoreCorruptedException e) {
            // the log does not fit the checkpoint: the scan decides, as without one
            return false;
        }
        RedoReplay.Finding lost = model.check(data, map).lost();
        if (lost == null) {
            return false;
        }
        repairs.add(new StoreReport.Problem(file, lost.offset(), lost.what() + "; the index was rebuilt from the"
                + " data file, keeping the newest record of each key", false));
        return true;
    }

    /**
     * Redoes one logged operation's writes: its slot bytes, its remainder hole and its free. With {@code keepNewer}
     * (the log lost later operations the data file holds), a write whose place holds a slot header of a later
     * operation is skipped: that operation reused the place.
     */
    private void redoWrites(Redo.Op r, boolean keepNewer) {
        long seq = r.seq();
        if (r.op() == Redo.PUT) {
            if (!keepNewer || !newerOnDisk(r.off(), seq)) {
                writeSlot(r.off(), r.slot(), 0, r.n());
            }
            if (r.remOff() >= 0 && (!keepNewer || !newerOnDisk(r.remOff(), seq))) {
                writeFree(r.remOff(), r.remLen(), seq);
            }
        }
        if (r.freedOff() >= 0 && (!keepNewer || !newerOnDisk(r.freedOff(), seq))) {
            writeFree(r.freedOff(), r.freedLen(), seq);
        }
        dataEnd = r.end();
        lastSeq = seq;
    }

    /** @return whether a plausible slot header with a sequence above {@code seq} starts at {@code off} */
    private boolean newerOnDisk(long off, long seq) {
        long size = data.size();
        if (off + Slots.HEADER > size) {
            return false;
        }
        ByteBuffer h = fbuf.clear();
        data.read(off, h);
        long w0 = h.getLong(0);
        return w0 != 0 && Slots.checkShape(w0, off, size) == null && Slots.seq(w0, h.getInt(8)) > seq;
    }

    /** Rebuilds index and free space from the slots in {@code [from, end)}; returns where the data ends. */
    private long scan(long from, long end, Scanner.Policy policy) {
        Scanner scanner = new Scanner(data, map);
        Ctx ctx = contexts.get();
        long savedEnd = dataEnd;
        dataEnd = end;
        RebuildSink sink = new RebuildSink(ctx, end);
        long found = scanner.walk(from, end, policy, sink);
        sink.finish(found);
        dataEnd = savedEnd;
        return found;
    }

    /** Builds the index from a scan; keeps the highest sequence of each key; collects or throws damage. */
    private final class RebuildSink implements Scanner.Sink {
        private final Ctx ctx;
        private long prevOff = -1;
        private int prevLen;
        private boolean prevLive;
        private long smallOff = -1;
        private long smallLen;
        private final long end;

        RebuildSink(Ctx ctx, long end) {
            this.ctx = ctx;
            this.end = end;
        }

        @Override
        public void live(long offset, int slotLength, long seq, ByteBuffer b, int at, int k, int v) {
            lastSeq = Math.max(lastSeq, seq);
            if (absorbSmall(offset, slotLength)) {
                return;
            }
            if (repairs != null && Slots.packed(b.getLong(at))) {
                String wrong = undecodable(symbols, b, at + Slots.HEADER + k, v);
                if (wrong != null) {
                    // (an older copy of its key, if one survived, may come back: the repair cannot tell)
                    repairs.add(new StoreReport.Problem(file, offset, wrong + "; the record is dropped", false));
                    free.add(offset, slotLength);
                    prevOff = offset;
                    prevLen = slotLength;
                    prevLive = false;
                    return;
                }
            }
            long hash = Slots.hash(b, at + Slots.HEADER, k);
            ctx.keyBuf = b;
            ctx.keyPos = at + Slots.HEADER;
            ctx.keyLen = k;
            int pos = index.find(hash, ctx);
            boolean kept = true;
            if (pos >= 0) {
                long other = index.offsetAt(pos);
                long otherSeq = Slots.seq(ctx.cur.getLong(0), ctx.cur.getInt(8));
                int otherLen = (int) ctx.slotLength;
                int otherKv = ctx.foundKeyLen + ctx.foundValueLen;
                if (otherSeq > seq) {
                    free.add(offset, slotLength); // an older copy: a hole, which damage right after it may join
                    kept = false;
                } else {
                    index.setOffset(pos, offset);
                    free.add(other, otherLen);
                    liveBytes += k + v - otherKv;
                    storedBytes += slotLength - otherLen;
                }
            } else {
                index.insert(hash, offset);
                liveBytes += k + v;
                storedBytes += slotLength;
            }
            prevOff = offset;
            prevLen = slotLength;
            prevLive = kept;
        }

        @Override
        public void free(long offset, int slotLength, long seq) {
            lastSeq = Math.max(lastSeq, seq);
            if (absorbSmall(offset, slotLength)) {
                return;
            }
            free.add(offset, slotLength);
            prevOff = offset;
            prevLen = slotLength;
            prevLive = false;
        }

        private boolean absorbSmall(long offset, int slotLength) {
            if (smallOff < 0) {
                return false;
            }
            long len = smallLen + slotLength;
            repairs.add(new StoreReport.Problem(file, offset, "slot of " + slotLength
                    + " bytes dropped with the damage before it", false));
            long at = smallOff;
            if (len > Slots.MAX_SLOT) {
                // no hole may pass the longest slot: the damage becomes a hole of its own first
                free.add(at, Slots.HEADER);
                at += Slots.HEADER;
                len -= Slots.HEADER;
            }
            free.add(at, (int) len);
            prevOff = at;
            prevLen = (int) len;
            prevLive = false;
            smallOff = -1;
            return true;
        }

        @Override
        public boolean damaged(long offset, long length, String what) {
            if (repairs == null) {
                throw new StoreCorruptedException(file, offset, what);
            }
            if (length == 0 || offset + length >= end) {
                // damage up to the end (a cut file): the data ends before it
                repairs.add(new StoreReport.Problem(file, offset, what + "; the data now ends here", false));
                return false;
            }
            repairs.add(new StoreReport.Problem(file, offset, what + "; " + length + " bytes dropped", false));
            if (length >= Slots.HEADER && length <= Slots.MAX_SLOT) {
                free.add(offset, (int) length);
                prevOff = offset;
                prevLen = (int) length;
                prevLive = false;
            } else if (length > Slots.MAX_SLOT) {
                // cut into holes no longer than a slot
                long at = offset;
                long left = length;
                while (left > 0) {
                    long piece = left - Slots.MAX_SLOT >= Slots.HEADER ? Slots.MAX_SLOT
                            : left <= Slots.MAX_SLOT ? left : left - Slots.HEADER;
                    free.add(at, (int) piece);
                    at += piece;
                    left -= piece;
                }
                prevOff = at - (int) Math.min(length, Slots.MAX_SLOT);
                prevLen = 0;
                prevOff = -1;
            } else if (prevOff >= 0 && prevOff + prevLen == offset && prevLen + length <= Slots.MAX_SLOT
                    && extendPrevious((int) length)) {
                return true;
            } else {
                smallOff = offset;
                smallLen = length;
            }
            return true;
        }

        /** @return false when the previous slot is a record whose padding cannot grow by {@code by} */
        private boolean extendPrevious(int by) {
            int len = prevLen + by;
            if (prevLive) {
                ByteBuffer b = ByteBuffer.allocate(prevLen).order(ByteOrder.LITTLE_ENDIAN);
                data.read(prevOff, b);
                if (!Slots.relength(b, 0, len, wcrc)) {
                    return false;
                }
                data.write(prevOff, b.clear().limit(Slots.HEADER));
                storedBytes += by;
            } else {
                free.remove(prevOff);
                free.add(prevOff, len);
            }
            prevLen = len;
            return true;
        }

        void finish(long end) {
            if (smallOff >= 0) {
                // damage right before the end: give it to the end
                smallOff = -1;
                dataEnd = Math.min(dataEnd, end);
            }
        }
    }

    // ---------------------------------------------------------------- per-thread reading

    /**
     * A thread's read buffer, CRC and the key being searched (it is the index's {@link KeyIndex.Matcher}). It reaches its store through a weak reference: the thread's map holds this context
     * as the value of the store's thread-local, and a strong reference back to the store would keep every store a
     * long-lived thread ever read (and its buffers) reachable after it was closed.
     */
    private static final class Ctx implements KeyIndex.Matcher {
        private final java.lang.ref.WeakReference<Store> owner;
        final CRC32C crc = new CRC32C();
        /** Allocated by the first {@link #readSlotCopy}: the mapped backends read small slots through {@link #small}. */
        ByteBuffer buf;
        /** A copy of a small slot found in the mapping (header, key, value at 0), and a view of it. */
        final byte[] small = new byte[SMALL_SLOT];
        final ByteBuffer smallView = ByteBuffer.wrap(small).order(ByteOrder.LITTLE_ENDIAN);
        /** The slot found: {@link #buf} (a copy) or a view of the mapping; header at 0. */
        ByteBuffer cur;
        ByteBuffer keyBuf;
        int keyPos;
        int keyLen;
        long slotLength;
        int foundKeyLen;
        int foundValueLen;
        /** Whether the value found is compressed ({@link Slots#PACKED}): {@link #unpack} decodes it. */
        boolean foundPacked;
        /** Decodes compressed values ({@link #unpack}). */
        final Unpacker unpacker = new Unpacker();
        /** Visitors of the store this thread is inside ({@link #scan}, {@link #get(ByteBuffer, ValueVisitor)}). */
        int visiting;

        Ctx(Store owner) {
            this.owner = new java.lang.ref.WeakReference<>(owner);
        }

        /** @return the store; strongly held by whoever is calling it */
        private Store store() {
            return owner.get();
        }

        Ctx with(ByteBuffer key) {
            keyBuf = key;
            keyPos = key.position();
            keyLen = key.remaining();
            return this;
        }

        @Override
        public boolean matches(long offset) {
            readSlot(offset);
            // the CRC first: a damaged key must throw, not read as another key
            checkCrc(offset);
            return foundKeyLen == keyLen && Slots.equal(cur, Slots.HEADER, keyBuf, keyPos, keyLen);
        }

        /**
         * Finds the live slot the index points to: {@link #cur} is then a copy of it in {@link #small} when it is
         * short, else a view of it in the mapping (header, key, value at 0), or a copy in {@link #buf} when the
         * backend does not map.
         */
        void readSlot(long offset) {
            Store s = store();
            MemorySegment m = s.map;
            long dataEnd = s.dataEnd;
            if (m == null || offset < Slots.DATA_START || offset + Slots.HEADER > Math.min(dataEnd, m.byteSize())) {
                readSlotCopy(offset);
                return;
            }
            long w0 = m.get(LONG_LE, offset);
            String shape = Slots.checkShape(w0, offset, Math.min(dataEnd, m.byteSize()));
            if (shape != null || Slots.type(w0) != Slots.LIVE) {
                readSlotCopy(offset);
                return;
            }
            slotLength = Slots.slotLength(w0);
            foundKeyLen = Slots.keyLength(w0);
            foundValueLen = (int) Slots.valueLength(w0);
            foundPacked = Slots.packed(w0);
            int length = Slots.HEADER + foundKeyLen + foundValueLen;
            if (length <= small.length) {
                // a small slot: one copy out of the mapping, then the CRC, the key's comparison and the value's
                // copy run over an array (each access to the shared-arena mapping through a buffer costs two atomic
                // operations, and the buffer an allocation)
                MemorySegment.copy(m, ValueLayout.JAVA_BYTE, offset, small, 0, length);
                cur = smallView;
            } else {
                cur = m.asSlice(offset, length).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            }
        }

        /** Reads the live slot the index points to into {@link #buf} at 0 (header, key, value); {@code cur = buf}. */
        void readSlotCopy(long offset) {
            Store s = store();
            long dataEnd = s.dataEnd;
            Path file = s.file;
            StorageFile data = s.data;
            if (buf == null) {
                buf = ByteBuffer.allocateDirect(4096).order(ByteOrder.LITTLE_ENDIAN);
            }
            cur = buf;
            long avail = dataEnd - offset;
            if (offset < Slots.DATA_START || avail < Slots.HEADER) {
                throw new StoreCorruptedException(file, offset, "the index points outside the data (end " + dataEnd
                        + ")");
            }
            int n = (int) Math.min(READ_CHUNK, avail);
            data.read(offset, buf.clear().limit(n));
            long w0 = buf.getLong(0);
            String shape = Slots.checkShape(w0, offset, dataEnd);
            if (shape != null || Slots.type(w0) != Slots.LIVE) {
                throw new StoreCorruptedException(file, offset, "the index points to no live record: "
                        + (shape != null ? shape : "a free slot"));
            }
            slotLength = Slots.slotLength(w0);
            foundKeyLen = Slots.keyLength(w0);
            foundValueLen = (int) Slots.valueLength(w0);
            foundPacked = Slots.packed(w0);
            int need = Slots.HEADER + foundKeyLen + foundValueLen;
            if (need > n) {
                if (need > buf.capacity()) {
                    buf = ByteBuffer.allocateDirect(Slots.align(need)).order(ByteOrder.LITTLE_ENDIAN);
                }
                data.read(offset, buf.clear().limit(need));
            }
            cur = buf;
        }

        /**
         * Decodes the compressed value found into {@code unpacker.plain()}.
         *
         * @param offset the slot's offset, for the error
         * @return its length
         * @throws StoreCorruptedException when it does not decode (or the file has no table)
         */
        int unpack(long offset) {
            Store s = store();
            return unpacker.unpack(s.symbols, cur, Slots.HEADER + foundKeyLen, foundValueLen, s.file, offset);
        }

        void checkCrc(long offset) {
            if (Slots.storedCrc(cur, 0) != Slots.crc(crc, cur, 0, foundKeyLen + foundValueLen)) {
                throw new StoreCorruptedException(store().file, offset, "record of " + slotLength
                        + " bytes fails its CRC check");
            }
        }
    }

    // ---------------------------------------------------------------- reading

    /**
     * @param key the key
     * @return a copy of the value, or null when the key is absent
     * @throws StoreCorruptedException when the record is damaged
     */
    public byte[] get(byte[] key) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            ByteBuffer kb = wrap(key);
            int k = checkKey(kb);
            long hash = Slots.hash(kb, 0, k);
            Ctx ctx = enter("get");
            long stamp = rw.readLock();
            try {
                checkOpen();
                int pos = index.find(hash, ctx.with(kb));
                if (pos < 0) {
                    return null;
                }
                if (ctx.foundPacked) {
                    int n = ctx.unpack(index.offsetAt(pos)); // first: it may replace the buffer plain() returns
                    return Arrays.copyOf(ctx.unpacker.plain(), n);
                }
                byte[] out = new byte[ctx.foundValueLen];
                ctx.cur.get(Slots.HEADER + ctx.foundKeyLen, out);
                return out;
            } finally {
                rw.unlockRead(stamp);
                // the read context reaches this store through a weak reference: keep it reachable until here
                java.lang.ref.Reference.reachabilityFence(this);
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Hands the value of {@code key} to {@code visitor} without copying it.
     *
     * @param key the key, from its position to its limit (not changed)
     * @param visitor receives a read-only view of the value, valid during the call; it must not call this store
     *        (an {@link IolabException} says so: it runs under the store's read lock, in the store's buffers)
     * @return true when the key was found (and visited)
     */
    public boolean get(ByteBuffer key, ValueVisitor visitor) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            int k = checkKey(key);
            if (visitor == null) {
                throw new IolabException("null visitor for a get from store " + file
                        + ": give one, or use get(byte[])");
            }
            long hash = Slots.hash(key, key.position(), k);
            Ctx ctx = enter("get");
            long stamp = rw.readLock();
            try {
                checkOpen();
                int pos = index.find(hash, ctx.with(key));
                if (pos < 0) {
                    return false;
                }
                ctx.visiting++;
                try {
                    if (ctx.foundPacked) {
                        int n = ctx.unpack(index.offsetAt(pos));
                        visitor.visit(ByteBuffer.wrap(ctx.unpacker.plain(), 0, n).slice().asReadOnlyBuffer());
                    } else {
                        visitor.visit(ctx.cur.slice(Slots.HEADER + ctx.foundKeyLen, ctx.foundValueLen)
                                .asReadOnlyBuffer());
                    }
                } finally {
                    ctx.visiting--;
                }
                return true;
            } finally {
                rw.unlockRead(stamp);
                // the read context reaches this store through a weak reference: keep it reachable until here
                java.lang.ref.Reference.reachabilityFence(this);
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * @param key the key
     * @return whether the store holds it
     */
    public boolean contains(byte[] key) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            ByteBuffer kb = wrap(key);
            int k = checkKey(kb);
            long hash = Slots.hash(kb, 0, k);
            Ctx ctx = enter("look up a key");
            long stamp = rw.readLock();
            try {
                checkOpen();
                return index.find(hash, ctx.with(kb)) >= 0;
            } finally {
                rw.unlockRead(stamp);
                // the read context reaches this store through a weak reference: keep it reachable until here
                java.lang.ref.Reference.reachabilityFence(this);
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /** @return the number of live records */
    public long size() {
        enter("count the records");
        long stamp = rw.readLock();
        try {
            checkOpen();
            return index.size();
        } finally {
            rw.unlockRead(stamp);
        }
    }

    /**
     * Hands every live record to {@code visitor} in file order; each record's CRC is checked. The file is read in
     * chunks of 1 MiB (copied in bulk from the mapping, or read), and each record is handed as views of its chunk:
     * no per-record copy or allocation. Writers wait until the scan ends.
     *
     * @param visitor receives read-only views of key and value, valid during the call; it must not call this store
     *        (an {@link IolabException} says so: it runs under the store's read lock)
     * @return the number of records visited
     * @throws StoreCorruptedException when a damaged slot is reached
     */
    public long scan(EntryVisitor visitor) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            if (visitor == null) {
                throw new IolabException("null visitor for a scan of store " + file + ": give one");
            }
            Ctx ctx = enter("scan");
            long stamp = rw.readLock();
            ctx.visiting++;
            try {
                checkOpen();
                long[] count = {0};
                boolean anyPending = !pending.isEmpty();
                new Scanner(data, map).walk(Slots.DATA_START, dataEnd,
                        new Scanner.Policy(Long.MAX_VALUE, false, 0, Long.MAX_VALUE, false), new Scanner.Sink() {
                            private ByteBuffer chunk;
                            private ByteBuffer keyView;
                            private ByteBuffer valueView;
                            private final Unpacker unpacker = new Unpacker();
                            private ByteBuffer plainView;
                            private byte[] viewed;

                            @Override
                            public void live(long offset, int slotLength, long seq, ByteBuffer b, int at, int k,
                                    int v) {
                                if (anyPending && pending.contains(offset)) {
                                    return;
                                }
                                count[0]++;
                                if (b != chunk) {
                                    chunk = b;
                                    keyView = b.asReadOnlyBuffer();
                                    valueView = b.asReadOnlyBuffer();
                                }
                                // two views per chunk, moved from record to record, not two slices per record (and
                                // big-endian each time, as a slice would be, whatever the last visitor set)
                                int key = at + Slots.HEADER;
                                ByteBuffer value;
                                if (Slots.packed(b.getLong(at))) {
                                    value = unpack(offset, b, key + k, v);
                                } else {
                                    value = valueView.limit(key + k + v).position(key + k);
                                }
                                visitor.visit(keyView.limit(key + k).position(key).order(ByteOrder.BIG_ENDIAN),
                                        value.order(ByteOrder.BIG_ENDIAN));
                            }

                            /** @return a read-only view of the compressed value at {@code at} of {@code b}, decoded */
                            private ByteBuffer unpack(long offset, ByteBuffer b, int at, int v) {
                                int n = unpacker.unpack(symbols, b, at, v, file, offset);
                                if (viewed != unpacker.plain()) {
                                    viewed = unpacker.plain();
                                    plainView = ByteBuffer.wrap(viewed).asReadOnlyBuffer();
                                }
                                return plainView.limit(n).position(0);
                            }

                            @Override
                            public void free(long offset, int slotLength, long seq) {
                                // a hole
                            }

                            @Override
                            public boolean damaged(long offset, long length, String what) {
                                throw new StoreCorruptedException(file, offset, what);
                            }
                        });
                return count[0];
            } finally {
                ctx.visiting--;
                rw.unlockRead(stamp);
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    // ---------------------------------------------------------------- writing

    /**
     * Stores {@code value} under {@code key}, replacing any previous value.
     *
     * @param key the key (0 to 65,535 bytes)
     * @param value the value (0 to 32 MiB)
     * @return the operation's sequence ({@link #awaitDurable(long)})
     */
    public long put(byte[] key, byte[] value) {
        return put(wrap(key), wrap(value));
    }

    /**
     * Stores {@code value} under {@code key}, replacing any previous value.
     *
     * @param key the key, from its position to its limit (0 to 65,535 bytes; not changed)
     * @param value the value, from its position to its limit (0 to 32 MiB; not changed)
     * @return the operation's sequence ({@link #awaitDurable(long)})
     */
    public long put(ByteBuffer key, ByteBuffer value) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            int k = checkKey(key);
            if (value == null) {
                throw new IolabException("cannot put a null value into store " + file + ": use delete to remove a key");
            }
            int v = value.remaining();
            if (v > Slots.MAX_VALUE) {
                throw new IolabException("value of " + v + " bytes is too long for store " + file + ": at most "
                        + Slots.MAX_VALUE + " bytes (32 MiB)");
            }
            long hash = Slots.hash(key, key.position(), k);
            Ctx ctx = enter("put");
            writer.lock();
            try {
                checkWritable();
                int pos = index.find(hash, ctx.with(key));
                long oldOff = -1;
                int oldLen = 0;
                int oldKv = 0;
                if (pos >= 0) {
                    oldOff = index.offsetAt(pos);
                    oldLen = (int) ctx.slotLength;
                    oldKv = ctx.foundKeyLen + ctx.foundValueLen;
                } else if (!index.canInsert(hash)) {
                    // each of the index's shards holds at most 1/256 of its records: a full one refuses new keys before
                    // anything is logged
                    throw new IolabException("store " + file + " is full: it holds " + index.size()
                            + " records, and the part of its index this key belongs to is full; split the data over"
                            + " several stores");
                }
                try {
                    ByteBuffer packed = pack(symbols, value);
                    return packed == null ? doPut(hash, key, value, k, v, false, pos, oldOff, oldLen, oldKv)
                            : doPut(hash, key, packed, k, packed.remaining(), true, pos, oldOff, oldLen, oldKv);
                } catch (RuntimeException | Error e) {
                    fail(e);
                    throw e;
                }
            } finally {
                writer.unlock();
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * @param t the symbol table to compress with, or null
     * @param value a value to put (not changed)
     * @return it compressed with {@code t}, in {@link #packBuf}, when there is one and that makes it
     *     shorter; else null
     */
    private ByteBuffer pack(SymbolTable t, ByteBuffer value) {
        int v = value.remaining();
        if (t == null || v == 0 || v > PACK_MAX) {
            return null;
        }
        int room = SymbolTable.maxEncoded(v);
        if (packBuf == null || packBuf.capacity() < room) {
            packBuf = ByteBuffer.allocate(Math.max(room, packBuf == null ? 256 : Math.min(2 * PACK_MAX,
                    packBuf.capacity() * 2))).order(ByteOrder.LITTLE_ENDIAN);
        }
        int n = t.encode(value, packBuf.clear(), 0);
        return n < v ? packBuf.limit(n).position(0) : null;
    }

    private long doPut(long hash, ByteBuffer key, ByteBuffer value, int k, int v, boolean packed, int pos,
            long oldOff, int oldLen, int oldKv) {
        markDirty();
        drainDurable(durableSequence());
        int need = Slots.needed(k, v);
        long off = free.take(need, holeLength);
        if (off < 0 && pending.bytes() >= Math.max(need, Math.max(REUSE_SYNC_MIN, (dataEnd - Slots.DATA_START) >>> 5))) {
            log.journal().sync();
            drainDurable(durableSequence());
            off = free.take(need, holeLength);
        }
        int slotLen = need;
        long remOff = -1;
        int remLen = 0;
        long newEnd = dataEnd;
        if (off >= 0) {
            if (holeLength[0] - need >= Slots.HEADER) {
                remOff = off + need;
                remLen = holeLength[0] - need;
            } else {
                slotLen = holeLength[0];
            }
        } else {
            off = dataEnd;
            newEnd = dataEnd + need;
            if (newEnd > Slots.MAX_FILE) {
                throw new IolabException("store " + file + " is full: the data file would pass 1 TiB");
            }
        }
        long seq = lastSeq + 1;
        ByteBuffer b = writeBuffer(Redo.HEADER + need);
        Slots.writeLive(b, Redo.HEADER, slotLen, seq, key, value, packed, wcrc);
        if (redo) {
            b.put(0, (byte) Redo.PUT).put(1, (byte) 0).putShort(2, (short) 0).putInt(4, need).putLong(8, seq)
                    .putLong(16, off).putLong(24, remOff).putInt(32, remLen).putInt(36, oldLen).putLong(40, oldOff)
                    .putInt(48, slotLen).putInt(52, oldKv).putLong(56, newEnd).putLong(64, hash);
            append(b.limit(Redo.HEADER + need).position(0), seq);
        }
        long stamp = rw.writeLock();
        try {
            if (remOff >= 0) {
                writeFree(remOff, remLen, seq);
                free.add(remOff, remLen);
            }
            writeSlot(off, b, Redo.HEADER, need);
            if (pos >= 0) {
                index.setOffset(pos, off);
            } else {
                index.insert(hash, off);
            }
            dataEnd = newEnd;
            lastSeq = seq;
            liveBytes += k + v - oldKv;
            storedBytes += slotLen - oldLen;
            if (oldOff >= 0) {
                release(oldOff, oldLen, seq);
            }
        } finally {
            rw.unlockWrite(stamp);
        }
        maybeCheckpoint();
        return seq;
    }

    /**
     * Removes {@code key}.
     *
     * @param key the key
     * @return the operation's sequence, or -1 when the key was absent (nothing is written)
     */
    public long delete(byte[] key) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            ByteBuffer kb = wrap(key);
            int k = checkKey(kb);
            long hash = Slots.hash(kb, 0, k);
            Ctx ctx = enter("delete");
            writer.lock();
            try {
                checkWritable();
                int pos = index.find(hash, ctx.with(kb));
                if (pos < 0) {
                    return -1;
                }
                long oldOff = index.offsetAt(pos);
                int oldLen = (int) ctx.slotLength;
                int oldKv = ctx.foundKeyLen + ctx.foundValueLen;
                try {
                    markDirty();
                    long seq = lastSeq + 1;
                    if (redo) {
                        ByteBuffer b = writeBuffer(Redo.HEADER);
                        b.putLong(0, Redo.DELETE).putLong(8, seq).putLong(16, -1).putLong(24, -1).putInt(32, 0)
                                .putInt(36, oldLen).putLong(40, oldOff).putInt(48, 0).putInt(52, oldKv)
                                .putLong(56, dataEnd).putLong(64, hash);
                        append(b.limit(Redo.HEADER).position(0), seq);
                    }
                    long stamp = rw.writeLock();
                    try {
                        index.removeAt(pos);
                        lastSeq = seq;
                        liveBytes -= oldKv;
                        storedBytes -= oldLen;
                        release(oldOff, oldLen, seq);
                    } finally {
                        rw.unlockWrite(stamp);
                    }
                    drainDurable(durableSequence());
                    maybeCheckpoint();
                    return seq;
                } catch (RuntimeException | Error e) {
                    fail(e);
                    throw e;
                }
            } finally {
                writer.unlock();
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    private void append(ByteBuffer record, long seq) {
        Log l = log;
        int bytes = record.remaining();
        long jseq = l.journal().append(record);
        if (l.base() + jseq != seq) {
            throw new IolabException("store " + file + ": redo record " + jseq + " got store sequence "
                    + (l.base() + jseq) + " instead of " + seq + " (internal error); close and reopen the store");
        }
        redoBytes += bytes + 24;
    }

    private ByteBuffer writeBuffer(int n) {
        if (wbuf == null || wbuf.capacity() < n) {
            wbuf = ByteBuffer.allocateDirect(Math.max(n, wbuf == null ? 4096 : wbuf.capacity() * 2))
                    .order(ByteOrder.LITTLE_ENDIAN);
            wseg = MemorySegment.ofBuffer(wbuf);
        }
        return wbuf.clear();
    }

    /** The old slot of an updated or deleted key: a hole now (NONE) or once its operation is durable. */
    private void release(long off, int len, long seq) {
        if (!redo) {
            writeFree(off, len, seq);
            free.add(off, len);
        } else {
            pending.add(seq, off, len);
        }
    }

    /** Turns the frees of operations up to {@code durable} into holes (marked free on disk). */
    private void drainDurable(long durable) {
        if (pending.isEmpty() || pending.firstSeq() > durable) {
            return;
        }
        long stamp = rw.writeLock();
        try {
            drainLocked(durable);
        } finally {
            rw.unlockWrite(stamp);
        }
    }

    /** {@link #drainDurable} with the write lock held. */
    private void drainLocked(long durable) {
        while (!pending.isEmpty() && pending.firstSeq() <= durable) {
            long seq = pending.firstSeq();
            long off = pending.firstOffset();
            int len = pending.firstLength();
            pending.removeFirst();
            writeFree(off, len, seq);
            free.add(off, len);
        }
    }

    /**
     * Writes a slot: everything after the first word, then the first word. {@code b} is {@link #wbuf} or a
     * redo record's copy.
     */
    private void writeSlot(long off, ByteBuffer b, int at, int n) {
        MemorySegment m = mapFor(off + n);
        if (m != null) {
            MemorySegment src = b == wbuf ? wseg : MemorySegment.ofBuffer(b.clear());
            MemorySegment.copy(src, at + 8, m, off + 8, n - 8);
            m.set(LONG_LE, off, src.get(LONG_LE, at));
            data.written(off + n);
            return;
        }
        data.write(off + 8, b.limit(at + n).position(at + 8));
        data.write(off, b.limit(at + 8).position(at));
    }

    /** Writes a free header: its first word first (a torn write reads as a hole with a bad CRC: crash debris). */
    private void writeFree(long off, int len, long seq) {
        ByteBuffer h = fbuf.clear();
        Slots.writeFree(h, 0, len, seq, wcrc);
        MemorySegment m = mapFor(off + Slots.HEADER);
        if (m != null) {
            m.set(LONG_LE, off, h.getLong(0));
            m.set(LONG_LE, off + 8, h.getLong(8));
            data.written(off + Slots.HEADER);
            return;
        }
        data.write(off, h.limit(8).position(0));
        data.write(off + 8, h.limit(Slots.HEADER).position(8));
    }

    /**
     * @return the mapping, grown to cover {@code end}, or null when the backend does not map. Writer only, with
     *         the write lock held (a growth remaps) or while no reader can exist (open, recovery).
     */
    private MemorySegment mapFor(long end) {
        MemorySegment m = map;
        if (m != null && m.byteSize() >= end) {
            // from the data end: a write into a hole must not send the prefaulter over the pages before it
            long at = Math.max(end, dataEnd);
            long told = prefaultFrom;
            // a recovery may replay a write below a data end that lies past the mapping (a file cut short): there
            // is nothing ahead of it to fault in then
            if (at < m.byteSize()
                    && (prefaulter == null || at > told + PREFAULT_AHEAD / 2 && told + PREFAULT_AHEAD < m.byteSize())) {
                prefault(m, at);
            }
            return m;
        }
        if (unmapped) {
            return null;
        }
        // growing remaps: the old mapping is closed first, so it must not stay here if the new one fails
        stopPrefaulter();
        map = null;
        m = data.mapping(end);
        unmapped = m == null;
        map = m;
        return m;
    }

    /**
     * Asks {@link #prefaulter} (started for this mapping if need be) to fault in the pages up to
     * {@value #PREFAULT_AHEAD} bytes past {@code end}, instead of the writer taking one page fault per new page. The
     * pages it dirties past the data are zeros the next slots overwrite; the file's logical size does not change.
     */
    private void prefault(MemorySegment m, long end) {
        prefaultFrom = end;
        if (prefaulter != null) {
            prefaulter.wake();
            return;
        }
        long from = end & -Prefaulter.PAGE;
        // woken each time the data end moves on, it may sleep long while the store is idle
        prefaulter = Prefaulter.start(m.asSlice(from), from, () -> prefaultFrom, PREFAULT_AHEAD,
                "iolab-store-prefault " + file, false, 10_000_000);
    }

    /** Stops {@link #prefaulter}, if one runs, and waits for it: before the mapping it works on is released. */
    private void stopPrefaulter() {
        Prefaulter p = prefaulter;
        if (p != null) {
            prefaulter = null;
            p.stop();
        }
    }

    /** Takes the data file's current mapping (after it was opened or remapped; null while the file is empty). */
    private void remapped() {
        stopPrefaulter();
        map = unmapped ? null : data.mapping(0);
        prefaultFrom = 0;
    }

    private void truncateData(long size) {
        stopPrefaulter();
        data.truncate(size);
        remapped();
    }

    private void writeHeader(Header h) {
        ByteBuffer b = h.encode();
        boolean grows = map != null && h.position() + b.remaining() > map.byteSize();
        if (grows) {
            stopPrefaulter();
        }
        data.write(h.position(), b);
        if (grows) {
            // a file cut inside its header page, being repaired: the write grew and remapped it
            remapped();
        }
    }

    private void markDirty() {
        if (!dirtyOnDisk) {
            if (redo && log == null) {
                log = new Log(Journal.open(walDir, options.journalOptions()), lastSeq + 1);
                redoBytes = 0;
            }
            Header h = header.next(header.checkpointSeq(), header.dataEnd(), false, redo);
            writeHeader(h);
            // at NONE too, before any slot write: a power loss that kept a later slot write and lost this one would
            // leave the clean header and FILE.idx trusted over a data file that changed (stale offsets and holes, the
            // sequences restarted below records on disk). One sync of the header's page per open or checkpoint.
            forceData(() -> data.forceRange(0, Header.PAGE));
            header = h;
            dirtyOnDisk = true;
        }
    }

    private void maybeCheckpoint() {
        if (redo && redoBytes >= options.redoLimit()) {
            checkpoint();
        }
    }

    /**
     * Writer lock held (or constructing). Makes the data file and FILE.idx the state, then deletes the redo log
     * (the next write starts a new one).
     */
    private void checkpoint() {
        Log l = log;
        if (l != null) {
            l.journal().sync();
        }
        if (!dirtyOnDisk && !rewriteHoles && pending.isEmpty()) {
            return;
        }
        long stamp = rw.writeLock();
        try {
            drainLocked(Long.MAX_VALUE);
            // neighbouring holes become one, and a hole at the end of the data goes: safe here, as the redo log
            // starts afresh after this checkpoint (a replay never sees holes other than the checkpoint's). A crash
            // before the header leaves the old checkpoint, whose holes a recovery rewrites, or a scan, which finds
            // the merged header covering the old ones
            long seq = lastSeq;
            long end = free.merge(Slots.MAX_SLOT, dataEnd, rewriteHoles ? (offset, length) -> { }
                    : (offset, length) -> writeFree(offset, length, seq));
            if (rewriteHoles) {
                free.forEach((offset, length) -> writeFree(offset, length, seq));
                rewriteHoles = false;
            }
            if (data.size() != dataEnd) {
                // longer: debris after the data; shorter: a repaired file cut inside its header page
                truncateData(dataEnd);
            }
            forceData(true);
            // a new incarnation: FILE.idx names this checkpoint only, never that of a copy of the store (a backup
            // restored, a file moved over another) that reached the same sequence and data end by other operations
            Header h = header.nextCheckpoint(lastSeq, end);
            if (options.checkpoint()) {
                IndexFile.write(file, h, index, free, liveBytes, storedBytes, options.sideFileOpener(), this::noteFailedSync);
            } else {
                // an index loaded from FILE.idx may still read shards from its mapping: they move into memory first
                index.placeAll();
                IndexFile.delete(file);
            }
            writeHeader(h);
            forceData(false);
            header = h;
            dirtyOnDisk = false;
            checkpointSeq = lastSeq;
            if (end < dataEnd) {
                // only once the header names the shorter data: a header must never name more than the file holds
                dataEnd = end;
                truncateData(end);
            }
        } finally {
            rw.unlockWrite(stamp);
        }
        if (l != null) {
            log = null;
            l.journal().close();
            deleteSegments();
            redoBytes = 0;
        }
    }

    // ---------------------------------------------------------------- durability

    /**
     * Makes every operation so far durable: at {@link Durability#NONE} a checkpoint (fsync of the data file,
     * {@code FILE.idx}, header); otherwise a sync of the redo log. A checkpoint writes the whole index, 8 bytes a
     * record, so its cost grows with the store: a store that needs frequent durability should use
     * {@link Durability#BATCH}, whose sync costs what was written since the last one.
     */
    public void sync() {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            enter("sync");
            writer.lock();
            try {
                checkWritable();
                try {
                    Log l = log;
                    if (!redo) {
                        checkpoint();
                    } else if (l != null) {
                        l.journal().sync();
                    }
                } catch (RuntimeException | Error e) {
                    fail(e);
                    throw e;
                }
            } finally {
                writer.unlock();
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * @return the highest sequence known to be durable at the store's level: with a redo log, the last operation
     *         its group commit covers; at {@link Durability#NONE}, the last checkpoint's
     */
    public long durableSequence() {
        // the log first: a checkpoint sets checkpointSeq before it lets the log go, so a log found gone means the
        // sequence read after it is the new checkpoint's (read the other way round, a caller could see the old
        // checkpoint's sequence with no log, lower than what the log had reported to it)
        Log l = log;
        long cp = checkpointSeq;
        if (l == null) {
            return cp;
        }
        return Math.max(cp, l.base() + l.journal().durableSequence());
    }

    /**
     * Waits until operation {@code seq} is durable; at {@link Durability#NONE} it syncs instead.
     *
     * @param seq an operation's sequence
     * @throws IolabException when {@code seq} was not written yet, a sync failed, or the store was closed first
     */
    public void awaitDurable(long seq) {
        enter("wait for durability");
        if (seq > lastSeq) {
            throw new IolabException("cannot wait for operation " + seq + " of store " + file
                    + " to be durable: it was not written yet (last " + lastSeq + ")");
        }
        while (seq > durableSequence()) {
            if (!redo) {
                sync();
                return;
            }
            Log l = log;
            if (l == null) {
                // a checkpoint just covered it
                continue;
            }
            try {
                l.journal().awaitDurable(seq - l.base());
                return;
            } catch (IolabException e) {
                if (seq <= checkpointSeq || log != l) {
                    continue;
                }
                throw e;
            }
        }
    }

    // ---------------------------------------------------------------- compaction, stats

    /**
     * Rewrites the live records contiguously into {@code FILE.compact}, syncs it and renames it over the data file
     * (a crash leaves either the old file or the new one), then checkpoints. Readers and writers wait meanwhile.
     *
     * @return what it did
     */
    public CompactResult compact() {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            long t0 = System.nanoTime();
            enter("compact");
            writer.lock();
            try {
                checkWritable();
                try {
                    return doCompact(t0);
                } catch (RuntimeException | Error e) {
                    if (!copyFailed) {
                        fail(e);
                    }
                    throw e;
                } finally {
                    copyFailed = false;
                }
            } finally {
                writer.unlock();
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    private CompactResult doCompact(long t0) {
        // before the checkpoint, which merges the holes and cuts a free tail: that is part of what compaction saves
        long before = data.size();
        checkpoint();
        // the file itself, not a link to it: the copy goes beside it and replaces it, keeping the link
        Path real = FileModes.target(file);
        Path tmp = compactOf(real);
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            throw IolabException.io("delete the old compaction file", tmp, e);
        }
        long stamp = rw.writeLock();
        try {
            long[] offsets = new long[index.size()];
            int[] count = {0};
            index.forEachEntry(e -> offsets[count[0]++] = KeyIndex.offsetOf(e));
            int n = count[0];
            java.util.Arrays.sort(offsets, 0, n);
            KeyIndex fresh = new KeyIndex();
            long stored = 0;
            long live = 0;
            long end = Slots.DATA_START;
            Header h = new Header(0, lastSeq, 0, true, ThreadLocalRandom.current().nextLong(), false, false);
            Ctx ctx = contexts.get();
            SymbolTable table = null;
            try {
                if (options.compression()) {
                    table = train(offsets, n, ctx);
                }
                try (StorageFile out = options.opener().open(tmp, true)) {
                    try {
                        FileModes.copy(real, tmp); // the file's permissions and owner, not the umask's
                    } catch (IOException e) {
                        throw IolabException.io("give the compacted copy the data file's permissions", tmp, e);
                    }
                    out.truncate(0);
                    ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
                    long chunkAt = end;
                    for (int i = 0; i < n; i++) {
                        ctx.readSlotCopy(offsets[i]);
                        ctx.checkCrc(offsets[i]);
                        // compressed with the new table, or decoded: a new slot (same key and sequence); else the
                        // slot as it is, at its needed length
                        ByteBuffer b = table != null || ctx.foundPacked ? repack(table, offsets[i], ctx)
                                : relengthened(offsets[i], ctx);
                        int len = b.remaining();
                        if (chunk.position() + len > chunk.capacity()) {
                            out.write(chunkAt, chunk.flip());
                            chunkAt = end;
                            chunk.clear();
                        }
                        if (len > chunk.capacity()) {
                            out.write(end, b);
                            chunkAt = end + len;
                        } else {
                            chunk.put(b);
                        }
                        fresh.insert(Slots.hash(b, Slots.HEADER, ctx.foundKeyLen), end);
                        live += Slots.keyAndValue(b.getLong(0));
                        end += len;
                        stored += len;
                    }
                    if (chunk.position() > 0) {
                        out.write(chunkAt, chunk.flip());
                    }
                    h = new Header(0, lastSeq, end, true, h.incarnation(), false, table != null);
                    if (out.size() < end) {
                        out.truncate(end);
                    }
                    if (table != null) {
                        ByteBuffer t = ByteBuffer.allocate(SymbolTable.MAX_SERIALIZED).order(ByteOrder.LITTLE_ENDIAN);
                        out.write(Header.TABLE, t.limit(table.write(t, 0)).position(0));
                    }
                    out.write(h.position(), h.encode());
                    out.force(true);
                }
            } catch (RuntimeException | Error e) {
                // nothing of the store has changed yet: it stays open and usable, and the partial copy goes
                copyFailed = true;
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            // the new file is complete and synced: swap it in
            stopPrefaulter();
            map = null;
            data.close();
            try {
                Files.move(tmp, real, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw IolabException.io("rename the compacted file over", real, e);
            }
            syncDirectory(real);
            data = options.opener().open(file, true);
            remapped();
            index = fresh;
            free.clear();
            storedBytes = stored;
            liveBytes = live;
            symbols = table;
            dataEnd = end;
            header = h;
            if (options.checkpoint()) {
                IndexFile.write(file, h, index, free, liveBytes, storedBytes, options.sideFileOpener(), this::noteFailedSync);
            }
            return new CompactResult(n, before, data.size(), System.nanoTime() - t0);
        } finally {
            compactBuf = null;
            rw.unlockWrite(stamp);
        }
    }

    /**
     * Trains a compaction's symbol table on up to {@value #SAMPLE_RECORDS} evenly spaced live values (their first 4
     * KiB each, {@value #SAMPLE_BYTES} bytes in all).
     *
     * @param offsets the live records' offsets, {@code n} of them
     * @return the table, or null when the values would not get shorter
     */
    private SymbolTable train(long[] offsets, int n, Ctx ctx) {
        List<ByteBuffer> sample = new ArrayList<>();
        // spread over the whole file: as many values as fit the byte budget at the values' mean stored size
        long mean = Math.max(1, Math.min(4096, liveBytes / Math.max(1, n)));
        long fit = Math.max(1, Math.min(SAMPLE_RECORDS, SAMPLE_BYTES / mean));
        int step = (int) Math.max(1, n / fit);
        long bytes = 0;
        for (int i = 0; i < n && bytes < SAMPLE_BYTES; i += step) {
            ctx.readSlotCopy(offsets[i]);
            ctx.checkCrc(offsets[i]);
            byte[] v;
            if (ctx.foundPacked) {
                int m = ctx.unpack(offsets[i]);
                v = Arrays.copyOf(ctx.unpacker.plain(), Math.min(4096, m));
            } else {
                v = new byte[Math.min(4096, ctx.foundValueLen)];
                ctx.cur.get(Slots.HEADER + ctx.foundKeyLen, v);
            }
            sample.add(ByteBuffer.wrap(v));
            bytes += v.length;
        }
        return SymbolTable.train(sample);
    }

    /**
     * Gives the live slot {@code ctx} found (a copy in its buffer) the length its key and value need, dropping the
     * padding a hole taken whole left.
     *
     * @return the slot, position 0 to its length, in {@code ctx}'s buffer
     */
    private ByteBuffer relengthened(long offset, Ctx ctx) {
        int kv = ctx.foundKeyLen + ctx.foundValueLen;
        int len = Slots.needed(ctx.foundKeyLen, ctx.foundValueLen);
        ByteBuffer b = ctx.buf;
        if (len > b.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocateDirect(len).order(ByteOrder.LITTLE_ENDIAN);
            bigger.put(0, b, 0, Slots.HEADER + kv);
            b = bigger;
            ctx.buf = bigger;
        }
        b.limit(b.capacity());
        for (int p = Slots.HEADER + kv; p < len; p++) {
            b.put(p, (byte) 0);
        }
        if (!Slots.relength(b, 0, len, ctx.crc)) {
            throw new IolabException("compaction of " + file + ": the record at " + offset + " does not fit a slot of "
                    + len + " bytes (internal error); the store is unchanged");
        }
        return b.limit(len).position(0);
    }

    /**
     * Builds the compacted copy of the live slot {@code ctx} found: its value decoded, then compressed with
     * {@code table} when that makes it shorter.
     *
     * @return the new slot, position 0 to its length, in a buffer of the compaction's
     */
    private ByteBuffer repack(SymbolTable table, long offset, Ctx ctx) {
        ByteBuffer slot = ctx.cur;
        int k = ctx.foundKeyLen;
        ByteBuffer raw;
        if (ctx.foundPacked) {
            int m = ctx.unpack(offset);
            raw = ByteBuffer.wrap(ctx.unpacker.plain(), 0, m).slice();
        } else {
            raw = slot.slice(Slots.HEADER + k, ctx.foundValueLen);
        }
        ByteBuffer packed = pack(table, raw);
        ByteBuffer value = packed == null ? raw : packed;
        int len = Slots.needed(k, value.remaining());
        if (compactBuf == null || compactBuf.capacity() < len) {
            compactBuf = ByteBuffer.allocateDirect(Math.max(len, 4096)).order(ByteOrder.LITTLE_ENDIAN);
        }
        long w0 = slot.getLong(0);
        Slots.writeLive(compactBuf.clear(), 0, len, Slots.seq(w0, slot.getInt(8)), slot.slice(Slots.HEADER, k), value,
                packed != null, ctx.crc);
        return compactBuf.limit(len).position(0);
    }

    /** @return a snapshot of the store's space use and sequences */
    public StoreStats stats() {
        enter("read the statistics");
        // the writer's lock too: a put takes its hole from the free space before the read/write lock, so under that
        // lock alone a snapshot could count the hole neither as free nor as stored
        writer.lock();
        try {
            long stamp = rw.readLock();
            try {
                checkOpen();
                long size = data.size();
                long freeBytes = free.bytes() + pending.bytes();
                return new StoreStats(index.size(), liveBytes, storedBytes, freeBytes, free.count() + pending.size(),
                        pending.size(), dataEnd, size, size == 0 ? 0 : (double) freeBytes / size, lastSeq,
                        durableSequence(), checkpointSeq, redoBytes, symbols == null ? 0 : symbols.symbols());
            } finally {
                rw.unlockRead(stamp);
            }
        } finally {
            writer.unlock();
        }
    }

    /** @return the data file */
    public Path file() {
        return file;
    }

    /** @return the options it was opened with */
    public StoreOptions options() {
        return options;
    }

    /**
     * The public entry points that do I/O run with a pending interrupt cleared, then give it back here, as the
     * journal's do: a {@code FileChannel} call entered with an interrupt pending closes the file for every thread, so a
     * cancelled task that kept its interrupt status (or a reader thread's get) failed the store until it was opened
     * again, and its close threw (found by a review of the library's API). An interrupt that arrives while a call is
     * inside a file operation closes the channel, which the backends open again ({@link org.iolab.storage.Backend});
     * only a sync that the syncing thread's own interrupt stops fails (its result is unknown).
     *
     * @param interrupted what {@code Thread.interrupted()} returned on entry
     */
    private static void restoreInterrupt(boolean interrupted) {
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- verify, repair

    /**
     * Checks a store without changing anything, under readers' shared lock (as {@link #openReadOnly}): both header
     * copies, the index checkpoint (its own checks, and after a clean stop that its entries and holes agree with the
     * records and free slots of the data file, which an open does not check), the redo log, and every slot's shape and
     * CRC; after an unclean stop, also what the
     * next open checks after its replay: that every entry of the index the checkpoint and the redo log give points at
     * a live record of its key (not at a hole or another key's record, which shows that the redo log lost
     * operations).
     *
     * @param file the data file
     * @return every problem found
     * @throws StoreLockedException when a writer has the store open (its changes would read as damage)
     */
    public static StoreReport verify(Path file) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            return Verifier.verify(file.toAbsolutePath());
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Repairs a store: replays its redo log (up to its first damage, which is reported), then rebuilds the index by
     * a scan that drops only damaged records (their bytes become holes) and reports them, and leaves a clean,
     * checkpointed store. When the redo log lost operations the data file holds (see {@link #verify}), the replay
     * skips every write whose place a later operation reused and the scan keeps every record, the newest of each
     * key, and the loss is reported. Takes the writer's lock.
     *
     * @param file the data file
     * @return the problems found and dropped
     * @throws StoreLockedException when a writer has the store open
     */
    public static StoreReport repair(Path file) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            Path f = file.toAbsolutePath();
            checkRegular(f);
            if (!Files.exists(f)) {
                throw new IolabException("no store file " + f + ": give the data file a store was opened with");
            }
            FileLock fileLock = acquire(f);
            List<StoreReport.Problem> problems = new ArrayList<>();
            try (Store s = new Store(f, StoreOptions.defaults().withDurability(Durability.NONE), null, problems)) {
                return new StoreReport(f, s.index.size(), s.free.count(), s.dataEnd, 0, problems);
            } finally {
                FileLocks.release(fileLock);
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    // ---------------------------------------------------------------- closing

    /** Checkpoints (unless the store failed), empties the redo log and releases the files and the lock. Idempotent. */
    @Override
    public void close() {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            // a thread's context refers to this store, which refers to the thread-local that keys it: left in the
            // thread's map, it would keep the closed store and its buffers reachable for as long as the thread lives
            enter("close");
            contexts.remove();
            writer.lock();
            try {
                if (closed) {
                    return;
                }
                try {
                    if (failure == null && !readOnly) {
                        checkpoint();
                    }
                } finally {
                    long stamp = rw.writeLock();
                    try {
                        closed = true;
                        stopPrefaulter();
                        map = null;
                    } finally {
                        rw.unlockWrite(stamp);
                    }
                    try {
                        Log l = log;
                        if (l != null) {
                            l.journal().close();
                        }
                    } finally {
                        try {
                            data.close();
                        } finally {
                            if (lock != null) {
                                FileLocks.release(lock);
                            }
                            if (shared != null) {
                                shared.release(false);
                            }
                        }
                    }
                }
            } finally {
                writer.unlock();
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Tests: simulates the process dying: releases the files and the lock without a checkpoint or a sync (the
     * files should already be dead or cleanly closed by the test's fault injector).
     */
    void abandon() {
        contexts.remove();
        closed = true;
        stopPrefaulter();
        Log l = log;
        if (l != null) {
            try {
                l.journal().close();
            } catch (RuntimeException ignored) {
                // the power is gone
            }
        }
        try {
            data.close();
        } catch (RuntimeException ignored) {
            // the power is gone
        }
        if (lock != null) {
            FileLocks.release(lock);
        }
    }

    /** {@code data.force(metadata)}, leaving the failed-sync note when it fails ({@link #noteFailedSync}). */
    private void forceData(boolean metadata) {
        forceData(() -> data.force(metadata));
    }

    /** Runs {@code sync}, a sync of the data file, leaving the failed-sync note when it fails. */
    private void forceData(Runnable sync) {
        try {
            sync.run();
        } catch (RuntimeException | Error e) {
            noteFailedSync(e);
            throw e;
        }
    }

    /**
     * After a sync of the data file or of {@code FILE.idx} that did not complete (an I/O error, or an interrupt or
     * close during it): leaves {@code FILE.failed}, so that the next writable open rewrites the data file into new
     * blocks before it reads it ({@link #rewriteAfterFailedSync}). The index checkpoint's too: Linux reports a failed
     * write-back to the sync of whichever file's pages failed, and in the rig ({@code scripts/eio-rig.sh}) a sync of
     * the data file returned success, the sync of {@code FILE.idx.tmp} that followed failed, and the data file's last
     * records were not on the device after a remount. It names the first operation the last checkpoint does not
     * cover. A note that cannot be written is added to {@code e}.
     */
    private void noteFailedSync(Throwable e) {
        if (readOnly || syncFailureNoted || !SyncFailureNote.writeBackFailed(e)) {
            return;
        }
        try {
            SyncFailureNote.record(failedOf(file), checkpointSeq + 1);
            syncFailureNoted = true; // a note that could not be written is tried again at the next failure
        } catch (RuntimeException x) {
            e.addSuppressed(x);
        }
    }

    private void fail(Throwable e) {
        if (failure == null) {
            failure = e;
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IolabException("store " + file + " is closed; open it again");
        }
    }

    private void checkWritable() {
        checkOpen();
        if (readOnly) {
            throw new IolabException("store " + file + " is open read-only; open it with Store.open to write");
        }
        Throwable f = failure;
        if (f != null) {
            // the cause's own message: its class name tells a user nothing (a full disk read "...NoSpaceException: ...")
            String why = f instanceof IolabException ? f.getMessage() : f.toString();
            throw new IolabException("store " + file + " can no longer write, as a write or sync failed: " + why
                    + "; close it and open it again (or run the command again) to recover what is durable", f);
        }
        if (lastSeq >= Slots.MAX_SEQ) {
            throw new IolabException("store " + file + " has used all 2^48 operation sequences its format holds;"
                    + " copy its records into a new store (dump, then load)");
        }
    }

    private int checkKey(ByteBuffer key) {
        if (key == null) {
            throw new IolabException("null key for store " + file + ": keys are 0 to 65,535 bytes");
        }
        int k = key.remaining();
        if (k > Slots.MAX_KEY) {
            throw new IolabException("key of " + k + " bytes is too long for store " + file
                    + ": keys are 0 to 65,535 bytes");
        }
        return k;
    }

    /**
     * @param op the operation about to run, for the message
     * @return this thread's read context
     * @throws IolabException when this thread is inside one of this store's visitors: the visitor runs under the
     *         store's read lock (a write would wait for it forever, and a read could wait behind a waiting writer) and
     *         sees the context's buffers (a nested read would overwrite the bytes it is reading)
     */
    private static void checkArguments(Path file, StoreOptions options) {
        if (file == null || options == null) {
            throw new IolabException("a store needs a file and options; " + (file == null ? "the file" : "the options")
                    + " argument is null (StoreOptions.defaults() gives the defaults)");
        }
        checkRegular(file);
    }

    /**
     * Refuses, before any lock file is made beside it, a path that exists and is not a regular file: a device, a FIFO
     * or a socket ({@code /dev/null} got a {@code /dev/null.lock}, then an fallocate error).
     */
    static void checkRegular(Path file) {
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new IolabException("store file " + file + " is " + (Files.isDirectory(file) ? "a directory"
                    : "not a regular file (a device, FIFO or socket)") + ": give the path of a store's data file");
        }
    }

    private Ctx enter(String op) {
        Ctx c = contexts.get();
        if (c.visiting > 0) {
            throw new IolabException("cannot " + op + " in store " + file + " from inside one of its visitors (a scan,"
                    + " or a get with a visitor): the visitor runs under the store's read lock and reads the store's"
                    + " buffers; collect what you need in the visitor and " + op + " after it returns");
        }
        return c;
    }

    private ByteBuffer wrap(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public String toString() {
        return "Store[" + file + ", " + index.size() + " records, last " + lastSeq + ", " + options + "]";
    }
}
