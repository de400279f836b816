package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.iolab.storage.StorageFile;

/** The on-disk layout constants and codecs (see {@link Journal} for the drawing). */
final class Format {
    /** "IOLABJNL" read as a little-endian long. */
    static final long MAGIC = 0x4C4E4A42414C4F49L;
    static final int VERSION = 1;
    static final int HEADER_SIZE = 64;
    static final int HEADER_CRC_OFFSET = 32;
    /**
     * Offset in a segment header of the start marker (4 bytes, not covered by the header CRC): {@link #startMarker}
     * when the journal begins at this segment because {@link Journal#deleteBefore} (or a repair) made it the first,
     * {@link #gapMarker} when a repair cut records of the segment before it, zero otherwise. The segment of sequence 0 is a start without it. A first segment that starts later and does not
     * carry it means the segments before it are missing, not deleted.
     */
    static final int START_OFFSET = 36;
    static final int FRAME_HEADER = 16;
    static final int ALIGN = 8;
    /** Smallest segment: the header plus one empty record. */
    static final long MIN_CAPACITY = HEADER_SIZE + FRAME_HEADER;
    /** Largest segment accepted in a header (1 TiB), so a corrupt capacity cannot mislead the reader. */
    static final long MAX_CAPACITY = 1L << 40;
    static final String SUFFIX = ".seg";
    /** Offset in a segment header of the seal marker, written once the whole segment is synced. */
    static final int SEAL_OFFSET = 40;
    /** "SEALEDOK" read as a little-endian long; the marker is this XOR the segment's first sequence. */
    static final long SEAL_MAGIC = 0x4B4F44454C414553L;
    /**
     * Offset in a segment header of the synced mark: 8 bytes, an offset below which every record was synced, then the
     * CRC32C of those 8 bytes and the segment's first sequence (4 bytes), then 4 zero bytes. Written only after a
     * sync covering that offset completed, so whenever it reaches the device it tells the truth; all zeros (a
     * segment never marked, or one written by an older iolab) or a CRC that fails (torn, damaged) means no mark.
     */
    static final int MARK_OFFSET = 48;
    static final int MARK_SIZE = 16;

    private Format() {
    }

    /** @return the name of the segment whose first sequence is {@code firstSeq}: 20 digits, zero-padded, and ".seg" */
    static String fileName(long firstSeq) {
        // sequences are never negative; not String.format: an open names its first segment, and the formatter's
        // first use costs about 100 µs
        String digits = Long.toString(firstSeq);
        return "0".repeat(20 - digits.length()) + digits + SUFFIX;
    }

    /** @return the first sequence encoded in a segment file name, or -1 if it is not a segment name */
    static long parseName(Path file) {
        String name = file.getFileName().toString();
        if (name.length() != 20 + SUFFIX.length() || !name.endsWith(SUFFIX)) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < 20; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
            if (v < 0) {
                return -1;
            }
        }
        return v;
    }

    static long align(long n) {
        return (n + ALIGN - 1) & -ALIGN;
    }

    /** @return the largest payload a segment of {@code capacity} bytes can hold */
    static long maxPayload(long capacity) {
        return ((capacity - HEADER_SIZE) & -ALIGN) - FRAME_HEADER;
    }

    /**
     * @param f a segment file
     * @return its first {@link #HEADER_SIZE} bytes (little-endian), or null when the file is shorter than that
     */
    static ByteBuffer readHeader(StorageFile f) {
        if (f.size() < HEADER_SIZE) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        f.read(0, b);
        return b;
    }

    static ByteBuffer header(long firstSeq, long capacity) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, MAGIC).putInt(8, VERSION).putInt(12, HEADER_SIZE).putLong(16, firstSeq).putLong(24, capacity);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, HEADER_CRC_OFFSET);
        b.putInt(HEADER_CRC_OFFSET, (int) crc.getValue());
        return b;
    }

    /** @return the 8-byte seal marker of the segment whose first sequence is {@code firstSeq} */
    static ByteBuffer sealMarker(long firstSeq) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, SEAL_MAGIC ^ firstSeq);
    }

    /**
     * @return the 16-byte synced mark saying that the records of segment {@code firstSeq} below {@code offset} are
     *     durable; zeros (no mark) when {@code offset} is the header's end or less
     */
    static ByteBuffer syncedMark(long firstSeq, long offset) {
        if (offset <= HEADER_SIZE) {
            return ByteBuffer.allocate(MARK_SIZE);
        }
        ByteBuffer b = ByteBuffer.allocate(MARK_SIZE).order(ByteOrder.LITTLE_ENDIAN).putLong(0, offset)
                .putLong(8, firstSeq);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 16);
        return b.putInt(8, (int) crc.getValue()).putInt(12, 0);
    }

    /**
     * @param b the segment's header (little-endian)
     * @param firstSeq the segment's first sequence
     * @param capacity the segment's capacity
     * @return the offset below which every record of the segment was synced ({@link #HEADER_SIZE} when the header
     *     carries no valid mark): a record there that fails its check is damage, never a torn tail
     */
    static long syncedMark(ByteBuffer b, long firstSeq, long capacity) {
        long offset = b.getLong(MARK_OFFSET);
        if (offset <= HEADER_SIZE || offset > capacity || offset % ALIGN != 0) {
            return HEADER_SIZE;
        }
        ByteBuffer expected = syncedMark(firstSeq, offset);
        return expected.getInt(8) == b.getInt(MARK_OFFSET + 8) ? offset : HEADER_SIZE;
    }

    /**
     * @return true when the header {@code b} (little-endian) shows that the seal marker's write began: the marker,
     *     or other non-zero bytes there (torn by a power loss, or damaged). The marker is written only after the
     *     whole segment was synced, so then every record in it was durable: a record that fails its check is damage,
     *     never a torn tail to cut silently.
     */
    static boolean sealStarted(ByteBuffer b) {
        return b.getLong(SEAL_OFFSET) != 0;
    }

    /**
     * @return the start marker of the segment whose first sequence is {@code firstSeq}: the CRC32C of "IOLABSTART" and
     *     the sequence (8 bytes, little-endian), never 0 (a zero CRC is stored as 1)
     */
    static ByteBuffer startMarker(long firstSeq) {
        CRC32C crc = new CRC32C();
        crc.update("IOLABSTART".getBytes(StandardCharsets.US_ASCII));
        crc.update(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, firstSeq));
        int value = (int) crc.getValue();
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value == 0 ? 1 : value);
    }

    /**
     * @return the gap marker of the segment whose first sequence is {@code firstSeq}, written by a repair that cut the
     *     segment before it: the records from {@code gapStart} (where that segment's records now end) up to
     *     {@code firstSeq} were damaged and are no longer in the journal. The CRC32C of "IOLABGAP" and both sequences
     *     (8 bytes each, little-endian), never 0: it names its gap, so a segment before it that later loses more
     *     records is damage again, not part of the gap.
     */
    static ByteBuffer gapMarker(long firstSeq, long gapStart) {
        CRC32C crc = new CRC32C();
        crc.update("IOLABGAP".getBytes(StandardCharsets.US_ASCII));
        crc.update(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(0, firstSeq).putLong(8, gapStart));
        int value = (int) crc.getValue();
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value == 0 ? 1 : value);
    }

    /**
     * @param marker the segment header's word at {@link #START_OFFSET}
     * @param firstSeq the segment's first sequence
     * @param expected the sequence after the last record of the segment before it
     * @return true when the segment follows on from that one: it starts at {@code expected}, or later with the gap
     *     marker of exactly that gap (a repair cut the records between)
     */
    static boolean follows(int marker, long firstSeq, long expected) {
        return firstSeq == expected || firstSeq > expected && marker == gapMarker(firstSeq, expected).getInt(0);
    }

    /**
     * @param b the segment's header (little-endian, already checked)
     * @param firstSeq the segment's first sequence
     * @return true when the journal may begin at this segment: sequence 0, or the header carries its start marker
     */
    static boolean isStart(ByteBuffer b, long firstSeq) {
        return firstSeq == 0 || b.getInt(START_OFFSET) == startMarker(firstSeq).getInt(0);
    }

    /**
     * @return what is wrong when a journal's first segment {@code file}, which starts at {@code firstSeq} &gt; 0, does
     *     not carry the start marker: the report of {@link Journal#verify}, {@code open}'s exception
     */
    static String missingStart(long firstSeq, ByteBuffer header) {
        String marker = header != null && header.getInt(START_OFFSET) != 0
                ? String.format("its start marker is damaged (0x%08x, expected 0x%08x)", header.getInt(START_OFFSET),
                        startMarker(firstSeq).getInt(0))
                : "it does not carry the start marker that deleteBefore writes";
        return "the journal's first segment starts at sequence " + firstSeq + " and " + marker + ": the segments with"
                + " the records before it are missing (deleted by hand, or lost), or were deleted by an iolab older"
                + " than the marker";
    }

    /** @return true when the header {@code b} (little-endian) carries the seal marker of its segment */
    static boolean sealed(ByteBuffer b, long firstSeq) {
        return b.getLong(SEAL_OFFSET) == (SEAL_MAGIC ^ firstSeq);
    }

    /**
     * Checks a segment header.
     *
     * @param b the first {@link #HEADER_SIZE} bytes, little-endian
     * @param nameSeq the first sequence from the file name
     * @return null when valid, else what is wrong
     */
    static String checkHeader(ByteBuffer b, long nameSeq) {
        if (b.getLong(0) == 0 && b.getLong(8) == 0 && b.getLong(24) == 0 && b.getInt(HEADER_CRC_OFFSET) == 0) {
            return "the segment header is all zeros (a segment whose creation was interrupted)";
        }
        if (b.getLong(0) != MAGIC) {
            return String.format("bad magic 0x%016x (expected 0x%016x 'IOLABJNL'): not a journal segment",
                    b.getLong(0), MAGIC);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.duplicate().position(0).limit(HEADER_CRC_OFFSET));
        if ((int) crc.getValue() != b.getInt(HEADER_CRC_OFFSET)) {
            return String.format("segment header CRC32C mismatch (stored 0x%08x, computed 0x%08x)",
                    b.getInt(HEADER_CRC_OFFSET), (int) crc.getValue());
        }
        if (b.getInt(8) != VERSION) {
            return "unsupported format version " + b.getInt(8) + " (this iolab reads version " + VERSION + ")";
        }
        if (b.getInt(12) != HEADER_SIZE) {
            return "bad header size " + b.getInt(12) + " (expected " + HEADER_SIZE + ")";
        }
        if (b.getLong(16) != nameSeq) {
            return "header says first sequence " + b.getLong(16) + " but the file name says " + nameSeq;
        }
        long cap = b.getLong(24);
        if (cap < MIN_CAPACITY || cap > MAX_CAPACITY || cap % ALIGN != 0) {
            return "bad segment capacity " + cap;
        }
        return null;
    }

    /**
     * @return true when {@code b} (little-endian) is an intact header of a format version this iolab does not read:
     *     the magic and the header CRC hold, the version differs
     */
    static boolean newerVersion(ByteBuffer b) {
        CRC32C crc = new CRC32C();
        crc.update(b.duplicate().position(0).limit(HEADER_CRC_OFFSET));
        return b.getLong(0) == MAGIC && (int) crc.getValue() == b.getInt(HEADER_CRC_OFFSET) && b.getInt(8) != VERSION;
    }

    static int crc(long seq, ByteBuffer payload) {
        CRC32C crc = new CRC32C();
        byte[] s = new byte[8];
        for (int i = 0; i < 8; i++) {
            s[i] = (byte) (seq >>> (8 * i));
        }
        crc.update(s, 0, 8);
        crc.update(payload.duplicate());
        return (int) crc.getValue();
    }
}
