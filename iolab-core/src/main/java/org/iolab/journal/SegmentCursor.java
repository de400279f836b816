package org.iolab.journal;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.iolab.storage.StorageFile;

/**
 * Walks the records of one segment, in place from the backend's lent mapping ({@link StorageFile#mappedBuffer()})
 * where it has one, else through a bounded buffer. A length field is trusted only after
 * it has been checked against the bytes that may be read, so a corrupt length can neither allocate more than
 * a segment nor read out of bounds.
 */
final class SegmentCursor implements AutoCloseable {
    enum Status { RECORD, END, BAD }

    private static final int CHUNK = 256 * 1024;

    private final StorageOpener opener;
    private final Path path;
    private final long capacity;
    private StorageFile file;
    private final SegmentRef shared;
    private ByteBuffer buf;
    /** A second view of {@link #buf} whose position and limit select the bytes a CRC covers. */
    private ByteBuffer crcView;
    /** A read-only view of {@link #buf} that payloads are sliced from. */
    private ByteBuffer readOnly;
    /**
     * A read-only view of {@link #buf} whose position and limit select the payload handed to a visitor: one view for
     * every record of a run, no allocation per record.
     */
    private ByteBuffer visitView;
    /**
     * The file's first bytes as a read-only, little-endian buffer over a mapping the garbage collector releases
     * ({@link StorageFile#mappedBuffer()}), when the backend has one: records inside it are checked and handed out
     * in place whatever their size, as no access to it pays an arena's acquire and release. Its position and limit
     * never change; {@link #plainCrc} and {@link #plainVisit} are its movable views. Null otherwise: records are
     * then read through {@link #buf}.
     */
    private ByteBuffer plain;
    /** The lent buffer {@link #plain} duplicates: held, so that the segment's reference keeps it while this reads. */
    private ByteBuffer held;
    private ByteBuffer plainCrc;
    private ByteBuffer plainVisit;
    private long bufStart;
    private int bufLen;
    private final CRC32C crc = new CRC32C();
    /** Bytes {@link #fill} reads at most next: {@link #CHUNK}, or less after a {@link #rewind}. */
    private int chunk = CHUNK;
    /** 4 little-endian bytes for {@link #presentWord}, made on first use. */
    private ByteBuffer word;
    /** The file was deleted since it was opened: read on through its descriptor (the mapping ends at its old size). */
    private boolean gone;

    private long pos;
    private long knownSize = -1;
    private long recordStart;
    private long sequence;
    private ByteBuffer payload;
    private String problem;

    SegmentCursor(StorageOpener opener, Path path, long capacity, StorageFile file) {
        this(opener, path, capacity, file, Format.HEADER_SIZE);
    }

    SegmentCursor(StorageOpener opener, Path path, long capacity, StorageFile file, long start) {
        this(opener, path, capacity, file, start, null);
    }

    /**
     * @param shared the segment's reference when its lent mapping may be kept there and shared with later readers
     *        (a writer's own journal, {@link SegmentRef#lent}); null to use the file's own
     */
    SegmentCursor(StorageOpener opener, Path path, long capacity, StorageFile file, long start, SegmentRef shared) {
        this.opener = opener;
        this.path = path;
        this.capacity = capacity;
        this.file = file;
        this.shared = shared;
        this.pos = start;
        setBuffer(ByteBuffer.allocateDirect((int) Math.min(CHUNK, capacity)).order(ByteOrder.LITTLE_ENDIAN));
        attachView();
    }

    private void attachView() {
        ByteBuffer lent = shared != null ? shared.lent(file) : file.mappedBuffer();
        held = lent;
        plain = lent == null ? null : lent.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        plainCrc = lent == null ? null : plain.duplicate();
        plainVisit = lent == null ? null : plain.duplicate();
    }

    private void setBuffer(ByteBuffer b) {
        buf = b;
        crcView = b.duplicate();
        readOnly = b.asReadOnlyBuffer();
        visitView = b.asReadOnlyBuffer();
    }

    /**
     * @return whether the header of the file this cursor reads says its seal had begun (read now, not cached); true
     *     when the header cannot be read (unknown counts as sealed: a deletion is then not taken for a cut)
     */
    boolean sealStarted() {
        ByteBuffer h = Format.readHeader(file);
        return h == null || Format.sealStarted(h);
    }

    Path path() {
        return path;
    }

    /** @return the offset of the next record (after the last one returned) */
    long position() {
        return pos;
    }

    long recordStart() {
        return recordStart;
    }

    long sequence() {
        return sequence;
    }

    /** @return the last record's payload, a read-only view valid until the next call */
    ByteBuffer payload() {
        return payload;
    }

    String problem() {
        return problem;
    }

    /**
     * Reads the record at {@link #position()}.
     *
     * @param limit bytes of the segment that may hold records
     * @param exact true when records are known to fill {@code [header, limit)} exactly (the writer's own tip,
     *        or the end of a segment sealed by this process), false when the end is found by a zero length
     * @return RECORD (see {@link #sequence()}, {@link #payload()}), END, or BAD (see {@link #problem()})
     */
    Status next(long limit, boolean exact) {
        long want = Math.min(limit, capacity);
        if (knownSize < want) {
            knownSize = gone ? capacity : file.size();
            if (knownSize < want && exact) {
                reopen();
                knownSize = gone ? capacity : file.size();
            }
        }
        long lim = Math.min(want, knownSize);
        recordStart = pos;
        if (pos + Format.FRAME_HEADER > lim) {
            if (!exact && knownSize < want && grewPast(knownSize)) {
                return reopenAndRetry(limit, exact);
            }
            if (exact && pos < limit) {
                return bad("the file ends at " + lim + ", before the end of written data at " + limit);
            }
            return Status.END;
        }
        ByteBuffer pl = plain;
        boolean inPlain = pl != null && pos + Format.FRAME_HEADER <= pl.capacity();
        int length;
        if (inPlain && (exact || !pageStart(pos))) {
            length = pl.getInt((int) pos);
        } else if (inPlain) {
            length = presentWord(pos);
        } else {
            fill(pos, Format.FRAME_HEADER, lim, exact);
            length = buf.getInt((int) (pos - bufStart));
        }
        if (length == 0) {
            return exact ? bad("zero length before the end of written data at " + limit) : Status.END;
        }
        if (length < Format.FRAME_HEADER || length > lim - pos) {
            if (!exact && length >= Format.FRAME_HEADER && length <= want - pos && knownSize < want
                    && grewPast(knownSize)) {
                return reopenAndRetry(limit, exact);
            }
            return bad("record length " + Integer.toUnsignedString(length) + " is out of range (at least "
                    + Format.FRAME_HEADER + ", at most the " + (lim - pos) + " bytes left in the segment)");
        }
        if (inPlain && pos + length <= pl.capacity()) {
            return checked(pl, plainCrc, pl, (int) pos, length); // the lent buffer is read-only already
        }
        fill(pos, length, lim, exact);
        return checked(buf, crcView, readOnly, (int) (pos - bufStart), length);
    }

    /**
     * Hands {@code visitor} the records from {@link #position()} on while each lies wholly in the {@linkplain #plain
     * lent buffer} or, without one, in the read buffer, before {@code limit}, with a good CRC and the sequence
     * {@code expected}, then the next one: the loop of a replay, with the checks of {@link #next} and none of its
     * per-record set-up. It stops at the first record that is not so (left for {@link #next}, which reads it or
     * reports what is wrong), or when the visitor says stop; {@link #position()}, {@link #sequence()} and
     * {@link #payload()} then describe the last record handed out.
     *
     * @param limit bytes of the segment that may hold records
     * @param exact true when records are known to fill {@code [header, limit)} (as for {@link #next})
     * @param expected the sequence of the record at {@link #position()}
     * @param visitor what records are handed to
     * @return the number of records handed out, negative ({@code -1 - n}) when the visitor said stop after {@code n}
     *         of them ({@code n >= 1})
     */
    long visitBuffered(long limit, boolean exact, long expected, RecordVisitor visitor) {
        long end = Math.min(Math.min(limit, capacity), knownSize);
        ByteBuffer b;
        ByteBuffer v;
        ByteBuffer view;
        long start;
        ByteBuffer pl = plain;
        if (pl != null && pos + Format.FRAME_HEADER <= pl.capacity()) {
            b = pl;
            v = plainCrc;
            view = plainVisit;
            start = 0;
            end = Math.min(end, pl.capacity());
        } else {
            b = buf;
            v = crcView;
            view = visitView;
            start = bufStart;
            end = Math.min(end, bufStart + bufLen);
        }
        // past the data known to be written, a word at a page start in the mapping is left to next(): it may lie
        // past a tail the writer has cut since (see pageStart)
        boolean guard = !exact && b == pl;
        if (b == pl) {
            StorageFile f = file;
            // from the check's thread: a buffer of its own
            CheckAhead check = CheckAhead.start(pl, pos, end, guard, expected,
                    at -> presentWord(f, at, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)));
            if (check != null) {
                return visitCheckedAhead(check, pl, view, expected, visitor);
            }
        }
        long n = 0;
        long p = pos;
        long at0 = -1;
        while (p >= start && p + Format.FRAME_HEADER <= end && !(guard && pageStart(p))) {
            int at = (int) (p - start);
            int length = b.getInt(at);
            if (length < Format.FRAME_HEADER || length > end - p) {
                break;
            }
            long seq = b.getLong(at + 8);
            if (seq != expected + n || b.getInt(at + 4) != crcOf(v, at, length)) {
                break;
            }
            at0 = p;
            p += Format.align(length);
            n++;
            // big-endian each time, as a slice would be, whatever the last visitor set
            if (!visitor.visit(seq, view.limit(at + length).position(at + Format.FRAME_HEADER)
                    .order(ByteOrder.BIG_ENDIAN))) {
                ranTo(at0, p, expected + n - 1, view);
                return -1 - n;
            }
        }
        if (n > 0) {
            ranTo(at0, p, expected + n - 1, view);
        }
        return n;
    }

    /**
     * {@link #visitBuffered} over the lent mapping {@code b} with the frames' checks done on another thread: hands out
     * each frame once {@code check} has checked it, and stops where the check stopped (the frame there, if any, is
     * left to {@link #next}).
     */
    private long visitCheckedAhead(CheckAhead check, ByteBuffer b, ByteBuffer view, long expected,
            RecordVisitor visitor) {
        long n = 0;
        long p = pos;
        long at0 = -1;
        long ok = p;
        try {
            for (;;) {
                if (p >= ok) {
                    ok = check.awaitPast(p);
                    if (p >= ok) {
                        break;
                    }
                }
                int at = (int) p;
                int length = b.getInt(at);
                if (length < Format.FRAME_HEADER || p + Format.align(length) > ok) {
                    break; // not what was checked: left to next()
                }
                at0 = p;
                p += Format.align(length);
                n++;
                if (!visitor.visit(expected + n - 1, view.limit(at + length).position(at + Format.FRAME_HEADER)
                        .order(ByteOrder.BIG_ENDIAN))) {
                    ranTo(at0, p, expected + n - 1, view);
                    return -1 - n;
                }
            }
        } finally {
            check.stop();
        }
        if (n > 0) {
            ranTo(at0, p, expected + n - 1, view);
        }
        return n;
    }

    /** After a run of {@link #visitBuffered}: its last record starts at {@code last}, the next one at {@code next}. */
    private void ranTo(long last, long next, long seq, ByteBuffer view) {
        recordStart = last;
        pos = next;
        sequence = seq;
        payload = view;
    }

    /** Checks the frame of {@code length} bytes at {@code at} of {@code b} and, when good, makes it current. */
    private Status checked(ByteBuffer b, ByteBuffer crcOver, ByteBuffer sliceFrom, int at, int length) {
        int stored = b.getInt(at + 4);
        int computed = crcOf(crcOver, at, length);
        if (stored != computed) {
            return bad(String.format("record CRC32C mismatch (stored 0x%08x, computed 0x%08x over %d bytes)",
                    stored, computed, length - 8));
        }
        sequence = b.getLong(at + 8);
        payload = sliceFrom.slice(at + Format.FRAME_HEADER, length - Format.FRAME_HEADER);
        pos += Format.align(length);
        return Status.RECORD;
    }

    /** @return the CRC32C a frame of {@code length} bytes at {@code at} should carry (sequence and payload) */
    private int crcOf(ByteBuffer over, int at, int length) {
        crc.reset();
        over.limit(at + length).position(at + 8);
        crc.update(over);
        return (int) crc.getValue();
    }

    private Status bad(String what) {
        problem = what;
        return Status.BAD;
    }

    /**
     * Moves to {@code p} and forgets what was read and the file's size, so that records another process wrote since
     * are read afresh (a read-only journal's {@link Journal#refresh()} keeps one cursor on its tip's segment).
     */
    void rewind(long p) {
        // a poll mostly finds a record or two: read 4 KiB first, not 256 (a pread of 256 KiB cost a channel
        // backend's follower 30 µs a poll), doubling while records keep coming
        chunk = 4096;
        pos = p;
        bufStart = 0;
        bufLen = 0;
        knownSize = -1;
    }

    /**
     * @return whether the length word at {@code p} is set, so that a record may start there: false when it is zero
     *         or past the file's end (what a poll finds while nothing new was written); reads 4 bytes, not a chunk
     */
    boolean lengthSetAt(long p) {
        ByteBuffer pl = plain;
        if (pl != null && p + 4 <= pl.capacity() && !pageStart(p)) {
            return pl.getInt((int) p) != 0;
        }
        return p + 4 <= capacity && presentWord(p) != 0;
    }

    /**
     * Whether {@code p} begins a page. Records end where a writer may cut its file (a mapped writer of an iolab before
     * the journal kept its segments' length trimmed the zero tail when it sealed or closed a segment; a file cut by
     * hand is the same), and a mapping made while the file was longer faults (SIGBUS) on a
     * page wholly past the new end. The word after the last record read lies on such a page only when it begins
     * one: anywhere else its page also holds that record's last bytes. 4096 divides every page size.
     */
    private static boolean pageStart(long p) {
        return (p & 4095) == 0;
    }

    /**
     * @return the little-endian word at {@code p} as the file holds it now, read through its descriptor (never a
     *         mapping, so a cut cannot fault it); 0 past the file's end
     */
    private int presentWord(long p) {
        ByteBuffer w = word;
        if (w == null) {
            w = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            word = w;
        }
        return presentWord(file, p, w.clear());
    }

    /** {@link #presentWord(long)} of {@code f}, read into {@code w} (4 little-endian bytes, cleared). */
    private static int presentWord(StorageFile f, long p, ByteBuffer w) {
        return f.readPresent(p, w) == 4 ? w.getInt(0) : 0;
    }

    /**
     * Makes {@code [p, p + n)} available in the buffer; {@code p + n <= lim}. When not {@code exact}, bytes past the
     * data known to be written are read as the file holds them now ({@link StorageFile#readPresent}), zeros past its
     * end: a mapped read of them could fault on a tail the writer has cut since.
     */
    private void fill(long p, int n, long lim, boolean exact) {
        if (p >= bufStart && p + n <= bufStart + bufLen) {
            return;
        }
        // after a rewind, chunk bytes; else a chunk or the whole buffer, when an earlier record made it larger
        int most = chunk < CHUNK ? chunk : Math.max(CHUNK, buf.capacity());
        int want = (int) Math.max(n, Math.min(most, lim - p));
        chunk = Math.min(CHUNK, chunk * 2);
        if (buf.capacity() < want) {
            setBuffer(ByteBuffer.allocateDirect(want).order(ByteOrder.LITTLE_ENDIAN));
        }
        buf.clear().limit(want);
        if (exact && !gone) {
            file.read(p, buf);
        } else {
            file.readPresent(p, buf);
            MemorySegment.ofBuffer(buf).fill((byte) 0); // past the file's end, from the position on
            buf.position(buf.limit());
        }
        bufStart = p;
        bufLen = want;
    }

    /**
     * A mapped backend's read-only file keeps the size it had when opened: when the record at the cursor lies past
     * that size and the file grew since (a writer growing it in steps, or appending again after its close cut it),
     * the file is opened again, or a follower that keeps this cursor would never see the records there. Asked only
     * at the end of the known size (a {@code stat} a record cost a replay of a cut segment a third of its speed).
     */
    private Status reopenAndRetry(long limit, boolean exact) {
        reopen();
        knownSize = file.size();
        return next(limit, exact);
    }

    /** @return whether the file is now longer than {@code size} (a {@code stat}; false when it cannot be read) */
    private boolean grewPast(long size) {
        try {
            return Files.size(path) > size;
        } catch (IOException e) {
            return false;
        }
    }

    private void reopen() {
        StorageFile fresh;
        try {
            fresh = Journal.openForRead(opener, path);
        } catch (org.iolab.IolabException e) {
            if (Files.exists(path)) {
                throw e;
            }
            gone = true; // deleted (deleteBefore): this descriptor still holds the whole file
            held = null;
            plain = null;
            plainCrc = null;
            plainVisit = null;
            return;
        }
        file.close();
        file = fresh;
        attachView();
    }

    @Override
    public void close() {
        file.close();
    }
}
