package org.iolab.journal;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.iolab.storage.StorageFile;

/**
 * Walks the records of one segment, reading through a bounded buffer. A length field is trusted only after
 * it has been checked against the bytes that may be read, so a corrupt length can neither allocate more than
 * a segment nor read out of bounds.
 */
final class SegmentCursor implements AutoCloseable {
    enum Status { RECORD, END, BAD }

    private static final int CHUNK = 256 * 1024;
    /**
     * Records at least this long are checked and handed out straight from the file's mapping when the backend
     * maps (no copy); shorter ones are read through the buffer, where a CRC does not pay the mapping's
     * per-call arena acquire and release.
     */
    private static final int ZERO_COPY_MIN = 4096;

    private final StorageOpener opener;
    private final Path path;
    private final long capacity;
    private StorageFile file;
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
    /** The file's mapping (little-endian), when the backend maps and it is under 2 GiB; else null. */
    private ByteBuffer mapped;
    private ByteBuffer mappedCrc;
    /**
     * The file's first window as a read-only, little-endian buffer over a mapping the garbage collector releases
     * ({@link StorageFile#mappedBuffer()}), when the backend has one: records inside it are checked and handed out
     * in place whatever their size, as no access to it pays an arena's acquire and release. Its position and limit
     * never change; {@link #plainCrc} and {@link #plainVisit} are its movable views. Null otherwise.
     */
    private ByteBuffer plain;
    private ByteBuffer plainCrc;
    private ByteBuffer plainVisit;
    private long bufStart;
    private int bufLen;
    private final CRC32C crc = new CRC32C();

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
        this.opener = opener;
        this.path = path;
        this.capacity = capacity;
        this.file = file;
        this.pos = start;
        setBuffer(ByteBuffer.allocateDirect((int) Math.min(CHUNK, capacity)).order(ByteOrder.LITTLE_ENDIAN));
        attachView();
    }

    private void attachView() {
        mapped = null;
        mappedCrc = null;
        plain = null;
        plainCrc = null;
        plainVisit = null;
        ByteBuffer direct = file.mappedBuffer();
        if (direct != null) {
            plain = direct.order(ByteOrder.LITTLE_ENDIAN);
            plainCrc = plain.duplicate();
            plainVisit = plain.duplicate();
            return;
        }
        MemorySegment view = file.view();
        if (view != null && view.byteSize() <= Integer.MAX_VALUE) {
            mapped = view.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            mappedCrc = mapped.duplicate();
        }
    }

    private void setBuffer(ByteBuffer b) {
        buf = b;
        crcView = b.duplicate();
        readOnly = b.asReadOnlyBuffer();
        visitView = b.asReadOnlyBuffer();
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
        long lim = Math.min(limit, capacity);
        if (knownSize < lim) {
            knownSize = file.size();
            if (exact && knownSize < lim) {
                reopen();
                knownSize = file.size();
            }
        }
        lim = Math.min(lim, knownSize);
        recordStart = pos;
        if (pos + Format.FRAME_HEADER > lim) {
            if (exact && pos < limit) {
                return bad("the file ends at " + lim + ", before the end of written data at " + limit);
            }
            return Status.END;
        }
        ByteBuffer pl = plain;
        if (pl != null && pos + Format.FRAME_HEADER <= pl.capacity()) {
            int length = pl.getInt((int) pos);
            Status wrong = checkLength(length, lim, limit, exact);
            if (wrong != null) {
                return wrong;
            }
            if (pos + length <= pl.capacity()) {
                return checked(pl, plainCrc, pl, (int) pos, length);
            }
            fill(pos, length, lim);
            return checked(buf, crcView, readOnly, (int) (pos - bufStart), length);
        }
        ByteBuffer m = mapped;
        boolean inView = m != null && pos + Format.FRAME_HEADER <= m.capacity();
        int length;
        if (pos >= bufStart && pos + Format.FRAME_HEADER <= bufStart + bufLen) {
            // small records: the header is already in the buffer (a read through the mapping's view costs more)
            length = buf.getInt((int) (pos - bufStart));
        } else if (inView) {
            length = m.getInt((int) pos);
        } else {
            fill(pos, Format.FRAME_HEADER, lim);
            length = buf.getInt((int) (pos - bufStart));
        }
        Status wrong = checkLength(length, lim, limit, exact);
        if (wrong != null) {
            return wrong;
        }
        if (inView && length >= ZERO_COPY_MIN && pos + length <= m.capacity()) {
            return checked(m, mappedCrc, m, (int) pos, length); // the view is read-only already
        }
        fill(pos, length, lim);
        return checked(buf, crcView, readOnly, (int) (pos - bufStart), length);
    }

    /** @return END or BAD when {@code length}, read at {@link #position()}, cannot start a record there; else null */
    private Status checkLength(int length, long lim, long limit, boolean exact) {
        if (length == 0) {
            return exact ? bad("zero length before the end of written data at " + limit) : Status.END;
        }
        if (length < Format.FRAME_HEADER || length > lim - pos) {
            return bad("record length " + Integer.toUnsignedString(length) + " is out of range (at least "
                    + Format.FRAME_HEADER + ", at most the " + (lim - pos) + " bytes left in the segment)");
        }
        return null;
    }

    /**
     * Hands {@code visitor} the records from {@link #position()} on while each lies wholly in the {@linkplain #plain
     * plain mapping} (any size) or, without one, in the read buffer (shorter than {@link #ZERO_COPY_MIN}), before
     * {@code limit}, with a good CRC and the sequence {@code expected}, then the
     * next one: the loop of a replay, with the checks of {@link #next} and none of its per-record set-up. It stops
     * at the first record that is not so (left for {@link #next}, which reads it or reports what is wrong), or when
     * the visitor says stop; {@link #position()}, {@link #sequence()} and {@link #payload()} then describe the last
     * record handed out.
     *
     * @return the number of records handed out, negative ({@code -1 - n}) when the visitor said stop after {@code n}
     *         of them ({@code n >= 1})
     */
    long visitBuffered(long limit, long expected, RecordVisitor visitor) {
        long end = Math.min(Math.min(limit, capacity), knownSize);
        ByteBuffer b;
        ByteBuffer v;
        ByteBuffer view;
        long start;
        int maxLength;
        ByteBuffer pl = plain;
        if (pl != null && pos + Format.FRAME_HEADER <= pl.capacity()) {
            b = pl;
            v = plainCrc;
            view = plainVisit;
            start = 0;
            end = Math.min(end, pl.capacity());
            maxLength = Integer.MAX_VALUE;
        } else {
            b = buf;
            v = crcView;
            view = visitView;
            start = bufStart;
            end = Math.min(end, bufStart + bufLen);
            maxLength = ZERO_COPY_MIN - 1;
        }
        long n = 0;
        long p = pos;
        long at0 = -1;
        while (p >= start && p + Format.FRAME_HEADER <= end) {
            int at = (int) (p - start);
            int length = b.getInt(at);
            if (length < Format.FRAME_HEADER || length > maxLength || length > end - p) {
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

    /** Makes {@code [p, p + n)} available in the buffer; {@code p + n <= lim}. */
    private void fill(long p, int n, long lim) {
        if (p >= bufStart && p + n <= bufStart + bufLen) {
            return;
        }
        int want = (int) Math.max(n, Math.min(Math.max(CHUNK, buf.capacity()), lim - p));
        if (buf.capacity() < want) {
            setBuffer(ByteBuffer.allocateDirect(want).order(ByteOrder.LITTLE_ENDIAN));
        }
        buf.clear().limit(want);
        file.read(p, buf);
        bufStart = p;
        bufLen = want;
    }

    private void reopen() {
        file.close();
        file = Journal.openForRead(opener, path);
        attachView();
    }

    @Override
    public void close() {
        file.close();
    }
}
