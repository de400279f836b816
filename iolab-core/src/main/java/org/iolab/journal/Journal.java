package org.iolab.journal;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.os.Joins;
import org.iolab.os.Prefaulter;
import org.iolab.os.Prefault;
import org.iolab.storage.Backend;
import org.iolab.storage.Bytes;
import org.iolab.storage.Durability;
import org.iolab.storage.FileLocks;
import org.iolab.storage.FileModes;
import org.iolab.storage.StorageFile;
import org.iolab.storage.SyncFailureNote;

/**
 * A crash-safe, append-only log of records in a directory: one writer, any number of concurrent readers in
 * the same process.
 *
 * <h2>Format (version 1, all integers little-endian)</h2>
 * The directory holds segment files named {@code <first sequence, 20 digits>.seg} (e.g.
 * {@code 00000000000000000000.seg}) and a lock file {@code journal.lock}. Each segment is {@code capacity}
 * bytes (preallocated, or grown by writes with {@link Preallocation#NONE}) and starts with a 64-byte header:
 * <pre>
 * offset  size  field
 *      0     8  magic "IOLABJNL" (0x4C4E4A42414C4F49 as a little-endian long)
 *      8     4  format version (1)
 *     12     4  header size (64)
 *     16     8  first sequence (equals the file name)
 *     24     8  segment capacity in bytes (a multiple of 8)
 *     32     4  CRC32C of bytes 0..31
 *     36     4  start marker: the CRC32C of "IOLABSTART" and the first sequence (0 stored as 1), written when
 *               {@link #deleteBefore} or a repair makes this segment the journal's first; or gap marker: the CRC32C of
 *               "IOLABGAP", the first sequence and the sequence where the previous segment's records end (0 stored
 *               as 1), written when a repair cut damaged records out of the previous segment, so readers go on from
 *               that segment's end to this one's first record; zero otherwise (not covered by the header CRC)
 *     40     8  seal marker: "SEALEDOK" (0x4B4F44454C414553) XOR the first sequence, written once the whole
 *               segment is synced; zero until then (not covered by the CRC)
 *     48     8  synced mark: an offset below which every record was synced, written after a sync covering it
 *               completed (once {@value #MARK_STEP} bytes, or a quarter of the segment, or {@value #MARK_MILLIS} ms
 *               passed since the last mark, and at close), so it never claims a record that was not durable;
 *               zero until then (not covered by the header CRC)
 *     56     4  CRC32C of bytes 48..55 and the first sequence (8 bytes, little-endian): a mark whose CRC fails is
 *               no mark
 *     60     4  zero
 * </pre>
 * Records follow from offset 64, each starting at a multiple of 8:
 * <pre>
 * offset  size  field
 *      0     4  length = 16 + payload length (never 0, so a 0 here marks the end of the data)
 *      4     4  CRC32C of bytes 8 .. length-1 (the sequence and the payload)
 *      8     8  sequence (the previous record's + 1; the segment's first sequence for its first record)
 *     16     n  payload
 *   16+n     p  zero padding to the next multiple of 8
 * </pre>
 * The data of a segment ends at a zero length or where fewer than 16 bytes are left; the rest of the segment
 * is zeros. A record that does not fit in the current segment starts a new one (the segment is rolled); a
 * record whose frame cannot fit even in an empty segment ({@link JournalOptions#maxRecordSize()}, the segment
 * size minus 80 bytes, and at most {@code Integer.MAX_VALUE - 64} bytes whatever the segment size) is <b>rejected</b> with an {@link IolabException} rather than split, so a record is
 * always one contiguous, individually checked frame.
 *
 * <h2>Rolling and sealing</h2>
 * A roll creates the next segment (preallocated, header written) and hands the full one to a background
 * thread that seals it: syncs it, syncs the new segment's header and the directory, then writes the seal marker
 * into the full segment's header and syncs that. The appender does not wait for any of it; the next roll,
 * {@link #sync()} and {@link #close()} do. So at any moment only the last two segments can be unsealed, and a
 * record is reported durable only once every segment up to it is sealed.
 *
 * <h2>Durability</h2>
 * {@link Durability#NONE}: {@link #durableSequence()} advances only on {@link #sync()}, a segment's seal and
 * {@link #close()}; frames written through the file descriptor are handed to the kernel's write-back one
 * {@value #WRITE_BEHIND_STEP}-byte step behind the appender (a hint that makes nothing durable, so a later sync has
 * less to write). {@link Durability#BATCH}: group commit: a background thread syncs at least every
 * {@link JournalOptions#batchInterval()}, and at once when an appender finds {@link JournalOptions#batchBytes()}
 * appended since the last sync (the appender wakes it and goes on: appends overlap the device's work); an
 * appender that finds {@value #BACKLOG_BATCHES} batches not yet synced syncs itself, which bounds how far appends
 * run ahead of the device; {@link #awaitDurable(long)} returns once a sync covers the record.
 * {@link Durability#ALWAYS}: {@code append} returns after the record is synced.
 *
 * <h2>Recovery</h2>
 * {@link #open} checks every segment header and scans the last segment: the data ends at the first record
 * with a zero or impossible length, a failed CRC or an unexpected sequence (a torn or partly written tail:
 * never acknowledged as durable); everything after it is zeroed, so new appends overwrite it. A last segment
 * whose header was never completely written (its creation was interrupted) and that holds no data is deleted.
 * When the segment before the last has no seal marker (the crash came while it was being sealed), it is
 * scanned too: if its data is torn, or does not end where the last segment begins, it is cut at the damage
 * and the last segment is deleted (none of their records was acknowledged as durable, since durability waits
 * for the seal); the last segment is also deleted when its header is damaged. Then that segment is sealed.
 * A last segment that carries its seal marker (its successor was lost, or a repair cut the journal there) had
 * every record synced before the seal: a record in it that fails its check is damage, not a torn tail. So is a
 * record below the synced mark of the last segment (or of an unsealed one before it), and data that ends there:
 * those records were durable, so {@code open} refuses the journal rather than cut them, and {@code repair} cuts
 * there. Only records after the mark (those of the last second or 16 MiB, or quarter of a smaller segment, and
 * any the crash tore) are taken for a torn tail.
 * The journal begins at its last segment that is a start: the segment of sequence 0, or one carrying the start
 * marker. Segments before it are what a {@link #deleteBefore} interrupted by a crash had still to delete, and
 * {@code open} deletes them. When no segment is a start (the first one begins after 0 without the marker), the
 * segments before it are missing, deleted by hand or lost, and {@code open} refuses the journal: {@code repair}
 * marks the first segment, accepting the loss. (A journal that an iolab older than the marker trimmed needs that
 * repair once.)
 * A sync that fails (an I/O error, or an interrupt that hides the fsync's result) fails the journal, and the
 * writer leaves a note, {@code journal.failed}, naming the first record no completed sync covers: Linux marks pages
 * whose write-back failed clean, so their records would read back in this boot without being on the device, and a
 * later writer's synced appends would follow a hole after a reboot. So does an open whose own sync of what a killed
 * writer left fails. The next {@code open} cuts the journal before that record: it deletes the later segments and
 * writes the records it keeps of the last segment (and of an unsealed one before it) into new files, since ext4 can
 * leave the blocks of a failed write-back unwritten; then it deletes the note. An open that cannot apply the note
 * (damage before that record) refuses the journal and keeps the note for the open after a {@code repair};
 * {@code verify} reports it. Until the cut, readers of the failed journal and read-only opens still see those
 * records; a read-only journal open across the cut keeps reading the replaced file: open it again.
 * Damage anywhere else (a sealed segment's header, records or its sequence continuity) is never skipped:
 * {@code open} or the read that reaches it throws {@link JournalCorruptedException} naming the file and
 * offset. A length is always checked against the bytes left in the segment before it is used, so a corrupt
 * length cannot cause a large allocation, a hang or an out-of-bounds read. {@link #verify(Path)} lists every
 * problem without changing anything; {@link #repair(Path)} mends what loses nothing (a missing start, a header over
 * intact records) and cuts the other damage out, keeping what it cuts in {@code *.cut} files: a damaged segment is
 * cut at its first damage, the intact records that end it are kept in a segment of their own, and the segments after
 * it stay, the gap between them marked; a cut of the last segment leaves the journal going on past every record it
 * can have held, so no sequence is handed out twice. (An open
 * checks only the last segment, so damage in a sealed one is found by the read that reaches it or by verify, after
 * the writer may have appended and acknowledged more records: the repair keeps them.)
 *
 * <h2>Concurrency</h2>
 * One writer per directory: {@link #open} takes an exclusive {@code FileChannel.tryLock} on
 * {@code journal.lock}, so a second writer, in this process or another, gets {@link JournalLockedException}.
 * Appends are serialized; any number of {@link #reader readers}, {@link #read visitors} and
 * {@link #tailer tailers} may run in other threads: each has its own files and sees the records up to the
 * writer's last completed append (published through a volatile field, never a partly written record).
 * {@link #openReadOnly} reads and tails a journal that a writer in another process appends to.
 */
public final class Journal implements AutoCloseable {
    private static final String LOCK_FILE = "journal.lock";
    private static final int ZERO_CHUNK = 1 << 20;
    /**
     * Frames at least this long are written through the file descriptor rather than copied into the mapping
     * ({@link StorageFile#writeThrough}): past a few pages, a {@code pwrite} costs less than the page faults a copy
     * into fresh pages of the mapping takes (measured with {@code JournalBulkBenchmark}, see docs/RESULTS.md). At
     * every durability level the first such frame turns the segment's prefaulter to populating pages for reading only
     * ({@link Prefault#populateRead}), and a segment rolled for one starts it so: pages it mapped writable would
     * each cost a TLB shootdown when written back (64 MiB of 64 KiB records appended then synced: 68-71 ms, against
     * 35 ms), while pages it reads in come as large folios that the pwrite fills and a reader later maps in large
     * steps (a replay of them: 8.3-9.5 ms against 10.8-11.7 ms when nothing populates them).
     */
    static final int WRITE_THROUGH_MIN = 16 << 10;
    /**
     * At BATCH an appender that finds this many batches ({@link JournalOptions#batchBytes()}) not yet synced syncs
     * itself instead of leaving it to the flusher: the bound on how far appends run ahead of the device.
     */
    static final int BACKLOG_BATCHES = 8;
    /**
     * At NONE, bytes written through the file descriptor are handed to the device's write-back
     * ({@link StorageFile#writeBehind}) in steps of this size, one step behind the appender, so that a later
     * {@link #sync()} finds them written (64 MiB of 64 KiB records, appended then synced: 54–58 ms without it,
     * see docs/RESULTS.md). The appender itself asks, once per step: the call returns once the pages are queued,
     * so it can wait when the device's queue is full.
     */
    static final long WRITE_BEHIND_STEP = 1 << 20;
    /**
     * How far ahead of the appender a segment's pages are faulted in ({@link Prefaulter}; up to a 1 MiB step more).
     * The zeros it dirties there are not written by a sync, which covers only the range up to the tip
     * ({@link #syncedTo}); only the kernel's own write-back may write them, once.
     */
    private static final long PREFAULT_AHEAD = 8L << 20;
    /** How often, at most, a read-only journal's refresh asks whether the followed file was replaced. */
    private static final long IDENTITY_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * A sync moves the active segment's synced mark (header bytes 48..63) when the records synced since the mark
     * reach this many bytes (or a quarter of a segment, if less), or the mark is {@link #MARK_MILLIS} old: each move
     * dirties the header's page, which the next sync writes too (a second block on the device), so not at every sync
     * of an ALWAYS journal.
     */
    static final long MARK_STEP = 16 << 20;
    /** See {@link #MARK_STEP}. */
    static final long MARK_MILLIS = 1000;
    private static final VarHandle INT_LE = MethodHandles.byteBufferViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle TIP;
    private static final VarHandle APPENDED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TIP = lookup.findVarHandle(Journal.class, "tip", Tip.class);
            APPENDED = lookup.findVarHandle(Journal.class, "appendedBytes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Path dir;
    private final JournalOptions options;
    private final StorageOpener opener;
    private final FileLock lock;
    /**
     * The segments, oldest first. Replaced whole only by a read-only journal's {@link #resync()} (after
     * {@link #epoch}); a writer's list is the same object for its life.
     */
    private volatile CopyOnWriteArrayList<SegmentRef> segments;
    /**
     * Read-only journals: how many times {@link #resync()} replaced the view of the files (a writer's open rewrote a
     * segment into a new file after a failed sync, or deleted the segment being followed). Written before the new
     * {@link #segments} and {@link #tip}: a reader that sees either sees it ({@link Cursor}).
     */
    private volatile long epoch;
    /** Read-only journals: the cuts {@link #resync()} found, oldest first. */
    private final CopyOnWriteArrayList<Cut> cuts = new CopyOnWriteArrayList<>();
    private final long maxPayload;

    private final AppendLock writeLock = new AppendLock();
    private final ReentrantLock syncLock = new ReentrantLock();
    private final ReentrantLock durableLock = new ReentrantLock();
    private final Condition durableChanged = durableLock.newCondition();
    private final ReentrantLock appendLock = new ReentrantLock();
    private final Condition appended = appendLock.newCondition();
    private final AtomicInteger tailWaiters = new AtomicInteger();
    private final CRC32C crc = new CRC32C();

    /** Guarded by writeLock (writes) and syncLock (replacement). */
    private StorageFile active;
    private volatile Tip tip;
    private volatile long durable;
    private volatile long appendedBytes;
    private volatile long syncedBytes;
    private volatile boolean closed;
    private volatile Throwable failure;
    /** Whether a failed sync's note ({@link FailedSync}) was written (or tried): once per journal. */
    private final AtomicBoolean syncFailureNoted = new AtomicBoolean();
    private ByteBuffer frame = ByteBuffer.allocateDirect(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    /**
     * The active segment's mapping (little-endian) when the backend maps files and the segment is under 2 GiB:
     * appends then format their frame in place. Guarded by writeLock (replaced under syncLock too).
     */
    private ByteBuffer mapped;
    /** The memory behind {@link #mapped}, or null; guarded like it. */
    private MemorySegment mappedSegment;
    /**
     * Offset (whole pages) in the active segment below which every byte is durable and, for a mapping, the appender's
     * page table entries are dropped: a sync releases and makes durable {@code [syncedTo, tip)}
     * ({@link StorageFile#forceRange}), not the whole segment, so the pages a prefaulter dirtied ahead of the tip
     * (zeros) are not written by every sync. 0 for a segment just made active; guarded by syncLock.
     */
    private long syncedTo;
    /** The synced mark written into the active segment's header (an offset); guarded by syncLock. */
    private long markedTo;
    /** When {@link #markedTo} was written ({@link System#nanoTime}); guarded by syncLock. */
    private long markedAt;
    /** The mark was written since the last sync, which did not cover the header: the next sync does (syncLock). */
    private boolean markPending;
    /** The sequence's 8 bytes, little-endian, for the CRC. */
    private final ByteBuffer seqBytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    /** A write-through frame's header, then zeros for its padding (at most 7 bytes). */
    private final ByteBuffer throughHeader = ByteBuffer.allocate(Format.FRAME_HEADER + 8).order(ByteOrder.LITTLE_ENDIAN);
    /** The thread sealing the previous segment, or null; set and joined under syncLock. */
    private volatile Thread sealer;
    /** Faults in the active segment's pages ahead of the appender, or null; replaced under syncLock. */
    private Prefaulter prefaulter;
    /**
     * Held by a sync while it releases and writes the pages up to the tip, by a write-behind (if free) while it starts
     * one, and by the prefaulter around each step of populating the pages near the tip again after a sync (it reads
     * the tip under it): so it never dirties again a page behind where the next sync starts or one a write-behind
     * cleaned ({@link Prefaulter#guardedBy}).
     */
    private final ReentrantLock prefaultGuard = new ReentrantLock();
    /**
     * At NONE, the offset in the active segment up to which {@link StorageFile#writeBehind} was asked for (or which
     * frames stored through the mapping passed); guarded by writeLock.
     */
    private long behindFrom;
    private final Thread flusher;
    /** Set by an appender that woke the flusher for the byte threshold; cleared by the flusher before it syncs. */
    private volatile boolean flushRequested;

    private final boolean readOnly;
    private final Object refreshLock = new Object();
    /** Read-only journals: {@link #refresh()}'s cursor on the tip's segment (guarded by {@link #refreshLock}). */
    private SegmentCursor refreshCursor;
    /** Read-only journals: since when {@link #resync()} has failed, or 0 (refreshLock). */
    private long resyncFailingSince;
    /**
     * Read-only journals: damage {@link #refresh()} found where the readable records of the tip's segment end (records
     * below its synced mark that fail their check), or null. The records before it are read; a reader that reaches it
     * is told ({@link #damageAfter}), as at damage in a sealed segment. Cleared when the files are read again after a
     * writer's cut ({@link #resync}).
     */
    private volatile Damage damageAtTip;

    /** Where a read-only journal's readable records end, and why. */
    private record Damage(Path file, long offset, String what) {
    }

    /** Read-only journals: when {@link #refresh()} last compared the followed file's identity (refreshLock). */
    private long identityCheckedAt = System.nanoTime() - IDENTITY_CHECK_NANOS;

    private Journal(Path dir, JournalOptions options, FileLock lock) {
        this.readOnly = lock == null;
        this.dir = dir;
        this.options = options;
        this.opener = options.opener();
        this.lock = lock;
        this.segments = new CopyOnWriteArrayList<>();
        this.maxPayload = options.maxRecordSize();
        try {
            if (readOnly) {
                tip = attach(segments);
                durable = segments.getFirst().firstSeq - 1; // a reader cannot know what the writer synced
                refresh();
            } else {
                recover();
            }
        } catch (RuntimeException | Error e) {
            stop(prefaulter);
            closeRefreshCursor();
            if (active != null) {
                try {
                    active.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        if (options.durability() == Durability.BATCH && !readOnly) {
            flusher = Thread.ofPlatform().daemon().name("iolab-journal-flusher " + dir).unstarted(this::flushLoop);
            flusher.start();
        } else {
            flusher = null;
        }
    }

    /**
     * Opens (creating if needed) the journal in {@code dir} for writing, recovering a torn tail.
     *
     * @param dir the journal directory (created when missing)
     * @param options backend, durability, segment size, batch thresholds and preallocation
     * @return the open journal; close it
     * @throws JournalLockedException when another writer holds the journal
     * @throws JournalCorruptedException when a segment other than the last one's tail is damaged
     */
    public static Journal open(Path dir, JournalOptions options) {
        given(dir, "journal directory");
        given(options, "journal options");
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            Path absolute = dir.toAbsolutePath();
            Path existing = absolute;
            while (existing != null && !Files.isDirectory(existing)) {
                existing = existing.getParent();
            }
            try {
                Files.createDirectories(dir);
                // the new folders' entries reach the device before any record is acknowledged: each created folder is
                // synced with the folder that holds it (a store's redo log is such a folder, made at its first write)
                for (Path p = absolute; existing != null && !p.equals(existing); p = p.getParent()) {
                    options.opener().syncDirectory(p.getParent());
                }
            } catch (IOException e) {
                throw IolabException.io("create the journal directory", dir, e);
            }
            FileLock fileLock = acquire(dir);
            try {
                return new Journal(dir, options, fileLock);
            } catch (RuntimeException | Error e) {
                FileLocks.release(fileLock);
                throw e;
            }
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Opens the journal in {@code dir} for reading only, without the writer's lock, so it works beside a
     * writer in another process: readers and tailers see the records that writer appends (a tailer polls the
     * files about every millisecond). Nothing is modified: a torn tail is not truncated, just not read.
     * {@code append}, {@code sync} and {@code awaitDurable} throw. Such a reader sees records as soon as they are
     * appended, before they are durable: after a crash of the writer's machine, the records written after its last
     * sync may be gone, and the sequences they had are then appended again with other records.
     *
     * @param dir the journal directory
     * @param options the backend used to read (the other options are ignored)
     * @return the read-only journal; close it
     * @throws JournalCorruptedException when a segment header other than the last one's is damaged. Records below the
     *     last segment's synced mark that fail their check do not fail the open: the records before them are read,
     *     and a reader (or tailer) that reaches them gets this exception, naming the file and offset, as at damage in
     *     a sealed segment
     */
    public static Journal openReadOnly(Path dir, JournalOptions options) {
        given(dir, "journal directory");
        given(options, "journal options");
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            if (!Files.isDirectory(dir)) {
                throw new IolabException("no journal directory " + dir
                        + ": give the directory a journal was opened in");
            }
            return new Journal(dir, options, null);
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /** @return true when opened with {@link #openReadOnly(Path, JournalOptions)} */
    public boolean isReadOnly() {
        return readOnly;
    }

    /**
     * Read-only opens (and {@link #resync()}): reads the segments with valid headers into {@code segments} (from the
     * journal's start on).
     *
     * @return the tip at the start of the last segment ({@link #refresh()} finds its records)
     */
    private Tip attach(CopyOnWriteArrayList<SegmentRef> segments) {
        List<Path> files = listSegments(dir);
        boolean previousSealed = true;
        JournalCorruptedException damaged = null;
        int damagedAt = -1; // how many valid segments come before the first damaged one
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            SegmentRef ref = readHeader(file);
            if (ref == null && !Files.exists(file)) {
                continue; // deleted since the listing: the writer's deleteBefore (or its recovery, of a new last one)
            }
            if (ref == null) {
                String problem;
                boolean data;
                try (StorageFile f = opener.open(file, false)) {
                    ByteBuffer header = Format.readHeader(f);
                    problem = header == null ? "the file is shorter than a segment header"
                            : Format.checkHeader(header, Format.parseName(file));
                    data = !Verifier.holdsNothing(f);
                }
                // the last segment: being created (no data yet), or after an unsealed one (a writer's open
                // deletes it); records under a damaged header anywhere else are corruption, as for open, unless
                // they lie before the journal's start (known once every header is read)
                if (i == files.size() - 1 && (!data || !previousSealed)) {
                    break;
                }
                if (damaged == null) {
                    damaged = new JournalCorruptedException(file, 0, problem);
                    damagedAt = segments.size();
                }
                continue;
            }
            previousSealed = ref.sealedOnDisk;
            segments.add(ref);
        }
        int listed = segments.size();
        pruneDeleted(segments);
        if (segments.isEmpty() && damaged != null) {
            throw damaged; // records under a damaged header, and no segment else
        }
        if (segments.isEmpty()) {
            throw new IolabException("no journal segments in " + dir + " (no valid *.seg file):"
                    + " open it for writing first");
        }
        // the journal begins at the last start: the segments before it are a deleteBefore's, deleted or still to
        // be (its marker is written before it deletes any, so a listing without the old start finds the new one)
        int s = startIndex(segments.toArray(SegmentRef[]::new));
        if (s < 0) {
            // the headers may have been read before a writer's deleteBefore marked its new first segment, and the old
            // start deleted since: read them again (the marker is synced before any segment goes)
            pruneDeleted(segments);
            for (SegmentRef r : segments) {
                SegmentRef fresh = readHeader(r.path);
                r.start = fresh != null && fresh.start;
                r.marker = fresh != null ? fresh.marker : r.marker;
            }
            s = startIndex(segments.toArray(SegmentRef[]::new));
        }
        int pruned = listed - segments.size();
        if (s < 0 && damaged != null && damagedAt <= pruned) {
            throw damaged; // the first file of the journal is the damaged one: that, not the segments after it
        }
        if (s < 0) {
            SegmentRef first = segments.getFirst();
            try (StorageFile f = opener.open(first.path, false)) {
                throw JournalCorruptedException.missingStart(first.path, first.firstSeq, Format.readHeader(f));
            }
        }
        if (damaged != null && damagedAt - pruned > s) {
            throw damaged; // after the start: corruption, as for open (before it: a deletion's leftover)
        }
        segments.subList(0, s).clear();
        SegmentRef last = segments.getLast();
        return new Tip(last, Format.HEADER_SIZE, last.firstSeq);
    }

    /** @return the segment if its header is valid, else null (also while a writer is still creating it) */
    private SegmentRef readHeader(Path file) {
        // asked before the open: a file replaced in between then reads as replaced later (a spare resync), never
        // the other way round
        Object key = readOnly ? fileKey(file) : null;
        StorageFile f;
        try {
            f = opener.open(file, false);
        } catch (IolabException e) {
            return null;
        }
        try (f) {
            ByteBuffer header = Format.readHeader(f);
            long nameSeq = Format.parseName(file);
            if (header == null || Format.checkHeader(header, nameSeq) != null) {
                return null;
            }
            SegmentRef ref = new SegmentRef(nameSeq, file, header.getLong(24));
            ref.start = Format.isStart(header, nameSeq);
            ref.marker = header.getInt(Format.START_OFFSET);
            ref.sealedOnDisk = Format.sealStarted(header);
            ref.syncedMark = Format.syncedMark(header, nameSeq, ref.capacity);
            ref.fileKey = key;
            return ref;
        }
    }

    /** @return the identity of the file at {@code path} (device and inode), or null when it is missing */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /** @return whether the file at {@code ref}'s path is no longer the one its header was read from (or is gone) */
    static boolean replaced(SegmentRef ref) {
        return ref.fileKey != null && !ref.fileKey.equals(fileKey(ref.path));
    }

    /** @return whether another file than the one {@code ref}'s header was read from is at its path (not: none is) */
    static boolean replacedByAnother(SegmentRef ref) {
        Object now = ref.fileKey == null ? null : fileKey(ref.path);
        return now != null && !now.equals(ref.fileKey);
    }

    /**
     * @return whether the followed segment {@code tip}, or the one before it, was replaced by another file: a writer's
     *     cut writes the records it keeps of both into new files
     */
    private boolean cutSuspected(SegmentRef tip) {
        // the tip is the view's last segment: the one before it is next to last (no walk of a long list every ms)
        List<SegmentRef> view = segments;
        int n = view.size();
        return replacedByAnother(tip) || n >= 2 && view.get(n - 1) == tip && replacedByAnother(view.get(n - 2));
    }

    /**
     * @return whether the old file of {@code ref}, gone from the folder, had its seal begun, as far as the refresh's
     *     cursor (still holding it open) can tell; true when it cannot tell
     */
    private boolean oldFileSealed(SegmentRef ref) {
        SegmentCursor c = refreshCursor;
        if (c == null || !c.path().equals(ref.path)) {
            return true;
        }
        try {
            return c.sealStarted();
        } catch (IolabException e) {
            return true;
        }
    }

    /** @return whether a segment of the view before {@code ref} is still in the folder */
    private boolean anyBeforeLeft(SegmentRef ref) {
        for (SegmentRef r : segments) {
            if (r == ref || r.firstSeq >= ref.firstSeq) {
                return false;
            }
            if (Files.exists(r.path)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Read-only journals, from {@link #refresh()} (refreshLock held): the segment being followed was replaced by a
     * new file, or deleted with no segment after it. A writer's open does that after a failed sync
     * ({@link FailedSync}): it writes the records it keeps into a new file and deletes the later segments, and appends
     * after the cut. The files are read again, as an open does; when the journal now ends below what this reader
     * had seen, the records in between were cut ({@link Cut}), and the readers that returned any of them are told so
     * ({@link Cursor}) rather than go on with the writer's new records under the same sequences.
     */
    private boolean resync() {
        return resync(false);
    }

    /** @param tipCut whether the followed segment is known to be gone by a cut, not by a deleteBefore */
    private boolean resync(boolean tipCut) {
        Tip old = tip;
        List<SegmentRef> was = segments;
        // the cursor on the followed segment's old file, still open: its records are compared with the new file's
        SegmentCursor oldFile = refreshCursor;
        CopyOnWriteArrayList<SegmentRef> fresh = new CopyOnWriteArrayList<>();
        SegmentRef last;
        long next;
        long end;
        long cutFrom;
        try {
            Tip start = attach(fresh);
            last = start.segment();
            next = start.nextSeq();
            end = start.end();
            try (SegmentCursor c = new SegmentCursor(opener, last.path, last.capacity, openForRead(last.path), end)) {
                if (replaced(last)) {
                    throw new IolabException("segment " + last.path + " was replaced again while it was read");
                }
                if (c.lengthSetAt(end)) {
                    while (c.next(last.capacity, false) == SegmentCursor.Status.RECORD && c.sequence() == next) {
                        next++;
                        end = c.position();
                    }
                }
            }
            cutFrom = cutFrom(was, old, oldFile, fresh, tipCut);
        } catch (IolabException e) {
            // the writer is part way through its cut (a segment deleted between the listing and its open): the view
            // stays as it is, the old file's cursor kept for the comparison, and a later refresh tries again; a
            // folder that stays unreadable for a second is reported
            long now = System.nanoTime();
            if (resyncFailingSince == 0) {
                resyncFailingSince = now;
            } else if (now - resyncFailingSince > TimeUnit.SECONDS.toNanos(1)) {
                resyncFailingSince = 0;
                throw e;
            }
            identityCheckedAt = now - IDENTITY_CHECK_NANOS; // the next refresh checks again
            return false;
        }
        resyncFailingSince = 0;
        refreshCursor = null;
        try {
            long e = epoch + 1;
            if (cutFrom < old.nextSeq()) {
                cuts.add(new Cut(e, cutFrom, old.nextSeq() - 1));
            }
            epoch = e;
            segments = fresh;
            tip = new Tip(last, end, next);
            damageAtTip = null; // the next refresh finds it again if it is still there
            return true;
        } finally {
            if (oldFile != null) {
                oldFile.close();
            }
        }
    }

    /**
     * @param was the segments before the resync, oldest first
     * @param old the tip before it
     * @param oldFile a cursor on the old file of {@code old}'s segment, or null
     * @param fresh the segments now
     * @return the first sequence a reader may have returned that is not in the journal now (a later one when none)
     */
    private long cutFrom(List<SegmentRef> was, Tip old, SegmentCursor oldFile, List<SegmentRef> fresh,
            boolean tipCut) {
        // a writer's cut deletes the last segments and rewrites the one it cuts in: walk back from the followed one
        // while the files are gone or new (a deleteBefore deletes the oldest, never the last, so it stops first)
        long cutFrom = Long.MAX_VALUE;
        for (int i = was.size() - 1; i >= 0; i--) {
            SegmentRef r = was.get(i);
            if (r.firstSeq >= old.nextSeq()) {
                continue; // nothing of it was seen
            }
            boolean gone = !Files.exists(r.path);
            if (!gone && !replaced(r)) {
                break;
            }
            // a cut deletes or rewrites the segment it is in and the ones after, and rewrites an unsealed one before:
            // known to be cut, the followed segment and the one before it are walked even when a deleteBefore of the
            // new writer has removed them since; any other gone one before the journal's new start is its deletion
            boolean cutOnes = tipCut && (r == old.segment() || i + 1 < was.size() && was.get(i + 1) == old.segment());
            if (gone && !cutOnes && !fresh.isEmpty() && r.firstSeq < fresh.getFirst().firstSeq) {
                break;
            }
            SegmentRef now = null;
            for (SegmentRef f : fresh) {
                if (f.path.equals(r.path)) {
                    now = f;
                }
            }
            if (gone || now == null || r != old.segment() || oldFile == null) {
                // its records cannot be compared: all of them may be gone
                cutFrom = r.firstSeq;
                continue;
            }
            // the followed segment, rewritten: its records match up to the cut (a cut there can have rewritten the
            // one before it too, which the walk goes on to)
            try (SegmentCursor c = new SegmentCursor(opener, now.path, now.capacity, openForRead(now.path))) {
                oldFile.rewind(Format.HEADER_SIZE);
                for (long seq = r.firstSeq; seq < old.nextSeq(); seq++) {
                    if (oldFile.next(old.end(), true) != SegmentCursor.Status.RECORD
                            || c.next(now.capacity, false) != SegmentCursor.Status.RECORD
                            || c.sequence() != seq || oldFile.sequence() != seq
                            || !c.payload().equals(oldFile.payload())) {
                        cutFrom = Math.min(cutFrom, seq);
                        break;
                    }
                }
            }
        }
        return cutFrom;
    }

    /**
     * Records {@code from} to {@code to} that a read-only journal's readers may have returned, cut by the writer
     * (found by the {@link #resync()} that made epoch {@code epoch}).
     */
    record Cut(long epoch, long from, long to) {
    }

    /** Tests: as if a read-only journal's timed identity check had just run (the next refresh skips it). */
    void identityCheckedNow() {
        synchronized (refreshLock) {
            identityCheckedAt = System.nanoTime();
        }
    }

    /** @return how many times a read-only journal's view of the files was replaced ({@link #resync()}) */
    long epoch() {
        return epoch;
    }

    /**
     * Read-only journals: a reader opened {@code ref}'s path and found another file there than the view's (a writer's
     * cut replaced it): the view is read again now rather than at the next timed check.
     */
    void fileReplaced() {
        synchronized (refreshLock) {
            if (!closed) {
                resync();
            }
        }
    }

    /**
     * @param since the epoch a reader last saw
     * @param returned the last sequence that reader returned, -1 when none
     * @return the error for that reader when a cut since then took a record it returned, else null
     */
    IolabException cutSince(long since, long returned) {
        for (Cut c : cuts) {
            if (c.epoch() > since && returned >= c.from()) {
                long first = firstSequence();
                return new IolabException("journal " + dir + " was cut at sequence " + c.from() + " by its writer"
                        + " (after a failed sync, its open drops the records no completed sync covers, and writes the"
                        + " ones it keeps into new files): records " + c.from() + " to " + c.to() + ", which this"
                        + " reader may have returned, may not be in the journal any more, and new records can take"
                        + " their sequences; read again from sequence " + Math.max(c.from(), first)
                        + (first > c.from() ? " (the journal starts there now: the writer deleted the records before)"
                                : ""));
            }
        }
        return null;
    }

    /**
     * @return {@code f}, a segment of {@code capacity} bytes opened to write, which close then cuts no shorter than
     *     that ({@link StorageFile#keepLengthOnClose}). Every writable open of a named segment goes through here: a
     *     follower in another process may have the segment mapped up to its capacity, and a mapping writer that cut the
     *     zeros it had grown past its last write at close made that follower die of SIGBUS inside CRC32C
     *     (scripts/probes/follower-sigbus). What a mapping backend grew past the capacity (it grows in steps of at
     *     least 1 MiB) still goes: no follower maps past the capacity.
     */
    private static StorageFile segmentFile(StorageFile f, long capacity) {
        f.keepLengthOnClose(capacity);
        return f;
    }

    /**
     * Read-only journals: called by a reader that has read every record of {@code segment} up to {@code position}, the
     * tip's end as it saw it.
     *
     * @throws JournalCorruptedException when the records end there at damage ({@link #damageAtTip}): the tip is at it
     *     still (not moved past it since: bytes written back), and so is the reader (not at an earlier tip)
     */
    void damageAfter(SegmentRef segment, long position) {
        Damage d = damageAtTip;
        Tip t = tip;
        if (d != null && d.file().equals(segment.path) && t.segment() == segment && t.end() == d.offset()
                && position >= d.offset()) {
            throw new JournalCorruptedException(d.file(), d.offset(), d.what());
        }
    }

    /**
     * Read-only journals: scans for records (and segments) another writer appended since the last call.
     *
     * @return true when the tip moved
     */
    boolean refresh() {
        if (!readOnly) {
            return false;
        }
        synchronized (refreshLock) {
            if (closed) {
                return false; // its cursor is closed, and none may be opened again
            }
            boolean changed = false;
            for (;;) {
                Tip t = tip;
                SegmentRef ref = t.segment();
                long checkedAt = System.nanoTime();
                if (ref.fileKey != null && checkedAt - identityCheckedAt >= IDENTITY_CHECK_NANOS) {
                    // at most once a millisecond (a stat cost a follower 2.5 µs a record): a writer's cut comes after
                    // its predecessor's failure and an open, so the first refresh after it checks
                    identityCheckedAt = checkedAt;
                    if (cutSuspected(ref)) {
                        if (!resync()) {
                            return changed;
                        }
                        changed = true;
                        continue;
                    }
                }
                long end = t.end();
                long next = t.nextSeq();
                SegmentCursor c;
                boolean opens = refreshCursor == null || !refreshCursor.path().equals(ref.path);
                try {
                    c = refreshCursor(ref, end);
                } catch (IolabException e) {
                    if (Files.exists(ref.path)) {
                        throw e;
                    }
                    c = null; // deleted by the writer before this opened it: its successor is looked for below
                }
                if (c != null && opens && replaced(ref)) {
                    // opened by its path, which names another file than the one its header was read from
                    closeRefreshCursor();
                    if (!resync()) {
                        return changed;
                    }
                    changed = true;
                    continue;
                }
                try {
                    if (c != null && c.lengthSetAt(end)) {
                        while (c.next(ref.capacity, false) == SegmentCursor.Status.RECORD && c.sequence() == next) {
                            next++;
                            end = c.position();
                        }
                    }
                } catch (RuntimeException | Error e) {
                    closeRefreshCursor();
                    throw e;
                }
                if (c != null && end < ref.syncedMark) {
                    // the writer synced records up to its mark before writing it: they cannot be still coming (a
                    // segment deleted before this read it is not damaged: its records are gone, as its readers hear).
                    // The records before the damage are readable: the tip goes up to it, and a reader that reaches it
                    // is told (it was the open that refused, and 'journal read' printed nothing)
                    damageAtTip = new Damage(ref.path, end, damageBelowMark(end, ref.syncedMark, next));
                    if (next != t.nextSeq()) {
                        tip = new Tip(ref, end, next);
                        changed = true;
                    }
                    return changed;
                }
                if (next != t.nextSeq()) {
                    tip = new Tip(ref, end, next);
                    changed = true;
                }
                // an empty last segment is named after the next sequence itself: it is not its own successor
                Path following = next == ref.firstSeq ? null : dir.resolve(Format.fileName(next));
                SegmentRef nextRef = following != null && Files.exists(following) ? readHeader(following) : null;
                boolean gone = !Files.exists(ref.path);
                if (gone && ref.fileKey != null && (anyBeforeLeft(ref) || !oldFileSealed(ref))) {
                    // deleted while a segment before it is still there, or before its seal: not a deleteBefore (it
                    // deletes the oldest first, so all those before went first, and only sealed segments), but a
                    // writer's cut, whose new segments may already take the names that follow
                    if (!resync(true)) {
                        return changed;
                    }
                    changed = true;
                    continue;
                }
                gone &= nextRef == null;
                if (gone) {
                    // the writer rolled past this segment and deleted it (deleteBefore), and maybe its successors:
                    // go on at the oldest segment left after it; readers of the sequences between are told so
                    for (Path p : listSegments(dir)) {
                        if (Format.parseName(p) > ref.firstSeq && (nextRef = readHeader(p)) != null) {
                            break;
                        }
                    }
                }
                if (nextRef == null) {
                    if (gone && ref.fileKey != null) {
                        // deleted with nothing after it: a writer's cut (deleteBefore never deletes the last segment)
                        if (!resync()) {
                            return changed;
                        }
                        changed = true;
                        continue;
                    }
                    return changed;
                }
                if (ref.fileKey != null && !gone && cutSuspected(ref)) {
                    // a writer's cut renames its new files over the old before it makes any later segment: a
                    // successor seen means the check now sees that rename (a stat a roll)
                    if (!resync()) {
                        return changed;
                    }
                    changed = true;
                    continue;
                }
                ref.sealedEnd = end;
                segments.add(nextRef);
                tip = new Tip(nextRef, Format.HEADER_SIZE, nextRef.firstSeq);
                changed = true;
            }
        }
    }

    /**
     * @return the refresh's cursor on {@code ref}, at {@code end}: kept from the last refresh while the tip stays in
     *         that segment. Opening one per call cost 260 µs (a file, a mapping the garbage collector releases, a
     *         256 KiB buffer), so a reader polling another process's journal spent 0.9 ms a record and piled up
     *         thousands of mappings
     */
    private SegmentCursor refreshCursor(SegmentRef ref, long end) {
        SegmentCursor c = refreshCursor;
        if (c != null && c.path().equals(ref.path)) {
            c.rewind(end);
            return c;
        }
        closeRefreshCursor();
        c = new SegmentCursor(opener, ref.path, ref.capacity, openForRead(ref.path), end);
        refreshCursor = c;
        return c;
    }

    private void closeRefreshCursor() {
        SegmentCursor c = refreshCursor;
        refreshCursor = null;
        if (c != null) {
            c.close();
        }
    }

    private static FileLock acquire(Path dir) {
        Path lockFile = dir.resolve(LOCK_FILE);
        FileLock fileLock = FileLocks.tryLock(lockFile);
        if (fileLock == null) {
            throw new JournalLockedException(lockFile);
        }
        return fileLock;
    }

    /**
     * Mends the journal in {@code dir} so that it opens and reads again, and deletes nothing: what it cuts away is
     * kept beside the segments, under names that end in {@code .cut} (no journal reads them; delete them once you
     * have what you need). Step by step, each followed by a new check:
     * <ul>
     * <li>segments missing before the first (it starts after sequence 0 without the start marker) cost nothing more:
     * the first segment is marked as the journal's start;</li>
     * <li>a segment whose header is damaged but whose first record is intact (its sequence is the one the file name
     * gives) gets its header written again, and keeps its records; one over no intact record (or a file that only
     * has a segment's name) is moved aside, as if it were missing (the first one: the next step marks the one after
     * it); the only segment is replaced by an empty one instead, its bytes kept aside;</li>
     * <li>at any other damage (a record, a gap between segments) the damaged segment is cut: copied aside whole,
     * then replaced by a new file that holds its bytes before the damage (written and synced beside it, then renamed
     * over it: a sync that fails changes nothing). When a later segment follows, starting after the records kept, it
     * stays, and so do the intact records after a damaged record whose header is intact (a flipped payload bit or
     * CRC): from where its length says the next record begins, a run of records with consecutive sequences and good
     * CRCs that ends the data (only zeros after it) with the sequence before the later segment's first, or before a
     * gap its marker names ({@link RunFinder}, which says why it searches nowhere else). They are written into a
     * segment of their own, named by their first sequence. Damage that destroys a header (a zeroed page, a garbage
     * length, a file cut short), a second damage in the segment, or non-zero bytes after its data cost the rest of
     * the segment. That segment, or else the later one, gets the gap marker naming the sequences cut (written and synced
     * before the cut), the cut segment is sealed, and the next check goes on to later damage. So a flipped payload
     * bit costs its record. Readers pass over the gap ({@link VerifyReport#cut()}
     * counts it); a reader that starts inside it gets the first record after it. When the segments overlap every
     * later segment is moved aside. <b>The records cut are no longer in the journal</b>; run {@link #verify(Path)}
     * first to see where they are.</li>
     * </ul>
     * <b>No sequence is handed out twice.</b> The records a cut takes from the last segment were synced (they are
     * below its synced mark, or it is sealed), so they may have been acknowledged, and read: a consumer that saved
     * "done up to sequence N" would skip a new record that took N. So before the last segment is cut (or moved aside,
     * or, as the only one, replaced) an empty segment is made after it, named past every record it can have held, and
     * the cut marks the gap before it: the next append takes that sequence. The count is exact when intact records
     * follow the damage to the end of the data (their first sequence, under its CRC, shows the damaged record was one);
     * otherwise it is a bound, one record per {@value Format#FRAME_HEADER} bytes (the smallest frame) up to the last
     * non-zero byte or the synced mark, whichever is later, so the gap can hold sequences no record had. Records past
     * both, a torn tail that was never synced, are what a crash leaves too, and open cuts them the same way.
     * Takes the writer's lock; does nothing when there is no unrecoverable problem.
     *
     * @param dir the journal directory
     * @return the report of the problems found before the repair
     * @throws JournalLockedException when a writer has the journal open
     * @throws IolabException when {@code dir} holds no segment (nothing is written there)
     */
    public static VerifyReport repair(Path dir) {
        return repair(dir, what -> { });
    }

    /**
     * Whether {@code dir} looks like a journal to {@link #repair}: a file named like a segment begins with the
     * journal's magic, or holds an intact first record of its name's sequence after the header (a header that lost its
     * magic, which repair writes again), or every such file holds nothing but zeros (a creation a crash interrupted),
     * or there is none. A folder whose files named like segments hold other bytes is more likely something else than a
     * journal that lost every header and its first records: a repair would move them aside as {@code *.cut} files and
     * start a journal there, so a tool asks this first (the CLI's {@code repair} does, and wants {@code --force}).
     * Reads the first bytes of each segment file; takes no lock.
     *
     * @param dir a folder
     * @return true when it looks like a journal (or holds no segment)
     * @throws IolabException when it cannot be listed
     */
    public static boolean beginsAsJournal(Path dir) {
        boolean foreign = false;
        for (Path f : listSegments(dir)) {
            long nameSeq = Format.parseName(f);
            try (StorageFile file = Backend.CHANNEL_HEAP.open(f, false)) {
                ByteBuffer header = Format.readHeader(file);
                if (header != null && header.getLong(0) == Format.MAGIC) {
                    return true;
                }
                if (Verifier.holdsNothing(file)) {
                    continue;
                }
                try (SegmentCursor c = new SegmentCursor(Backend.CHANNEL_HEAP::open, f, file.size(),
                        Backend.CHANNEL_HEAP.open(f, false))) {
                    if (c.next(file.size(), true) == SegmentCursor.Status.RECORD && c.sequence() == nameSeq) {
                        return true;
                    }
                }
                foreign = true;
            } catch (RuntimeException e) {
                // unreadable or gone: says nothing either way
            }
        }
        return !foreign;
    }

    /**
     * {@link #repair(Path)}, telling {@code done} each thing it does, in order, as one line: the journal started at a
     * segment, a header written again, a file moved aside, a cut (with where its bytes are kept).
     *
     * @param dir the journal directory
     * @param done told each step
     * @return the report of the problems found before the repair
     */
    public static VerifyReport repair(Path dir, Consumer<String> done) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            return repair(dir, done, Backend.CHANNEL_HEAP::open);
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    /** {@link #repair(Path, Consumer)}, a cut's new segment written through {@code opener} (tests fail its syncs). */
    static VerifyReport repair(Path dir, Consumer<String> done, StorageOpener opener) {
        if (!Files.isDirectory(dir) || listSegments(dir).isEmpty()) {
            // before the lock: a folder that holds no journal gets no journal.lock either
            throw new IolabException((Files.isDirectory(dir) ? "no journal segments (*.seg files) in " + dir
                    : "no journal directory " + dir)
                    + ": nothing to repair; give the directory a journal was opened in");
        }
        FileLock fileLock = acquire(dir);
        try {
            refuseNewerFormat(dir);
            VerifyReport report = verify(dir);
            VerifyReport.Problem first = firstUnrecoverable(report);
            // each mend that loses nothing is followed by a new check; there are at most two per segment
            // each mend that loses nothing, and each cut a later segment goes on after, is followed by a new check;
            // there are at most three per segment
            for (int mends = 0; first != null && mends <= 3 * report.segments() + 2; mends++) {
                if (first.offset() == Format.START_OFFSET) {
                    // the segments before the first are missing: the journal starts at it from now on
                    try (StorageFile f = Backend.CHANNEL_HEAP.open(first.file(), true)) {
                        f.write(Format.START_OFFSET, Format.startMarker(Format.parseName(first.file())));
                        f.force(false);
                    }
                    done.accept("the journal starts at " + first.file() + " from now on: " + first.what());
                } else if (first.offset() != 0) {
                    if (!cut(dir, first, done, opener)) {
                        return report;
                    }
                } else if (rebuildHeader(first.file())) {
                    done.accept("wrote the header of " + first.file() + " again (its records are intact): "
                            + first.what());
                } else if (listSegments(dir).size() == 1) {
                    // the only segment: emptied under a fresh header (see cut), so the journal goes on at its sequence
                    cut(dir, first, done, opener);
                    return report;
                } else {
                    // a header over no intact record: the file goes aside as if it were missing, and the next check
                    // finds the gap it leaves, if any, and cuts there (a file that only has a segment's name, between
                    // segments that follow each other, leaves none); the first segment's leaves the ones after it
                    // without a start, which the next check reports and marks (the records before are gone)
                    boolean wasStart = carriesStartMarker(first.file());
                    if (first.file().equals(listSegments(dir).getLast())) {
                        tailAfterLoss(dir, opener, first.file(), done);
                    }
                    Path to = aside(first.file(), false);
                    done.accept("moved " + first.file() + " aside to " + to + " (no intact record under its header): "
                            + first.what());
                    if (wasStart) {
                        // it was the journal's start, marked by a deleteBefore that a crash interrupted: the segments
                        // before it were being deleted (cutting after them would hand out their successors' sequences
                        // again), so they go aside too, and the next check marks the segment after it
                        for (Path leftover : listSegments(dir)) {
                            if (Format.parseName(leftover) >= Format.parseName(first.file())) {
                                break;
                            }
                            Path kept = aside(leftover, false);
                            done.accept("moved " + leftover + " aside to " + kept + " (before the journal's start, left"
                                    + " by an interrupted deleteBefore)");
                        }
                    }
                }
                first = firstUnrecoverable(verify(dir));
            }
            if (first != null) {
                cut(dir, first, done, opener);
            }
            return report;
        } catch (IOException e) {
            throw IolabException.io("repair the journal in", dir, e);
        } finally {
            FileLocks.release(fileLock);
        }
    }

    /** @return whether the header bytes of {@code file} hold its own start marker (the rest may be damaged) */
    private static boolean carriesStartMarker(Path file) throws IOException {
        try (StorageFile f = Backend.CHANNEL_HEAP.open(file, false)) {
            ByteBuffer header = Format.readHeader(f);
            return header != null
                    && header.getInt(Format.START_OFFSET) == Format.startMarker(Format.parseName(file)).getInt(0);
        }
    }

    /** Refuses, before any change, a journal holding a segment of a format version this iolab does not read. */
    private static void refuseNewerFormat(Path dir) {
        for (Path file : listSegments(dir)) {
            try (StorageFile f = Backend.CHANNEL_HEAP.open(file, false)) {
                ByteBuffer header = Format.readHeader(f);
                if (header != null && Format.newerVersion(header)) {
                    // not damage: a format this iolab does not know, which a rewrite or a cut would destroy
                    throw new IolabException("segment " + file + " is of format version " + header.getInt(8)
                            + ", which this iolab (version " + Format.VERSION + ") does not read; nothing was changed:"
                            + " use the iolab that wrote it");
                }
            }
        }
    }

    /**
     * Writes the damaged header of {@code file} again when the segment's first record is intact, with the sequence
     * its name gives: the CRC-checked part (magic, version, sizes, first sequence, capacity: the file's own size, or
     * the synced mark's offset when that is higher, so that synced records the file lost still read as lost). The
     * start marker, the seal and the synced mark stay as they are (outside the CRC: a damaged one reads as none).
     *
     * @return false when the first record is not intact (nothing is written then)
     */
    private static boolean rebuildHeader(Path file) throws IOException {
        long nameSeq = Format.parseName(file);
        try (StorageFile f = Backend.CHANNEL_HEAP.open(file, true)) {
            long size = f.size();
            if (size < Format.HEADER_SIZE + Format.FRAME_HEADER) {
                return false;
            }
            long mark = Format.syncedMark(Format.readHeader(f), nameSeq, Format.MAX_CAPACITY);
            long capacity = Math.min(Format.MAX_CAPACITY, Math.max(Format.MIN_CAPACITY,
                    Math.max(Format.align(size), mark)));
            try (SegmentCursor c = new SegmentCursor(Backend.CHANNEL_HEAP::open, file, capacity,
                    Backend.CHANNEL_HEAP.open(file, false))) {
                if (c.next(capacity, false) != SegmentCursor.Status.RECORD || c.sequence() != nameSeq) {
                    return false;
                }
            }
            // bytes 36.. stay: a start marker that was there still counts, and one that was not leaves the segments
            // missing before a first segment to the next check, which reports them and marks the start
            f.write(0, Format.header(nameSeq, capacity).limit(Format.HEADER_CRC_OFFSET + 4));
            f.force(false);
            return true;
        }
    }

    /**
     * Cuts the journal at {@code first}: the damaged segment copied aside (when there is data after the damage),
     * then replaced by a copy of it emptied from the damage on (or, when its header is the damage, moved aside), and
     * every later segment moved aside, last first. When the damage is inside a segment that has a successor starting
     * after the records the cut keeps, the later segments stay instead: the successor gets the gap marker naming the
     * sequences cut ({@link Format#gapMarker}), and readers go on across the gap. A writable open checks only the last
     * segment, so a journal damaged in a sealed middle segment may have taken acknowledged appends since: the cut
     * must not take them too.
     *
     * @return true when the journal goes on after the cut (the later segments stayed): the caller checks again
     * <p>The emptied segment is a new file ({@link #replaceSegment}), never the old one zeroed in place: a sync that
     * fails with an I/O error leaves the zeros in the page cache, where this boot reads them, but not on the device.
     * A writer would then append after the cut over pages that still hold, on the device, the records the cut
     * removed; after a power loss they would read as intact records following the new ones. A failed sync of the
     * copy leaves the segment as it was, damage and all, and the repair fails saying so.
     */
    private static boolean cut(Path dir, VerifyReport.Problem first, Consumer<String> done, StorageOpener opener)
            throws IOException {
        List<Path> files = listSegments(dir);
        List<Path> doomed = new ArrayList<>();
        boolean after = false;
        for (Path file : files) {
            if (after) {
                doomed.add(file);
            } else if (file.equals(first.file())) {
                after = true;
                long nameSeq = Format.parseName(file);
                if (first.offset() < Format.HEADER_SIZE && files.size() == 1) {
                    // the only segment: emptied under a fresh header, not moved, so the journal goes on at its first
                    // sequence (an empty folder would restart at 0, handing out again sequences that readers and
                    // checkpoints of a trimmed journal already saw) and its folder still holds a journal
                    Path kept = aside(file, true);
                    long size;
                    long restart;
                    try (StorageFile f = opener.open(file, false)) {
                        size = f.size();
                        // the records it held may have been acknowledged, and read: the journal goes on past them
                        restart = restartAfter(dir, f, nameSeq);
                    }
                    // the damaged header's capacity cannot be trusted: the file's own size, as a small segment that the
                    // next roll leaves for one of the configured size
                    long capacity = Math.max(4096, Format.align(size));
                    Path restarted = restart > nameSeq ? free(dir, restart) : null;
                    if (restarted != null) {
                        restart = Format.parseName(restarted);
                        // a new empty segment that starts the journal, then the damaged one goes (its bytes are kept
                        // aside): a crash between leaves it before the new start, which the next open deletes
                        writeSegment(opener, file, 0, 0, restarted, capacity, false, false,
                                Format.startMarker(restart));
                        Files.delete(file);
                        opener.syncDirectory(dir);
                        done.accept("cut " + file + " at offset 0: the journal goes on at sequence " + restart + " in "
                                + restarted + ", an empty segment, past every record the damaged one may have held"
                                + " (one per " + Format.FRAME_HEADER + " bytes); its bytes are kept in " + kept + ": "
                                + first.what());
                    } else {
                        replaceSegment(opener, Preallocation.NONE, 0, file, 0, size, f -> {
                            f.write(0, Format.header(nameSeq, capacity));
                            if (nameSeq > 0) {
                                f.write(Format.START_OFFSET, Format.startMarker(nameSeq));
                            }
                        }, "empty the damaged segment");
                        opener.syncDirectory(dir);
                        done.accept("cut " + file + " at offset 0, under a new empty header (the journal goes on at"
                                + " sequence " + nameSeq + "); its bytes are kept in " + kept + ": " + first.what());
                    }
                } else if (first.offset() < Format.HEADER_SIZE) {
                    doomed.add(file);
                    done.accept("cut the journal before " + file + ": " + first.what());
                } else {
                    // the records the cut keeps end at gapStart; a later segment that starts there or past it goes
                    // on after the cut (past it: after a gap). The intact records that end this segment's data and
                    // lead into it are kept in a segment of their own. Order: the bytes aside, the rescued records
                    // (unmarked), the cut (sealed), the gap marker last: a crash before the marker leaves an unmarked
                    // gap after a sealed segment, which verify reports and the next repair marks (a marker written
                    // first would let verify accept the damage still in the segment as the gap)
                    int at = files.indexOf(file);
                    Path successor = at + 1 < files.size() ? files.get(at + 1) : null;
                    long gapStart = recordsEnd(file, first.offset());
                    long[] run = null;
                    boolean counted = true; // whether the gap's end is the records' (not a bound: see tailAfterCut)
                    if (successor == null && gapStart >= 0) {
                        // the last segment: the sequences cut may have been acknowledged and read, so the journal goes
                        // on past them, in a new empty segment made first (see tailAfterCut); the cut then proceeds as
                        // one before a successor
                        long[] last;
                        try (StorageFile f = opener.open(file, false)) {
                            ByteBuffer header = Format.readHeader(f);
                            last = RunFinder.findLast(f, first.offset(), gapStart,
                                    Format.syncedMark(header, nameSeq, header.getLong(24)));
                        }
                        successor = tailAfterCut(dir, opener, file, first.offset(), gapStart, last, done);
                        if (successor != null && last != null && last[3] > last[1]) {
                            // under a failed sync's note the run ends before the noted record (the open that applies
                            // the note would cut the rest); with no successor (no free name) nothing is rescued: a
                            // sealed segment after an unsealed cut one would be deleted by the next open
                            long end = Format.parseName(successor);
                            if (end >= last[3]) {
                                run = last;
                            } else if (end > last[1]) {
                                try (StorageFile f = opener.open(file, false)) {
                                    run = new long[] {last[0], last[1], RunFinder.offsetOf(f, last[0], last[1], end),
                                        end};
                                }
                            }
                        }
                        counted = run != null;
                    }
                    long next = successor == null ? -1 : Format.parseName(successor);
                    boolean goesOn = successor != null && gapStart >= 0 && next >= gapStart;
                    if (goesOn && next > gapStart && run == null) {
                        // the successor may carry a marked gap already (an earlier cut): the run may end at it
                        int nextMarker;
                        try (StorageFile f = opener.open(successor, false)) {
                            ByteBuffer h = Format.readHeader(f);
                            nextMarker = h == null ? 0 : h.getInt(Format.START_OFFSET);
                        }
                        try (StorageFile f = opener.open(file, false)) {
                            run = RunFinder.find(f, first.offset(), gapStart, next, nextMarker);
                        }
                    }
                    Path kept = null;
                    long size;
                    try (StorageFile f = opener.open(file, false)) {
                        size = f.size();
                        if (Verifier.firstNonZero(f, first.offset(), size) >= 0) {
                            kept = aside(file, true);
                        }
                    }
                    Path rescued = run == null ? null : dir.resolve(Format.fileName(run[1]));
                    if (rescued != null && (occupied(rescued) || occupied(rescued.resolveSibling(rescued.getFileName()
                            + ".tmp")))) {
                        rescued = null; // a folder or link of its name (no segment): the repair must not fail on it
                        run = null;
                    }
                    if (rescued != null) {
                        // no synced mark under a failed sync's note: the records from its sequence on were never
                        // covered by a completed sync, and the next open must still be able to cut them
                        long capacity = Math.max(Format.MIN_CAPACITY,
                                Format.align(Format.HEADER_SIZE + run[2] - run[0]));
                        writeSegment(opener, file, run[0], run[2], rescued, capacity, true,
                                FailedSync.read(dir) < 0, null);
                    }
                    // the synced mark goes down to the cut (one above it would make the next open refuse the
                    // journal): the records before the cut are all there is, and they are on the device. Before a
                    // kept successor the copy is sealed too (it is synced whole): an open takes a segment before the
                    // last without its seal for one a crash interrupted, and deletes the last when they do not follow
                    replaceSegment(opener, Preallocation.NONE, 0, file, first.offset(), size, f -> {
                        f.write(Format.MARK_OFFSET, Format.syncedMark(nameSeq, first.offset()));
                        if (goesOn) {
                            f.write(Format.SEAL_OFFSET, Format.sealMarker(nameSeq));
                        }
                    }, "cut the damaged segment");
                    opener.syncDirectory(dir);
                    Path marked = rescued != null ? rescued : successor;
                    if (goesOn && Format.parseName(marked) > gapStart) {
                        try (StorageFile f = opener.open(marked, true)) {
                            f.write(Format.START_OFFSET, Format.gapMarker(Format.parseName(marked), gapStart));
                            f.force(false);
                        }
                    }
                    done.accept("cut " + file + " at offset " + first.offset() + (kept == null ? ""
                            : "; its bytes are kept in " + kept) + ": " + first.what());
                    if (rescued != null) {
                        done.accept("kept the intact records " + run[1] + " to " + (run[3] - 1) + " that followed the"
                                + " damage in " + rescued + ": " + lost(gapStart, run[1]) + " no longer in the"
                                + " journal");
                    } else if (goesOn && next > gapStart && !counted) {
                        done.accept("the journal goes on at " + successor + " after the gap: the records from sequence "
                                + gapStart + " on are no longer in it (sequences up to " + (next - 1) + " skipped)");
                    } else if (goesOn && next > gapStart) {
                        done.accept("the journal goes on at " + successor + " after the gap: " + lost(gapStart, next)
                                + " no longer in it");
                    } else if (goesOn) {
                        done.accept("the journal goes on at " + successor + " (no record was lost)");
                    }
                    if (goesOn) {
                        return true;
                    }
                }
            }
        }
        // last first, each followed by a sync of the folder (aside's): a crash part way leaves the journal's first
        // segments, never later ones without the first (which the next open would refuse as missing records, and a
        // second repair would keep, records after the damage included)
        for (Path file : doomed.reversed()) {
            Path to = aside(file, false);
            done.accept("moved " + file + " aside to " + to);
        }
        return false;
    }

    /** @return whether {@code path} exists as something a rescued segment's write cannot replace: not a plain file */
    private static boolean occupied(Path path) {
        return Files.exists(path, LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
    }

    /** @return "the record of sequence 5 is", "the records of sequences 5 to 9 are": those from {@code from} on */
    private static String lost(long from, long to) {
        return to - from == 1 ? "the record of sequence " + from + " is"
                : "the records of sequences " + from + " to " + (to - 1) + " are";
    }

    /**
     * The damage is in the last segment, and the records a cut takes there may have been acknowledged, and read: the
     * next appends must not hand their sequences out again (a reader that had reached one would skip the new record,
     * a consumer's saved position would point at another record). So before the cut, a new empty segment is made
     * after it, named by the sequence after the last record the cut can hold: exact when the damaged record's header
     * is intact and a run of intact records ends the data ({@code last}, from {@link RunFinder#findLast}: the first
     * one's sequence, under its CRC, says the damaged record was one); otherwise an upper
     * bound, one record per {@value Format#FRAME_HEADER} bytes (the smallest frame) from the damage to the end of the
     * data or the synced mark, whichever is later (to the file's end in a sealed segment, whose every record was
     * synced). Records that were in the torn tail past both cannot be counted; a crash leaves those too. Under a failed
     * sync's note the name is the note's sequence: every record before it was synced, none after it was (the open that
     * applies the note cuts there, and deletes a segment named past it). The cut then goes on as before a successor:
     * the segment sealed, the gap marked, and a writer appends in the new segment. A crash before the cut leaves the
     * damage in place followed by an unmarked gap, which the next repair cuts and marks.
     *
     * @return the new last segment, or null when no name is free for it (the journal goes on at the cut then)
     */
    private static Path tailAfterCut(Path dir, StorageOpener opener, Path file, long damage, long gapStart, long[] last,
            Consumer<String> done) throws IOException {
        long nameSeq = Format.parseName(file);
        long next;
        long capacity;
        boolean exact = last != null && last[3] > last[1];
        try (StorageFile f = opener.open(file, false)) {
            ByteBuffer header = Format.readHeader(f);
            capacity = header.getLong(24); // checked: the damage is past the header
            // an empty run proves nothing about the damaged record's extent: a damaged length may have swallowed
            // records (a run of records after it does: the first one's sequence, under its CRC, is the next)
            // a sealed segment had every record synced, to its end: the zeros after a run may be records destroyed
            boolean sealed = Format.sealed(header, nameSeq);
            long bound = Math.max(gapStart + 1, bound(f, header, nameSeq, damage, gapStart, sealed));
            next = exact ? (sealed ? Math.max(last[3], bound) : last[3]) : bound;
        }
        long noted = FailedSync.read(dir);
        boolean underNote = noted > gapStart;
        Path tail = free(dir, underNote ? noted : next);
        if (tail == null) {
            return null;
        }
        next = Format.parseName(tail);
        writeSegment(opener, file, 0, 0, tail, capacity, false, false, null);
        done.accept("made " + tail + ", an empty segment after the cut, so that the next append takes sequence " + next
                + (underNote ? " (a failed sync's note says the records before it were synced)"
                        : exact && next == last[3] ? " (the intact records after the damage end at " + (next - 1) + ")"
                        : ", past every record the damage may have held (one per " + Format.FRAME_HEADER
                                + " bytes; the count was lost with the records' headers)"));
        return tail;
    }

    /**
     * @return the segment path of the first of 64 sequences from {@code seq} on whose name nothing holds (a folder or
     *     link named like a segment, or its {@code .tmp}), or null; only {@code seq} itself when a failed sync's note
     *     names it (the open that applies the note deletes a segment named past it)
     */
    private static Path free(Path dir, long seq) {
        int tries = FailedSync.read(dir) == seq ? 1 : 64;
        for (long s = seq; s >= 0 && s - seq < tries; s++) {
            Path p = dir.resolve(Format.fileName(s));
            // a .tmp file an interrupted repair left is replaced by the write; a folder or link is not
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !occupied(p.resolveSibling(p.getFileName() + ".tmp"))) {
                return p;
            }
        }
        return null;
    }

    /**
     * The journal's last segment, its header damaged over no intact record, is about to go aside: as in {@link
     * #tailAfterCut}, an empty segment is made first, named past every record it can have held (or at a failed sync's
     * note), so that the next appends do not hand their sequences out again. The gap it leaves after the segment before
     * is then cut and marked by the next check (a crash before that leaves the unmarked gap, which the next repair
     * marks).
     */
    private static void tailAfterLoss(Path dir, StorageOpener opener, Path file, Consumer<String> done)
            throws IOException {
        long nameSeq = Format.parseName(file);
        long next;
        long capacity;
        try (StorageFile f = opener.open(file, false)) {
            next = restartAfter(dir, f, nameSeq);
            capacity = Math.max(4096, Format.align(f.size()));
        }
        Path tail = next > nameSeq ? free(dir, next) : null;
        if (tail != null) {
            writeSegment(opener, file, 0, 0, tail, capacity, false, false, null);
            done.accept("made " + tail + ", an empty segment, so that the next append takes sequence "
                    + Format.parseName(tail) + ", past every record " + file + " may have held (one per "
                    + Format.FRAME_HEADER + " bytes)");
        }
    }

    /**
     * @param f a segment whose header is damaged, the journal's last
     * @return the sequence the journal goes on at when it goes: past every record it can have held ({@link #bound}
     *     from its header's end), or a failed sync's note past its name
     */
    private static long restartAfter(Path dir, StorageFile f, long nameSeq) {
        long noted = FailedSync.read(dir);
        ByteBuffer header = Format.readHeader(f);
        // the seal word is outside the header's CRC: a damaged header may still say the segment was sealed
        return noted > nameSeq ? noted : bound(f, header, nameSeq, Format.HEADER_SIZE, nameSeq,
                header != null && Format.sealed(header, nameSeq));
    }

    /**
     * @param f a segment
     * @param header its header bytes (the checked part may be damaged), or null
     * @param from where its records are lost from
     * @param seq the sequence of the first record lost
     * @param sealed whether it is sealed: every record in it was synced, to the file's end
     * @return the sequence after the last record that segment {@code f} can have held from {@code from} on: one per
     *     {@value Format#FRAME_HEADER} bytes (the smallest frame) up to its last non-zero byte or its synced mark,
     *     whichever is later (records past both are a torn tail a crash leaves too: an open would cut them), or its end
     *     when sealed; at most {@code Long.MAX_VALUE}
     */
    private static long bound(StorageFile f, ByteBuffer header, long nameSeq, long from, long seq, boolean sealed) {
        long mark = header == null ? Format.HEADER_SIZE : Format.syncedMark(header, nameSeq, Format.MAX_CAPACITY);
        long size = f.size();
        long reach = Math.max(Verifier.lastNonZero(f, from, size) + 1, mark);
        if (sealed) {
            reach = Math.max(reach, size); // its header's capacity may be the damage
        }
        long n = Math.ceilDiv(Math.max(0, reach - from), (long) Format.FRAME_HEADER);
        return seq > Long.MAX_VALUE - n ? Long.MAX_VALUE : seq + n;
    }

    /**
     * Writes {@code target}, a segment of {@code capacity} bytes holding the bytes {@code [from, end)} of {@code file}
     * (whole records) after a header of its own (a gap marker comes after the cut): as a {@code .tmp} file with
     * {@code file}'s permissions, synced, then renamed and the folder synced. A segment of that name that an
     * interrupted repair left is replaced.
     *
     * @param sealed whether it carries its seal (the rescued records' segment; not a new last one)
     * @param marked whether it carries a synced mark at the end of those bytes
     * @param start the word at {@link Format#START_OFFSET} (a start marker), or null for none
     */
    private static void writeSegment(StorageOpener opener, Path file, long from, long end, Path target, long capacity,
            boolean sealed, boolean marked, ByteBuffer start) throws IOException {
        long firstSeq = Format.parseName(target);
        long length = end - from;
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            Preallocation.NONE.prepare(tmp, capacity);
            FileModes.copy(FileModes.target(file), tmp);
            try (StorageFile src = opener.open(file, false); StorageFile to = opener.open(tmp, true)) {
                to.write(0, Format.header(firstSeq, capacity));
                if (start != null) {
                    to.write(Format.START_OFFSET, start);
                }
                if (sealed) {
                    to.write(Format.SEAL_OFFSET, Format.sealMarker(firstSeq));
                }
                if (marked) {
                    to.write(Format.MARK_OFFSET, Format.syncedMark(firstSeq, Format.HEADER_SIZE + length));
                }
                copy(src, from, to, Format.HEADER_SIZE, length);
                if (to.size() < capacity) {
                    to.truncate(capacity);
                }
                to.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            opener.syncDirectory(target.toAbsolutePath().getParent());
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * @return the sequence after the last record of segment {@code file} before {@code offset} (its first sequence
     *     when none), or -1 when its records do not run intact up to {@code offset}
     */
    private static long recordsEnd(Path file, long offset) {
        long nameSeq = Format.parseName(file);
        try (SegmentCursor c = new SegmentCursor(Backend.CHANNEL_HEAP::open, file, offset,
                Backend.CHANNEL_HEAP.open(file, false))) {
            long expected = nameSeq;
            for (;;) {
                SegmentCursor.Status status = c.next(offset, true);
                if (status != SegmentCursor.Status.RECORD) {
                    return status == SegmentCursor.Status.END ? expected : -1;
                }
                if (c.sequence() != expected) {
                    return -1;
                }
                expected++;
            }
        }
    }

    /**
     * Keeps what a repair cuts: {@code file} copied (synced) or renamed to a free name that ends in {@code .cut}
     * ({@code NAME.seg.cut}, then {@code NAME.seg.1.cut}, ...), which no journal reads; then the folder is synced, so
     * the name is on the device before the original changes.
     *
     * @return the new name
     */
    private static Path aside(Path file, boolean copy) throws IOException {
        Path target = file.resolveSibling(file.getFileName() + ".cut");
        for (int i = 1; Files.exists(target, LinkOption.NOFOLLOW_LINKS); i++) {
            target = file.resolveSibling(file.getFileName() + "." + i + ".cut");
        }
        if (copy) {
            Files.copy(file, target);
            StorageOpener.fsync(target);
        } else {
            Files.move(file, target);
        }
        StorageOpener.fsync(file.toAbsolutePath().getParent());
        return target;
    }

    private static VerifyReport.Problem firstUnrecoverable(VerifyReport report) {
        return report.problems().stream().filter(p -> !p.recoverable()).findFirst().orElse(null);
    }

    /**
     * Checks every segment and record of the journal in {@code dir} without changing anything (it does not
     * take the lock, so it can run beside a writer; the writer's tail may then show as torn).
     *
     * @param dir the journal directory
     * @return the counts and every problem found
     */
    public static VerifyReport verify(Path dir) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            return Verifier.verify(dir, Backend.CHANNEL_HEAP::open);
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    // ---------------------------------------------------------------- recovery

    private void recover() {
        if (FailedSync.present(dir)) {
            cutAfterFailedSync();
        }
        List<Path> files = listSegments(dir);
        int n = files.size();
        SegmentRef[] refs = new SegmentRef[n];
        String[] problems = new String[n];
        boolean[] sealedMark = new boolean[n];
        boolean[] noData = new boolean[n];
        ByteBuffer firstHeader = null;
        for (int i = 0; i < n; i++) {
            Path file = files.get(i);
            long nameSeq = Format.parseName(file);
            ByteBuffer header = ByteBuffer.allocate(Format.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            try (StorageFile f = opener.open(file, false)) {
                if (f.size() < Format.HEADER_SIZE) {
                    problems[i] = "the file is " + f.size() + " bytes, shorter than a segment header";
                } else {
                    f.read(0, header);
                    problems[i] = Format.checkHeader(header, nameSeq);
                }
                if (problems[i] == null) {
                    refs[i] = new SegmentRef(nameSeq, file, header.getLong(24));
                    refs[i].syncedMark = Format.syncedMark(header, nameSeq, refs[i].capacity);
                    refs[i].start = Format.isStart(header, nameSeq);
                    refs[i].marker = header.getInt(Format.START_OFFSET);
                    sealedMark[i] = Format.sealStarted(header);
                } else {
                    noData[i] = Verifier.holdsNothing(f);
                }
                if (i == 0) {
                    firstHeader = header;
                }
            }
        }
        int s = startIndex(refs);
        if (s < 0 && n > 0) {
            long firstSeq = Format.parseName(files.getFirst());
            if (problems[0] == null) {
                throw JournalCorruptedException.missingStart(files.getFirst(), firstSeq, firstHeader);
            }
            if (firstSeq > 0) {
                throw new JournalCorruptedException(files.getFirst(), 0, problems[0] + " (the journal's first segment,"
                        + " which starts at sequence " + firstSeq + ")", "'iolab journal repair " + dir + "' to write"
                        + " its header again over its records when they are intact, else to empty it under a new header"
                        + " (what it cuts is kept in *.cut files)");
            }
        }
        // segments before the start are what a deleteBefore interrupted by a crash had still to delete (it marks the
        // new first segment, syncs it, then deletes the older ones oldest first): every record in them was durable
        // and deleted on purpose
        for (int i = 0; i < s; i++) {
            try {
                if (refs[i] == null && !noData[i]) {
                    // not a segment as a deletion leaves it (its header is damaged, or it was never one): kept
                    aside(files.get(i), false);
                    continue;
                }
                Files.deleteIfExists(files.get(i));
            } catch (IOException e) {
                // no longer part of the journal whether it goes or not (verify lists it; the next open tries again):
                // a file that cannot be deleted must not keep the journal from opening
                continue;
            }
            syncDirectory();
        }
        s = Math.max(s, 0);
        // only the segment before the last can be unsealed (a roll waits for the previous seal); one whose seal
        // marker was begun, even torn or damaged, was synced whole first: no torn tail to cut in it
        boolean previousUnsealed = n - s >= 2 && problems[n - 2] == null && !sealedMark[n - 2];
        List<SegmentRef> found = new ArrayList<>();
        long restart = 0;
        for (int i = s; i < n; i++) {
            if (problems[i] != null) {
                if (i == n - 1 && noData[i] && i > s && refs[i - 1] != null) {
                    SegmentRef tail = emptyTailAfterSeal(refs[i - 1], files.get(i));
                    if (tail != null) {
                        found.add(tail);
                        continue;
                    }
                }
                if (i == n - 1 && (noData[i] || previousUnsealed)) {
                    // its creation was interrupted, or it follows an unsealed segment: nothing in it was durable.
                    // Bytes in it are kept aside all the same (*.cut): they may be a file that is not a segment
                    if (noData[i]) {
                        deleteSegment(files.get(i));
                    } else {
                        try {
                            aside(files.get(i), false); // folder synced
                        } catch (IOException e) {
                            throw IolabException.io("move aside the unfinished last segment", files.get(i), e);
                        }
                    }
                    restart = Format.parseName(files.get(i));
                    continue;
                }
                throw new JournalCorruptedException(files.get(i), 0, problems[i]);
            }
            found.add(refs[i]);
        }
        if (found.isEmpty()) {
            SegmentRef first = new SegmentRef(restart, dir.resolve(Format.fileName(restart)), options.segmentSize());
            active = createSegment(first, true);
            segments.add(first);
            tip = new Tip(first, Format.HEADER_SIZE, restart);
            durable = restart - 1;
            attachMapping(active, first, Format.HEADER_SIZE, false);
            resetMark(Format.HEADER_SIZE);
            return;
        }
        if (previousUnsealed) {
            SegmentRef previous = refs[n - 2];
            boolean lastFollows = found.size() == n - s;
            long[] scanned = scan(previous, true);
            belowMark(previous, scanned);
            boolean torn = scanned[2] != 0;
            if (torn || (lastFollows && refs[n - 1].firstSeq != scanned[1])) {
                // a torn tail, or records lost before the last segment: the cut goes here (the last-segment scan
                // below zeroes the rest), and the last segment's records cannot have been durable
                if (lastFollows) {
                    deleteSegment(refs[n - 1].path);
                    found.removeLast();
                }
            } else if (lastFollows) {
                // the crash may have come before the roll's directory sync: the last segment's entry goes to the
                // device before the seal that makes its records count as durable
                syncDirectory();
                try (StorageFile f = segmentFile(opener.open(previous.path, true), previous.capacity)) {
                    f.force(false);
                    f.write(Format.SEAL_OFFSET, Format.sealMarker(previous.firstSeq));
                    f.force(false);
                } catch (RuntimeException e) {
                    // the last segment's records were never durable (the seal never came); the next open puts this
                    // segment's records on fresh blocks
                    noteFailedSync(e, scanned[1]);
                    throw e;
                }
            }
        }
        segments.addAll(found);
        SegmentRef last = found.getLast();
        active = segmentFile(opener.open(last.path, true), last.capacity);
        long[] scanned = scan(last, false);
        long end = scanned[0];
        long expected = scanned[1];
        ByteBuffer seal = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        active.read(Format.SEAL_OFFSET, seal);
        if (seal.getLong(0) == Format.sealMarker(last.firstSeq).getLong(0) && scanned[2] != 0) {
            // the last segment is sealed (its successor is gone, or a repair cut the journal there): the seal was
            // written after every record of it was synced, so a record that fails its check is damage to durable
            // records, not a torn tail. (A seal word that is not the marker, torn or damaged, does not count, as in
            // verify: the records after it may never have been synced.)
            throw new JournalCorruptedException(last.path, end, "a record of a sealed segment fails its check"
                    + " (the good records end at sequence " + (expected - 1) + ")");
        }
        belowMark(last, scanned);
        try {
            if (seal.getLong(0) != 0) {
                // the last segment carries a seal marker (a roll whose next segment could not be made, a repair that
                // cut it, or a damaged header word): appends go on in it, so the marker goes first, and a crash before
                // its next seal leaves a torn tail to cut, as in any unsealed segment
                active.write(Format.SEAL_OFFSET, ByteBuffer.allocate(8));
                active.force(false);
            }
            zeroTail(active, end);
            // the records found may be only in the page cache (a writer killed before its sync): they count as
            // durable once they are on the device
            active.forceRange(0, end);
        } catch (RuntimeException e) {
            // the pages of a failed write-back read back clean: the next open puts the records on fresh blocks
            noteFailedSync(e, expected);
            throw e;
        }
        tip = new Tip(last, end, expected);
        durable = expected - 1;
        attachMapping(active, last, end, false);
        resetMark(last.syncedMark);
    }

    /**
     * Applies a failed sync's note ({@link FailedSync}): cuts the journal before the sequence it names and puts what
     * it keeps of the last two segments on fresh blocks, then deletes the note. Segments after the one holding that
     * sequence are deleted, last first (none of their records was reported durable); that segment's records before
     * the sequence are written into a new file ({@link #rewritePrefix}), and so are the records of the segment before
     * it when that one is not sealed (its pages may have been in the failed write-back too). When the note's segment
     * is damaged before the sequence, or its header is, nothing is changed and the note stays: the recovery that
     * follows reports the damage, and the next open after a repair applies the note.
     */
    private void cutAfterFailedSync() {
        long lost = FailedSync.read(dir);
        if (lost < 0) {
            FailedSync.clear(dir, false); // what a power loss left of a note's write, or a file that is no note
            return;
        }
        List<Path> files = listSegments(dir);
        for (Path f : files) {
            try {
                // a rewrite (below) that an earlier open did not finish: the segment itself is still whole
                Files.deleteIfExists(f.resolveSibling(f.getFileName() + ".tmp"));
            } catch (IOException e) {
                throw IolabException.io("delete the unfinished rewrite of", f, e);
            }
        }
        int s = -1;
        for (int i = 0; i < files.size(); i++) {
            if (Format.parseName(files.get(i)) <= lost) {
                s = i;
            }
        }
        if (s < 0 && !files.isEmpty()) {
            throw foreignNote(lost, "before the journal's first segment " + files.getFirst().getFileName());
        }
        if (s >= 1 && Format.parseName(files.get(s)) == lost && readHeader(files.get(s)) == null) {
            // a segment made by the roll whose seal failed at this segment's header: none of its records was durable,
            // and its header may never have reached the device; it goes with the later ones
            s--;
        }
        // every check before anything changes: a note the open refuses cuts nothing
        long cutAt = -1;
        SegmentRef cut = null;
        if (s >= 0) {
            Path file = files.get(s);
            cut = readHeader(file);
            if (cut == null) {
                throw noteNotApplied(file, 0, lost, "the segment header is damaged or missing");
            }
            long[] stop = offsetOf(cut, lost);
            if (stop[1] != 0) {
                throw noteNotApplied(file, stop[0], lost, "a record there fails its check");
            }
            cutAt = cut.firstSeq == lost ? Format.HEADER_SIZE : stop[0];
            long mark = cut.syncedMark;
            if (cutAt < mark) {
                // no writer notes a record below a mark it wrote (a mark follows a completed force): not this
                // journal's note, or a stale one
                throw foreignNote(lost, "at offset " + cutAt + " of " + file.getFileName() + ", but the segment's"
                        + " synced mark says the records up to offset " + mark + " were synced");
            }
        }
        for (int i = files.size() - 1; i > s; i--) {
            // made after the last force that completed: every record in it is from the sequence named on
            Path file = files.get(i);
            if (readHeader(file) != null) {
                deleteSegment(file);
            } else {
                try {
                    aside(file, false); // not a segment as a writer makes it: kept
                } catch (IOException e) {
                    throw IolabException.io("move aside", file, e);
                }
            }
        }
        if (s >= 0) {
            if (s >= 1) {
                SegmentRef previous = readHeader(files.get(s - 1));
                if (previous != null && !previous.sealedOnDisk) {
                    long[] stop = offsetOf(previous, Long.MAX_VALUE);
                    if (stop[1] == 0) {
                        rewritePrefix(previous.path, previous.capacity, stop[0]);
                    }
                }
            }
            rewritePrefix(cut.path, cut.capacity, cutAt);
        }
        FailedSync.clear(dir, true);
    }

    /**
     * @return {the offset where the record {@code seq} of segment {@code ref} is (or would be), or where its records
     *     end before it; 1 when they end before it at a record that fails its check, else 0}
     */
    private long[] offsetOf(SegmentRef ref, long seq) {
        try (SegmentCursor c = new SegmentCursor(opener, ref.path, ref.capacity, opener.open(ref.path, false))) {
            for (long expected = ref.firstSeq; ; expected++) {
                SegmentCursor.Status status = c.next(ref.capacity, false);
                if (status == SegmentCursor.Status.END || expected == seq) {
                    // at the record seq's place, whatever is there (intact, torn or garbage) is cut
                    return new long[] {c.recordStart(), 0};
                }
                if (status != SegmentCursor.Status.RECORD || c.sequence() != expected) {
                    return new long[] {c.recordStart(), 1};
                }
            }
        }
    }

    /** A failed sync's note that cannot be this journal's: refused before anything changes, the note kept. */
    private JournalCorruptedException foreignNote(long lost, String where) {
        return new JournalCorruptedException(FailedSync.of(dir), 0, "the failed sync's note names sequence " + lost
                + ", " + where + ": it is not this journal's note", "delete " + FailedSync.of(dir) + " if it was"
                + " copied here from another journal");
    }

    /**
     * A failed sync's note that cannot be applied: the open refuses, and the note stays, so that no later open runs
     * without it and appends records a stale note would cut.
     */
    private JournalCorruptedException noteNotApplied(Path file, long offset, long lost, String what) {
        return new JournalCorruptedException(file, offset, what + ", before sequence " + lost + ", where a failed"
                + " sync's note (" + FailedSync.of(dir).getFileName() + ") says to cut the journal",
                "'iolab journal repair " + dir + "' to mend or cut the damage (the next open then applies the note)");
    }

    /**
     * Replaces segment {@code file} with a new file holding its first {@code end} bytes (header and the records
     * before the cut), zeros after them: written to {@code NAME.seg.tmp}, synced, renamed over it, folder synced.
     * Not zeroed in place: on ext4, blocks of a preallocated (unwritten) extent whose write-back failed can stay
     * unwritten, and data written to them again reads back as zeros after a remount (measured: docs/RESULTS.md).
     */
    private void rewritePrefix(Path file, long capacity, long end) {
        replaceSegment(opener, options.preallocation(), capacity, file, end, 0, f -> { },
                "rewrite the segment cut after a failed sync");
        syncDirectory();
    }

    /**
     * Replaces {@code segment} (the file it names, when it is a link) by a new one: {@code NAME.seg.tmp}, prepared by
     * {@code prep} for {@code capacity} bytes and given the file's permissions and owner, then the file's first
     * {@code end} bytes, then {@code patch}, grown to at least {@code size} bytes (zeros), synced, and renamed over the
     * file. The caller syncs the segment's folder; a link's target in another folder has its folder synced here. Until the rename the file is as it was: a failure (a sync's I/O error included) deletes the
     * copy and throws, and nothing whose sync failed ever becomes the segment.
     *
     * @param what what the replacement is for, in the error's message
     */
    static void replaceSegment(StorageOpener opener, Preallocation prep, long capacity, Path segment, long end,
            long size, Consumer<StorageFile> patch, String what) {
        // a link to the segment keeps naming it: the file it names is the one replaced, its copy made beside it
        Path file = FileModes.target(segment);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            prep.prepare(tmp, capacity);
            // before any byte is copied: a 0600 segment's records are never in a file others can read
            FileModes.copy(file, tmp);
            try (StorageFile from = opener.open(file, false); StorageFile to = opener.open(tmp, true)) {
                // a file cut short inside its last record's padding ends before the records do: the rest is zeros
                copy(from, 0, to, 0, Math.min(end, from.size()));
                patch.accept(to);
                if (to.size() < Math.max(size, end)) {
                    to.truncate(Math.max(size, end));
                }
                to.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Path folder = file.toAbsolutePath().getParent();
            if (!folder.equals(segment.toAbsolutePath().getParent())) {
                opener.syncDirectory(folder); // the link's target lives elsewhere: its rename is there
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException io) {
                throw IolabException.io(what, file, io);
            }
            throw (RuntimeException) e;
        }
    }

    /** Copies {@code length} bytes of {@code from} at {@code at} into {@code to} at {@code into}, in 1 MiB steps. */
    private static void copy(StorageFile from, long at, StorageFile to, long into, long length) {
        ByteBuffer chunk = ByteBuffer.allocateDirect((int) Math.min(ZERO_CHUNK, Math.max(length, 1)));
        for (long p = 0; p < length; ) {
            int n = (int) Math.min(chunk.capacity(), length - p);
            from.read(at + p, chunk.clear().limit(n));
            to.write(into + p, chunk.flip());
            p += n;
        }
    }

    /**
     * @param refs the segments in name order, null where the header is damaged
     * @return the index of the segment the journal begins at: the last that is a start (sequence 0, or marked by a
     *     deleteBefore or a repair); -1 when none is
     */
    static int startIndex(SegmentRef[] refs) {
        for (int i = refs.length - 1; i >= 0; i--) {
            if (refs[i] != null && refs[i].start) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The journal's last segment holds nothing and its header is damaged, after a sealed segment: no interrupted
     * creation, as the open otherwise takes it for, since a seal is written only after its successor's header was
     * synced (a roll's, or the empty segment a repair makes after a cut, named past the records it cut). When it is
     * named past where the sealed segment's records end, it is that repair's: deleting it would let the next append
     * take the sequences the repair skipped. Its header is written again, with the gap marker, as a copy synced and
     * renamed over it.
     *
     * @return the segment made again, or null when it is not such a one (it is then deleted as before: a roll's
     *     successor named where its predecessor ends, or one after a segment not sealed)
     */
    private SegmentRef emptyTailAfterSeal(SegmentRef previous, Path file) {
        ByteBuffer header;
        try (StorageFile f = opener.open(previous.path, false)) {
            header = Format.readHeader(f);
        }
        if (header == null || !Format.sealed(header, previous.firstSeq)) {
            return null;
        }
        long name = Format.parseName(file);
        long[] scanned = scan(previous, true); // sealed: every byte after its records must be zeros
        long gapStart = scanned[1];
        if (scanned[2] != 0 || name <= gapStart) {
            // a damaged sealed segment: where its good records end is not where its records end (a gap marker
            // naming it would hide the damage from the repair that must cut it, and rescue nothing after it). The
            // empty segment goes as before, and the sealed one, last now, is refused as damaged
            return null;
        }
        SegmentRef ref = new SegmentRef(name, file, options.segmentSize());
        ByteBuffer marker = Format.gapMarker(name, gapStart);
        ref.marker = marker.getInt(0);
        try {
            // a copy renamed over it, as a repair writes: a crash before the rename leaves it as it was, to do again
            writeSegment(opener, file, 0, 0, file, ref.capacity, false, false, marker);
        } catch (IOException e) {
            throw IolabException.io("write the header of the empty last segment again", file, e);
        }
        return ref;
    }

    /**
     * Fails when a segment's good records end below its synced mark ({@link SegmentRef#syncedMark}): records there
     * were synced, so a record that fails its check (or zeros where records were) is damage, not a torn tail.
     *
     * @param scanned what {@link #scan} found in it
     */
    private static void belowMark(SegmentRef ref, long[] scanned) {
        if (scanned[0] < ref.syncedMark) {
            throw new JournalCorruptedException(ref.path, scanned[0], damageBelowMark(scanned[0], ref.syncedMark,
                    scanned[1]));
        }
    }

    static String damageBelowMark(long end, long mark, long nextSeq) {
        return "the records end at offset " + end + " (after sequence " + (nextSeq - 1) + "), below the segment's"
                + " synced mark at offset " + mark + ": records that were synced are damaged or missing there";
    }

    /** A new active segment's synced mark is {@code mark}, just written (or read); caller holds syncLock or opens. */
    private void resetMark(long mark) {
        markedTo = mark;
        markedAt = System.nanoTime();
        markPending = false;
    }

    /**
     * After a sync that made the active segment durable up to {@code end}: writes the synced mark there when the
     * last one is {@link #MARK_STEP} bytes or {@link #MARK_MILLIS} ms behind (or {@code always}). Not synced here:
     * the next sync covers the header too, and until then the older mark (or none) is what a crash leaves, which
     * is as true. Caller holds syncLock.
     */
    private void moveMark(long end, boolean always) {
        if (end <= markedTo) {
            return;
        }
        long now = System.nanoTime();
        if (always || end - markedTo >= Math.min(MARK_STEP, options.segmentSize() / 4)
                || now - markedAt >= MARK_MILLIS * 1_000_000L) {
            active.write(Format.MARK_OFFSET, Format.syncedMark(tip.segment().firstSeq, end));
            markedTo = end;
            markedAt = now;
            markPending = true;
        }
    }

    /**
     * Reads a segment's records up to the first that is missing or damaged.
     *
     * @return {end offset of the good records, next sequence, 1 when it stopped at damage (not a clean end)}
     */
    private long[] scan(SegmentRef ref, boolean checkRest) {
        long expected = ref.firstSeq;
        long end;
        boolean damaged;
        try (SegmentCursor c = new SegmentCursor(opener, ref.path, ref.capacity, opener.open(ref.path, false))) {
            for (;;) {
                SegmentCursor.Status status = c.next(ref.capacity, false);
                if (status != SegmentCursor.Status.RECORD || c.sequence() != expected) {
                    end = c.recordStart();
                    damaged = status != SegmentCursor.Status.END;
                    break;
                }
                expected++;
            }
        }
        if (checkRest && !damaged) {
            try (StorageFile f = opener.open(ref.path, false)) {
                damaged = Verifier.firstNonZero(f, end, Math.min(f.size(), ref.capacity)) >= 0;
            }
        }
        return new long[] {end, expected, damaged ? 1 : 0};
    }

    /** Zeroes every non-zero byte range in {@code [from, size)} and syncs, so stale data never revives. */
    private static void zeroTail(StorageFile f, long from) {
        long size = f.size();
        boolean wrote = false;
        ByteBuffer chunk = ByteBuffer.allocateDirect(ZERO_CHUNK);
        ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_CHUNK);
        for (long p = from; p < size; ) {
            int n = (int) Math.min(ZERO_CHUNK - (p % ZERO_CHUNK), size - p);
            chunk.clear().limit(n);
            f.read(p, chunk);
            if (Bytes.nonZero(chunk.flip())) {
                f.write(p, zeros.clear().limit(n));
                wrote = true;
            }
            p += n;
        }
        if (wrote) {
            f.force(true);
        }
    }

    static List<Path> listSegments(Path dir) {
        // File.list, one call (an open lists the folder; the stream of Files.list costs more on its first use)
        String[] names = dir.toFile().list();
        if (names == null) {
            // not a folder, or one that cannot be read: Files.list says which
            try (Stream<Path> s = Files.list(dir)) {
                return s.filter(p -> Format.parseName(p) >= 0 && Files.isRegularFile(p)).sorted().toList();
            } catch (IOException e) {
                throw IolabException.io("list the journal directory", dir, e);
            }
        }
        Arrays.sort(names);
        List<Path> out = new ArrayList<>();
        for (String name : names) {
            Path p = dir.resolve(name);
            // a folder (or a link to nothing) with a segment's name is not one: it stopped every command
            if (Format.parseName(p) >= 0 && (Files.isRegularFile(p) || !Files.exists(p, LinkOption.NOFOLLOW_LINKS))) {
                out.add(p);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Creates a segment file with its header.
     *
     * @param durableNow sync the file and the directory before returning (else the seal of the previous
     *        segment does it)
     */
    private StorageFile createSegment(SegmentRef ref, boolean durableNow) {
        boolean existed = Files.exists(ref.path);
        StorageFile f = null;
        try {
            options.preallocation().prepare(ref.path, ref.capacity);
            f = segmentFile(opener.open(ref.path, true), ref.capacity);
            // through the descriptor: the caller takes no page fault on the new file's first page of the mapping
            f.writeThrough(0, Format.header(ref.firstSeq, ref.capacity));
            if (durableNow) {
                f.force(true);
                syncDirectory();
            }
        } catch (RuntimeException e) {
            if (f != null) {
                f.close();
            }
            if (!existed) {
                // a segment with no header holds nothing: not left behind (a full disk left an empty one)
                try {
                    Files.deleteIfExists(ref.path);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        return f;
    }

    private void deleteSegment(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw IolabException.io("delete the interrupted segment", file, e);
        }
        syncDirectory();
    }

    private void syncDirectory() {
        try {
            opener.syncDirectory(dir);
        } catch (IOException e) {
            throw IolabException.io("sync the journal directory", dir, e);
        }
    }

    // ---------------------------------------------------------------- appending

    /**
     * Appends a record.
     *
     * @param payload the record's bytes (at most {@link JournalOptions#maxRecordSize()})
     * @return the record's sequence
     */
    public long append(byte[] payload) {
        return append(ByteBuffer.wrap(given(payload, "record")));
    }

    /**
     * Appends a record.
     *
     * @param payload the record's bytes, from its position to its limit (at most
     *        {@link JournalOptions#maxRecordSize()}); its position advances to its limit
     * @return the record's sequence
     */
    public long append(ByteBuffer payload) {
        if (given(payload, "record").isDirect()) {
            checkAccessible(MemorySegment.ofBuffer(payload));
        }
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            return appendNow(payload);
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    private long appendNow(ByteBuffer payload) {
        int length = payload.remaining();
        if (length > maxPayload) {
            throw tooLarge(length);
        }
        long need = Format.align(Format.FRAME_HEADER + (long) length);
        long seq;
        writeLock.lock();
        try {
            checkUsable();
            Tip t = tip;
            if (t.end() + need > t.segment().capacity) {
                roll(t, need >= WRITE_THROUGH_MIN);
                t = tip;
            }
            seq = t.nextSeq();
            int total = Format.FRAME_HEADER + length;
            ByteBuffer m = mapped;
            boolean through = m == null || need >= WRITE_THROUGH_MIN;
            if (m != null && through && prefaulter != null) {
                prefaulter.forReading();
            }
            if (m != null && through) {
                // a large frame: the payload through the file descriptor (the kernel copies it into the page cache,
                // and this thread takes no page fault for each of its pages), then the padding and last the header
                // (length, CRC, sequence) in one 16-byte write, all through the descriptor: no store into the
                // mapping, whose dirtied page table entries each sync would clean (TLB shootdowns); the prefaulter,
                // if any, now only reads pages in
                int o = (int) t.end();
                int from = payload.position();
                seqBytes.putLong(0, seq);
                crc.reset();
                crc.update(seqBytes.array(), 0, 8);
                crc.update(payload);
                payload.position(from);
                ByteBuffer h = throughHeader.clear();
                int pad = (int) need - total;
                h.putInt(0, total).putInt(4, (int) crc.getValue()).putLong(8, seq);
                try {
                    active.writeThrough(o + Format.FRAME_HEADER, payload);
                    if (pad > 0) {
                        active.writeThrough(o + total, h.limit(Format.FRAME_HEADER + pad)
                                .position(Format.FRAME_HEADER));
                    }
                    active.writeThrough(o, h.limit(Format.FRAME_HEADER).position(0));
                } catch (RuntimeException e) {
                    // the bytes may be half in the segment, past the tip: nothing may be appended after them
                    if (failure == null) {
                        failure = e;
                    }
                    throw e;
                } finally {
                    payload.position(from);
                }
            } else if (m != null) {
                // in place: padding, sequence, payload, CRC, and the length last, so a reader of the file never
                // sees a non-zero length before the rest of the frame
                int o = (int) t.end();
                if (need != total) {
                    m.putLong(o + (int) need - 8, 0L);
                }
                m.putLong(o + 8, seq);
                int from = payload.position();
                m.put(o + Format.FRAME_HEADER, payload, from, length);
                // the CRC is taken from the sources, not the mapping: a CRC over memory of a shared arena costs
                // two atomic operations (the arena's acquire and release) per call
                seqBytes.putLong(0, seq);
                crc.reset();
                crc.update(seqBytes.array(), 0, 8);
                crc.update(payload);
                payload.position(from);
                m.putInt(o + 4, (int) crc.getValue());
                INT_LE.setRelease(m, o, total);
            } else {
                ByteBuffer f = frame((int) need);
                f.putInt(0, total).putLong(8, seq);
                f.put(Format.FRAME_HEADER, payload, payload.position(), length);
                for (int i = total; i < need; i++) {
                    f.put(i, (byte) 0);
                }
                crc.reset();
                crc.update(f.limit(total).position(8));
                f.putInt(4, (int) crc.getValue());
                f.limit((int) need).position(0);
                try {
                    active.write(t.end(), f);
                } catch (RuntimeException e) {
                    // part of the frame may be in the segment, past the tip: nothing may be appended after it (a roll
                    // would seal it in, and a sealed segment's bad frame is damage); a reopen cuts it as a torn tail
                    if (failure == null) {
                        failure = e;
                    }
                    throw e;
                }
            }
            payload.position(payload.limit());
            if (options.durability() == Durability.NONE) {
                writeBehind(t.end() + need, through);
            }
            // release stores: readers and the syncing thread read these fields as volatile, which is enough for
            // them to see the frame, and the appender does not pay a full fence for each
            TIP.setRelease(this, new Tip(t.segment(), t.end() + need, seq + 1));
            APPENDED.setRelease(this, appendedBytes + need);
            if (options.durability() == Durability.ALWAYS) {
                sync();
            }
        } finally {
            writeLock.unlock();
        }
        // the tip was published with a release store; without a full fence here this read of tailWaiters could be
        // ordered before it, and a tailer that registered just then and read the old tip would sleep its whole
        // wait (up to 50 ms) for a record that is already there
        VarHandle.fullFence();
        if (tailWaiters.get() > 0) {
            appendLock.lock();
            try {
                appended.signalAll();
            } finally {
                appendLock.unlock();
            }
        }
        if (options.durability() == Durability.BATCH) {
            long unsynced = appendedBytes - syncedBytes;
            if (unsynced / BACKLOG_BATCHES >= options.batchBytes()) {
                // the flusher is behind the appender by several batches: wait for the device
                sync();
            } else if (unsynced >= options.batchBytes() && !flushRequested) {
                flushRequested = true;
                LockSupport.unpark(flusher);
            }
        }
        return seq;
    }

    /**
     * Appends a record.
     *
     * @param payload the record's bytes (at most {@link JournalOptions#maxRecordSize()})
     * @return the record's sequence
     */
    public long append(MemorySegment payload) {
        if (given(payload, "record").byteSize() > maxPayload) {
            throw tooLarge(payload.byteSize());
        }
        checkAccessible(payload);
        if (payload.heapBase().isPresent() && !(payload.heapBase().get() instanceof byte[])) {
            // asByteBuffer() refuses a heap segment over any other array
            return append(payload.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
        return append(payload.asByteBuffer());
    }

    private IolabException tooLarge(long length) {
        boolean capped = maxPayload < Format.maxPayload(options.segmentSize());
        return new IolabException("record of " + length + " bytes is larger than the largest record of journal "
                + dir + " (" + maxPayload + " bytes: " + (capped ? "the most one record can hold"
                        : "the segment size " + options.segmentSize() + " minus 80")
                + "); records are never split across segments: "
                + (capped ? "split the record yourself" : "use a larger segment size or split the record yourself"));
    }

    /** Refuses, with the root type, a payload whose memory this thread may not read. */
    private void checkAccessible(MemorySegment payload) {
        if (!payload.scope().isAlive()) {
            throw new IolabException("cannot append to journal " + dir + " a payload whose arena is closed: append"
                    + " it before closing its arena");
        }
        if (!payload.isAccessibleBy(Thread.currentThread())) {
            throw new IolabException("cannot append to journal " + dir + " a payload confined to another thread"
                    + " (Arena.ofConfined): append it from that thread, or allocate it in a shared arena");
        }
    }

    /**
     * At NONE, after a frame ending at {@code end}: starts the write-back of the bytes written through the descriptor
     * up to one {@link #WRITE_BEHIND_STEP} behind the appender (the step lets the pages being written fill before
     * the device takes them). Frames stored through the mapping are left to the sync: cleaning a mapped page
     * write-protects it, one TLB shootdown per page. Caller holds writeLock.
     */
    private void writeBehind(long end, boolean through) {
        if (!through) {
            behindFrom = end;
        } else if (end - behindFrom >= 2 * WRITE_BEHIND_STEP && prefaultGuard.tryLock()) {
            // not while the prefaulter populates pages again after a sync (it may have read an older tip): it could
            // dirty again pages this cleans; never waiting for it either, the next frame tries again
            try {
                long upTo = (end - WRITE_BEHIND_STEP) & -Prefaulter.PAGE;
                active.writeBehind(behindFrom, upTo - behindFrom);
                behindFrom = upTo;
            } finally {
                prefaultGuard.unlock();
            }
        }
    }

    private ByteBuffer frame(int need) {
        if (frame.capacity() < need) {
            frame = ByteBuffer.allocateDirect(Math.max(need, frame.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
        }
        return frame.clear();
    }

    /**
     * @param large the frame that rolls is written through the descriptor: the new segment's prefaulter populates
     *        pages for reading
     */
    private void roll(Tip t, boolean large) {
        syncLock.lock();
        try {
            awaitSeal();
            // also when another thread (a sync) joined the failed seal first: a roll past a segment whose seal
            // failed would leave it unsealed behind a newer one, which recovery cannot tell from damage
            checkUsable();
            StorageFile old = active;
            SegmentRef oldRef = t.segment();
            old.written(t.end());
            long lastSeq = t.nextSeq() - 1;
            SegmentRef next = new SegmentRef(t.nextSeq(), dir.resolve(Format.fileName(t.nextSeq())),
                    options.segmentSize());
            StorageFile file = createSegment(next, false);
            Prefaulter oldPrefaulter = prefaulter;
            MemorySegment oldMapping = mappedSegment;
            ByteBuffer oldMapped = mapped;
            long oldBehind = behindFrom;
            long oldSynced = syncedTo;
            try {
                attachMapping(file, next, Format.HEADER_SIZE, large);
            } catch (RuntimeException | Error e) {
                // the active segment stays the old one: so does every field that goes with it
                if (prefaulter != oldPrefaulter) {
                    stop(prefaulter);
                }
                file.close();
                // the new segment holds only its header: not left behind, or a later roll at another sequence
                // would leave it between two segments (recovery then deletes the later one)
                try {
                    Files.deleteIfExists(next.path);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                prefaulter = oldPrefaulter;
                mapped = oldMapped;
                mappedSegment = oldMapping;
                behindFrom = oldBehind;
                syncedTo = oldSynced;
                throw e;
            }
            oldRef.sealedEnd = t.end();
            active = file;
            resetMark(Format.HEADER_SIZE);
            segments.add(next);
            tip = new Tip(next, Format.HEADER_SIZE, t.nextSeq());
            Thread s = Thread.ofPlatform().daemon().name("iolab-journal-sealer " + dir)
                    .unstarted(() -> seal(old, oldPrefaulter, oldMapping, oldRef, file, lastSeq));
            sealer = s;
            s.start();
        } finally {
            syncLock.unlock();
        }
    }

    /** Background: makes a full segment durable, then marks it sealed (see the class comment). */
    private void seal(StorageFile old, Prefaulter oldPrefaulter, MemorySegment oldMapping, SegmentRef oldRef,
            StorageFile fresh, long lastSeq) {
        // the first record a failed sync may have left only in the page cache: those after the old segment's once
        // its data is on the device
        long lost = -1;
        try {
            stop(oldPrefaulter);
            if (oldMapping != null) {
                // the appender is done with these pages: without its page table entries the sync below cleans no
                // mapped page (one TLB shootdown each, on the appender's core too)
                Prefault.release(oldMapping);
            }
            lost = durableSequence() + 1;
            old.force(false);
            lost = lastSeq + 1;
            // the new segment's header, not the pages the appender is writing into it now; its size and records
            // become durable with the first sync that covers them (recovery copes with a new last segment whose
            // size or pages did not survive: none of its records was reported durable)
            fresh.forceRange(0, Format.HEADER_SIZE);
            lost = -1;
            syncDirectory();
            old.write(Format.SEAL_OFFSET, Format.sealMarker(oldRef.firstSeq));
            lost = lastSeq + 1;
            old.forceRange(0, Format.HEADER_SIZE);
            lost = -1;
            advanceDurable(lastSeq);
        } catch (RuntimeException | Error e) {
            if (failure == null) {
                failure = e;
            }
            if (lost >= 0) {
                noteFailedSync(e, lost);
            }
            wakeDurableWaiters();
        } finally {
            try {
                old.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    /** Waits for the previous segment's seal to finish and fails if it failed. Caller holds syncLock. */
    private void awaitSeal() {
        if (joinSeal()) {
            checkUsable();
        }
    }

    /**
     * Waits for the previous segment's seal to finish, interrupts or not. Caller holds syncLock.
     *
     * @return whether there was a seal to wait for
     */
    private boolean joinSeal() {
        Thread s = sealer;
        if (s == null) {
            return false;
        }
        Joins.uninterruptibly(s);
        sealer = null;
        return true;
    }

    /**
     * Lets appends format frames in place when {@code file} maps (and the segment is under 2 GiB), and starts
     * faulting its pages in from {@code from} on (for reading only when {@code forReading}). The previous
     * {@link #prefaulter} must have been handed over.
     */
    private void attachMapping(StorageFile file, SegmentRef seg, long from, boolean forReading) {
        long capacity = seg.capacity;
        mapped = null;
        mappedSegment = null;
        syncedTo = 0;
        prefaulter = null;
        behindFrom = from;
        if (capacity > Integer.MAX_VALUE) {
            return;
        }
        MemorySegment m = file.mapping(capacity);
        if (m != null) {
            mappedSegment = m.asSlice(0, capacity);
            mapped = mappedSegment.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            long start = from & -Prefaulter.PAGE;
            // at every level: a sync writes only the range from the last sync to the tip (syncedTo), never the zero
            // pages the prefaulter dirtied ahead (when syncs wrote the whole segment, a 64 MiB BATCH write at 4 KiB
            // records took 169 ms with the prefaulter, 89 ms without)
            if (start < capacity && options.prefault()) {
                prefaulter = Prefaulter.start(m.asSlice(start, capacity - start), start,
                        () -> {
                            Tip t = tip;
                            return t != null && t.segment() == seg ? t.end() : Format.HEADER_SIZE;
                        // the appender never wakes it: it keeps polling at the busy pace, ready for a burst
                        }, PREFAULT_AHEAD, "iolab-journal-prefault " + dir, forReading, Prefaulter.BUSY_PARK)
                        .guardedBy(prefaultGuard);
            }
        }
    }

    private static void stop(Prefaulter p) {
        if (p != null) {
            p.stop();
        }
    }

    /**
     * Before a sync: drops the appender's page table entries for the whole pages {@code [from, upTo)} of the mapping,
     * which it never writes again ({@link Prefault#release}): the sync then writes them without write-protecting
     * each one (a TLB shootdown per page, on the appender's core too). Caller holds syncLock.
     */
    private void releaseWritten(long from, long upTo) {
        MemorySegment m = mappedSegment;
        if (m != null && upTo > from) {
            Prefault.release(m.asSlice(from, upTo - from));
        }
    }

    /** @return whether a prefaulter runs ahead of the appender, populating pages for reading only (for tests) */
    boolean prefaultsForReading() {
        syncLock.lock();
        try {
            Prefaulter p = prefaulter;
            return p != null && p.isForReading();
        } finally {
            syncLock.unlock();
        }
    }

    /**
     * @param value an argument
     * @param what its name, for the message
     * @return {@code value}
     * @throws IolabException when it is null (the library's one root exception, as the store's arguments do; a
     *     review of the API found NullPointerExceptions here, and a null visitor accepted while nothing was read)
     */
    static <T> T given(T value, String what) {
        if (value == null) {
            throw new IolabException("null " + what + ": give one");
        }
        return value;
    }

    /**
     * The public entry points that do I/O (open, append, sync, deleteBefore, close, a cursor's step, verify, repair)
     * run with a pending interrupt cleared, then give it back here: a {@code FileChannel} call entered with an interrupt pending closes
     * the file for every thread (a sync, a seal, a roll's new segment, a reader's open), and an executor's
     * {@code shutdownNow} made {@code close} fail and leave records unsynced.
     *
     * @param interrupted what {@code Thread.interrupted()} returned on entry
     */
    static void restoreInterrupt(boolean interrupted) {
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Makes every record appended so far durable and advances {@link #durableSequence()}. */
    public void sync() {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            syncNow();
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    private void syncNow() {
        syncLock.lock();
        boolean forcing = false;
        try {
            if (closed && !readOnly && failure == null && tip.nextSeq() - 1 <= durable) {
                return; // a close synced every record, and none can be appended since: nothing to do
            }
            checkUsable();
            awaitSeal();
            // the byte count first: appends publish the tip before the count, so this tip covers at least these
            // bytes, and the count never claims a byte this sync does not write
            long bytes = appendedBytes;
            Tip t = tip;
            if (t.nextSeq() - 1 > durable) {
                active.written(t.end());
                long from = syncedTo;
                long upTo = t.end() & -Prefaulter.PAGE;
                // a mark written since the last sync is in the header's page: this sync covers it too
                long forceFrom = markPending ? 0 : from;
                prefaultGuard.lock();
                try {
                    releaseWritten(from, upTo);
                    forcing = true;
                    active.forceRange(forceFrom, t.end() - forceFrom);
                    forcing = false;
                } finally {
                    prefaultGuard.unlock();
                }
                markPending = false;
                syncedTo = upTo;
                Prefaulter p = prefaulter;
                if (p != null) {
                    // the tip's page, written back and write-protected, and any page ahead another process's sync
                    // or the kernel's write-back cleaned: writable again before the appender stores into it
                    p.synced();
                }
            }
            syncedBytes = bytes;
            moveMark(t.end(), false);
            advanceDurable(t.nextSeq() - 1);
        } catch (RuntimeException | Error e) {
            if (failure == null) {
                failure = e;
            }
            if (forcing) {
                noteFailedSync(e, durable + 1);
            }
            wakeDurableWaiters();
            throw e;
        } finally {
            syncLock.unlock();
        }
    }

    /**
     * After a force (of a sync, a seal, a start marker, or recovery's) that failed: leaves the {@link FailedSync}
     * note, so that the next open cuts the records from {@code firstLost} on, the first one no completed force covers
     * (their pages may be clean in the page cache without being on the device), and writes the records it keeps into
     * new files. Only a failed force: after one that completed, the records are on the device, and a synced mark
     * written then may say so. A note that cannot be written is added to {@code e}.
     */
    private void noteFailedSync(Throwable e, long firstLost) {
        if (readOnly || !SyncFailureNote.writeBackFailed(e) || !syncFailureNoted.compareAndSet(false, true)) {
            return;
        }
        try {
            FailedSync.record(dir, firstLost);
        } catch (RuntimeException x) {
            e.addSuppressed(x);
        }
    }

    private void advanceDurable(long seq) {
        durableLock.lock();
        try {
            if (seq > durable) {
                durable = seq;
                durableChanged.signalAll();
            }
        } finally {
            durableLock.unlock();
        }
    }

    private void wakeDurableWaiters() {
        durableLock.lock();
        try {
            durableChanged.signalAll();
        } finally {
            durableLock.unlock();
        }
    }

    /** @return the highest sequence known to be durable at the journal's level, -1 when none */
    public long durableSequence() {
        return durable;
    }

    /**
     * @return the first sequence the journal holds: 0, or the first record of its oldest segment once
     *         {@link #deleteBefore(long)} deleted the segments before it (read-only: as that writer left it)
     */
    public long firstSequence() {
        pruneDeleted();
        return segments.getFirst().firstSeq;
    }

    /**
     * Deletes the journal's oldest records, whole segments at a time: every segment all of whose records come
     * before {@code seq}. This is how a redo log drops what a checkpoint made redundant, and how an event log keeps
     * a retention window. The segment that holds {@code seq}, and the active (last) segment, stay whole, so records
     * before {@code seq} may remain: {@link #firstSequence()} says where the journal starts now. Sequences are never
     * reused; appends go on from {@link #nextSequence()}.
     *
     * <p>The segment that becomes the first gets the start marker in its header, synced, before any segment goes;
     * then segments are deleted oldest first, each followed by a sync of the directory, so a crash part way leaves a
     * journal whose next open finishes the deletion, never one with a gap, and a first segment lost later is told from
     * a deleted one. Only sealed segments are deleted (the seal of the
     * segment before the active one is waited for): every record deleted was durable. A reader or tailer that is
     * reading a deleted segment reads it to its end (its file stays open); one that reaches a deleted record without
     * having opened its segment fails with an {@link IolabException} naming the first sequence left, and so does
     * {@link #reader(long)} or {@link #tailer(long)} for such a record. Other processes' read-only journals see the
     * same.
     *
     * @param seq the first sequence to keep, from 0 to {@link #nextSequence()}
     * @return the first sequence the journal holds now
     * @throws IolabException when {@code seq} is out of that range, when a segment cannot be deleted (the journal
     *         starts at its new first segment all the same, and the next open deletes the file), or when the journal
     *         is read-only, closed or failed
     */
    public long deleteBefore(long seq) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            return deleteBeforeNow(seq);
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    private long deleteBeforeNow(long seq) {
        syncLock.lock();
        try {
            checkUsable();
            awaitSeal();
            Tip t = tip;
            if (seq < 0 || seq > t.nextSeq()) {
                throw new IolabException("cannot delete the records of journal " + dir + " before sequence " + seq
                        + ": give a sequence from 0 to " + t.nextSeq() + " (the next sequence)");
            }
            int keep = 0;
            while (segments.get(keep) != t.segment() && segments.get(keep + 1).firstSeq <= seq) {
                keep++;
            }
            SegmentRef kept = segments.get(keep);
            if (keep > 0 && !kept.start) {
                markStart(kept, t);
            }
            while (segments.getFirst() != kept) {
                SegmentRef first = segments.getFirst();
                // out of the list before the file goes: a reader that has not opened it finds it deleted, not missing
                segments.remove(first);
                try {
                    Files.deleteIfExists(first.path);
                } catch (IOException e) {
                    // out of the journal all the same, with the others before the marked segment: the marker says
                    // where the journal starts, for every open from now on
                    while (segments.getFirst() != kept) {
                        segments.remove(segments.getFirst());
                    }
                    throw new IolabException("the journal " + dir + " now starts at sequence " + kept.firstSeq
                            + ", but its old segment " + first.path + " could not be deleted (" + e + "): it is no"
                            + " longer read, and the next open deletes it; free the file (permissions, attributes, a"
                            + " process holding it) for that", e);
                }
                syncDirectory();
            }
            return kept.firstSeq;
        } finally {
            syncLock.unlock();
        }
    }

    /**
     * Writes the start marker into the header of {@code ref}, which a deleteBefore is about to make the first
     * segment, and syncs it before any older segment is deleted: an open that finds segments before it knows they are
     * what the deletion left, and one that finds a later first segment without the marker knows segments are missing.
     * Caller holds syncLock.
     */
    private void markStart(SegmentRef ref, Tip t) {
        ByteBuffer marker = Format.startMarker(ref.firstSeq);
        if (ref == t.segment()) {
            active.write(Format.START_OFFSET, marker);
            try {
                active.forceRange(0, Format.HEADER_SIZE);
            } catch (RuntimeException | Error e) {
                // this force covers the records written since the last sync too (an fdatasync of the whole file, or
                // an msync of the page holding the first of them): as after a failed sync, they may be clean pages
                // that never reached the device
                if (failure == null) {
                    failure = e;
                }
                noteFailedSync(e, durable + 1);
                wakeDurableWaiters();
                throw e;
            }
        } else {
            try (StorageFile f = segmentFile(opener.open(ref.path, true), ref.capacity)) {
                f.write(Format.START_OFFSET, marker);
                f.force(false);
            }
        }
        ref.start = true; // its marker stays what it was read as: a reader in the segment before it still follows it
    }

    /** Read-only: drops the oldest segments the writer has deleted since (it never deletes the last). */
    private void pruneDeleted() {
        pruneDeleted(segments);
    }

    private void pruneDeleted(CopyOnWriteArrayList<SegmentRef> segments) {
        if (readOnly) {
            synchronized (refreshLock) {
                while (segments.size() > 1 && !Files.exists(segments.getFirst().path)) {
                    segments.remove(segments.getFirst());
                }
            }
        }
    }

    /**
     * @return the error for a reader that reached record {@code seq} after {@link #deleteBefore(long)} deleted it
     */
    IolabException deleted(long seq) {
        return new IolabException("record " + seq + " of journal " + dir + " was deleted (deleteBefore) before it"
                + " was read: the journal now starts at sequence " + firstSequence() + "; read from there");
    }

    /** @return the sequence the next append gets (the number of records when the journal starts at 0) */
    public long nextSequence() {
        refresh();
        return tip.nextSeq();
    }

    /**
     * Waits until record {@code seq} is durable. With {@link Durability#NONE} it syncs instead of waiting.
     *
     * @param seq an appended record's sequence
     * @throws IolabException when {@code seq} was not appended yet, a sync failed, the journal was closed
     *         before the record became durable, or the thread was interrupted (its interrupt status is kept)
     */
    public void awaitDurable(long seq) {
        if (readOnly) {
            checkUsable(); // throws: a reader cannot tell when the writer syncs
        }
        if (seq <= durable) {
            return;
        }
        if (seq >= tip.nextSeq()) {
            throw new IolabException("cannot wait for record " + seq + " of journal " + dir
                    + " to be durable: it was not appended yet (next sequence " + tip.nextSeq() + ")");
        }
        if (options.durability() == Durability.NONE) {
            sync();
            return;
        }
        durableLock.lock();
        try {
            while (seq > durable) {
                checkUsable();
                durableChanged.await(10, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IolabException("interrupted while waiting for record " + seq + " of journal " + dir
                    + " to be durable");
        } finally {
            durableLock.unlock();
        }
    }

    private void flushLoop() {
        long interval = options.batchInterval().toNanos();
        while (!closed) {
            // a request made while this thread was busy syncing may have had its unpark consumed by a lock the
            // sync waited on: the flag, not the permit, is what says a sync is wanted
            if (!flushRequested) {
                LockSupport.parkNanos(interval);
            }
            if (closed) {
                return;
            }
            flushRequested = false;
            if (tip.nextSeq() - 1 > durable) {
                try {
                    sync();
                } catch (RuntimeException | Error e) {
                    return;
                }
            }
        }
    }

    private void checkUsable() {
        if (readOnly) {
            throw new IolabException("journal " + dir + " was opened read-only: open it with Journal.open to append"
                    + " or sync");
        }
        Throwable f = failure;
        if (f != null) {
            throw new IolabException("journal " + dir + " failed earlier and can no longer append or sync: " + f
                    + "; close it and open it again to recover" + (syncFailureNoted.get() ? " (the open cuts the"
                    + " records no completed sync covers)" : ""), f);
        }
        if (closed) {
            throw new IolabException("journal " + dir + " is closed");
        }
    }

    // ---------------------------------------------------------------- reading

    /**
     * @param fromSeq the first sequence to read, from {@link #firstSequence()} to {@link #nextSequence()}
     * @return a reader of the records from {@code fromSeq} on; close it
     * @throws IolabException when {@code fromSeq} is out of that range
     */
    public JournalReader reader(long fromSeq) {
        return new Reader(new Cursor(this, checkFrom(fromSeq)));
    }

    /**
     * Hands every record from {@code fromSeq} up to the last one appended to {@code visitor}, without copying. Each
     * record's length, sequence and CRC32C are checked before it is handed out; over a mapping ({@code mapped},
     * {@code segment}) a run of at least 1 MiB is checked by a second thread a little ahead of this one (on a machine
     * with two processors or more), which this one waits for. Over those two backends the records are read from a
     * second mapping of each segment that the garbage collector releases, not {@link #close()} or
     * {@link #deleteBefore}: a deleted segment keeps its disk space until a collection. A writer's journal shares one
     * per segment between its readers until a collection finds none reading it; a read-only journal's readers each
     * make their own.
     *
     * @param fromSeq the first sequence to read
     * @param visitor receives each record; returns false to stop
     * @return the number of records visited
     * @throws JournalCorruptedException when a damaged record is reached
     */
    public long read(long fromSeq, RecordVisitor visitor) {
        given(visitor, "visitor");
        try (Cursor c = new Cursor(this, checkFrom(fromSeq))) {
            return c.forEach(visitor);
        }
    }

    /**
     * @param fromSeq the first sequence to return (at most {@link #nextSequence()})
     * @return a tailer that returns the records from {@code fromSeq} on, waiting for new ones; close it
     */
    public Tailer tailer(long fromSeq) {
        return new TailerImpl(this, new Cursor(this, checkFrom(fromSeq)));
    }

    private long checkFrom(long fromSeq) {
        refresh();
        long first = firstSequence();
        long next = tip.nextSeq();
        if (fromSeq < first || fromSeq > next) {
            throw new IolabException("journal " + dir + " has no record " + fromSeq + ": it holds " + first + ".."
                    + (next - 1) + "; read from a sequence in that range (or " + next + " to wait for the next)");
        }
        return fromSeq;
    }

    Tip tip() {
        return tip;
    }

    StorageOpener opener() {
        return opener;
    }

    /**
     * Opens a segment read-only for a reader. A mapped backend's writer of an iolab before {@link #segmentFile} cut
     * the file's zero tail when it sealed a segment, so an open that races with that can fail once; it is retried a
     * few times.
     */
    StorageFile openForRead(Path file) {
        return openForRead(opener, file);
    }

    static StorageFile openForRead(StorageOpener opener, Path file) {
        for (int attempt = 1; ; attempt++) {
            try {
                return opener.open(file, false);
            } catch (IolabException e) {
                if (attempt >= 5) {
                    throw e;
                }
                Thread.yield();
            }
        }
    }

    SegmentRef segmentFor(long seq) {
        Object[] all = segments.toArray();
        int lo = 0;
        int hi = all.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (((SegmentRef) all[mid]).firstSeq <= seq) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return (SegmentRef) all[lo];
    }

    /** @return the segment after {@code ref}, found by sequence: {@code ref} may have been deleted since */
    SegmentRef segmentAfter(SegmentRef ref) {
        for (Object o : segments.toArray()) {
            SegmentRef s = (SegmentRef) o;
            if (s.firstSeq > ref.firstSeq) {
                return s;
            }
        }
        return null;
    }

    /** Wakes the tailers waiting in {@link #awaitAppend}: the journal was closed. */
    private void wakeTailers() {
        appendLock.lock();
        try {
            appended.signalAll();
        } finally {
            appendLock.unlock();
        }
    }

    /** @return whether {@link #close()} was called */
    boolean isClosed() {
        return closed;
    }

    /** Waits up to {@code nanos} for a record {@code seq} to be appended. */
    void awaitAppend(long seq, long nanos) {
        if (readOnly) {
            LockSupport.parkNanos(Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(1)));
            return;
        }
        tailWaiters.incrementAndGet();
        appendLock.lock();
        try {
            if (tip.nextSeq() <= seq && !closed) {
                appended.awaitNanos(Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(50)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            appendLock.unlock();
            tailWaiters.decrementAndGet();
        }
    }

    /** @return the journal directory */
    public Path directory() {
        return dir;
    }

    /** @return the options it was opened with */
    public JournalOptions options() {
        return options;
    }

    /** @return how many segment files the journal has (read-only: less those its writer has deleted since) */
    public int segmentCount() {
        pruneDeleted();
        return segments.size();
    }

    /**
     * Syncs, stops the group-commit thread and releases the files and the lock. Idempotent. Readers and tailers are
     * closed by whoever opened them: one left open keeps its segment file open (and can still read what was
     * appended; a tailer's {@code poll} returns null once the journal is closed).
     */
    @Override
    public void close() {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            closeNow();
        } finally {
            restoreInterrupt(interrupted);
        }
    }

    private void closeNow() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            if (readOnly) {
                closed = true;
                synchronized (refreshLock) {
                    closeRefreshCursor();
                }
                return;
            }
            try {
                if (failure == null) {
                    sync();
                    // every record is durable now: the mark says so (on the device once the kernel writes the page)
                    syncLock.lock();
                    try {
                        moveMark(tip.end(), true);
                    } finally {
                        syncLock.unlock();
                    }
                }
            } finally {
                // under syncLock: a sync that holds it (an appender's, after it released the append lock) reads
                // closed twice, in its early return and in checkUsable; flipping it between the two made that sync
                // throw "closed" for a record this close had just made durable
                syncLock.lock();
                try {
                    closed = true;
                } finally {
                    syncLock.unlock();
                }
                if (flusher != null) {
                    LockSupport.unpark(flusher);
                    try {
                        flusher.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                wakeDurableWaiters();
                wakeTailers();
                syncLock.lock();
                try {
                    joinSeal();
                    stop(prefaulter);
                    prefaulter = null;
                    active.written(tip.end());
                    active.close();
                } finally {
                    syncLock.unlock();
                    for (SegmentRef r : segments) {
                        r.dropLent(); // a closed journal still referenced keeps no mapping (readers' views aside)
                    }
                    FileLocks.release(lock);
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Journal[" + dir + ", next " + tip.nextSeq() + ", durable " + durable + ", " + options + "]";
    }

    private static final class Reader implements JournalReader {
        private final Cursor cursor;
        private boolean ready;

        Reader(Cursor cursor) {
            this.cursor = cursor;
        }

        @Override
        public boolean hasNext() {
            if (!ready) {
                ready = cursor.advance();
            }
            return ready;
        }

        @Override
        public Record next() {
            if (!hasNext()) {
                throw new NoSuchElementException("no record " + cursor.next() + " yet");
            }
            ready = false;
            return record(cursor);
        }

        @Override
        public void close() {
            cursor.close();
        }
    }

    private static Record record(Cursor cursor) {
        ByteBuffer p = cursor.payload();
        byte[] bytes = new byte[p.remaining()];
        p.get(bytes);
        return new Record(cursor.sequence(), bytes);
    }

    private static final class TailerImpl implements Tailer {
        private static final Duration MAX_NANOS = Duration.ofNanos(Long.MAX_VALUE);
        private final Journal journal;
        private final Cursor cursor;

        TailerImpl(Journal journal, Cursor cursor) {
            this.journal = journal;
            this.cursor = cursor;
        }

        @Override
        public Record poll(Duration timeout) {
            given(timeout, "timeout");
            // saturated: a "forever" timeout (ChronoUnit.FOREVER, Duration.ofMillis(Long.MAX_VALUE)) overflowed toNanos
            long nanos = timeout.isNegative() ? 0
                    : timeout.compareTo(MAX_NANOS) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
            long deadline = System.nanoTime() + nanos;
            for (;;) {
                if (cursor.advance()) {
                    return record(cursor);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || Thread.currentThread().isInterrupted()) {
                    return null;
                }
                if (journal.isClosed()) {
                    // a closed journal gets no more records, but the close may have come after advance() read the
                    // tip: every record appended before it is visible now, so look once more
                    return cursor.advance() ? record(cursor) : null;
                }
                journal.awaitAppend(cursor.next(), left);
            }
        }

        @Override
        public long nextSequence() {
            return cursor.next();
        }

        @Override
        public void close() {
            cursor.close();
        }
    }
}
