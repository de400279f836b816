package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import org.iolab.storage.StorageFile;

/**
 * Finds, for {@link Journal#repair}, the intact records after a damaged one: only when the damaged record's header is
 * intact (a length that fits and the sequence expected there: the damage is in its payload or CRC, as a flipped bit
 * leaves it), at the place its length gives, a run of frames with consecutive sequences and good CRCs that ends the
 * segment's data (only zeros after it, to the end of the file) and, in a segment that has a successor, leads into it
 * (its last sequence is the one before the successor's first, or before the gap the successor's marker names). In the
 * last segment ({@link #findLast}) the run's end also tells exactly how many records the journal held.
 *
 * <p>Why no wider search: a record's payload may hold images of frames (a journal of another journal's frames, a copy
 * of segment bytes), with any sequence, the damaged records' own included. When the damage destroyed a header, an
 * image of its record inside the payload that follows can chain into the real records after it exactly as the real
 * frame did, and nothing in the format tells them apart: three reviews each had a search that returned such an image as
 * a record. The place an intact header gives is outside its own payload, so an image cannot be taken there. The CRC
 * does not cover the length, though: a flipped length bit looks intact, so the repair first checks that the stored CRC
 * holds at no other length followed by the next frame ({@link #lengthWasTheDamage}). Damage that destroys a header (a
 * zeroed page, a garbage length, a file cut short) therefore costs the rest of its segment; a flipped payload bit costs
 * its record. Damage to a record's length and payload together, landing its length on an image, cannot be told from
 * the real record by this format (a version whose CRC covered the length could).
 */
final class RunFinder {
    /** The payloads' buffer (their CRCs). */
    private static final int CHUNK = 1 << 20;
    /** The headers' window, for a chain walked frame by frame. */
    private static final int WINDOW = 64 << 10;

    private final StorageFile file;
    private final long size;
    /**
     * The sequence the run must end before: the successor's first, or the start of the gap its marker names (the
     * gap's sequences were cut from this segment before: a frame here that claims one is an image); -1 in the last
     * segment, where the run ends where the data does.
     */
    private final long endSeq;
    private final ByteBuffer window = ByteBuffer.allocateDirect(WINDOW).order(ByteOrder.LITTLE_ENDIAN);
    private long windowStart = -1;
    private long windowEnd = -1;
    private final ByteBuffer payloads = ByteBuffer.allocateDirect(CHUNK);
    private final CRC32C crc = new CRC32C();
    private final byte[] seqBytes = new byte[8];
    /** The sequence after the last record of the run {@link #chain} accepted. */
    private long runNext;

    private RunFinder(StorageFile file, long endSeq) {
        this.file = file;
        this.size = file.size();
        this.endSeq = endSeq;
    }

    /**
     * @param file the damaged segment
     * @param damage the offset of the damaged record
     * @param gapStart the sequence of the damaged record (the first one lost)
     * @param next the successor's first sequence
     * @param nextMarker the successor header's word at {@link Format#START_OFFSET}
     * @return {offset of the run, its first sequence, the end of its data, the sequence after its last}, or null when
     *     there is none
     */
    static long[] find(StorageFile file, long damage, long gapStart, long next, int nextMarker) {
        long endSeq = next;
        for (long g = gapStart; nextMarker != 0 && g < next; g++) {
            if (Format.gapMarker(next, g).getInt(0) == nextMarker) {
                endSeq = g; // at most one CRC of 24 bytes per sequence of this segment's
                break;
            }
        }
        RunFinder r = new RunFinder(file, endSeq);
        if (damage + Format.FRAME_HEADER > r.size) {
            return null;
        }
        int length = r.intAt(damage);
        if (length < Format.FRAME_HEADER || length > r.size - damage || r.longAt(damage + 8) != gapStart) {
            return null; // the damaged record's header is not intact: where the next record begins is unknown
        }
        if (r.lengthWasTheDamage(damage, length, gapStart)) {
            return null; // its CRC holds at another length: where the next record begins is not what it says
        }
        long p = damage + Format.align(length);
        if (p + Format.FRAME_HEADER > r.size || gapStart + 1 >= endSeq) {
            return null; // no record after it in this segment
        }
        long end = r.chain(p, gapStart + 1);
        return end < 0 ? null : new long[] {p, gapStart + 1, end, r.runNext};
    }

    /**
     * {@link #find} for the last segment, which has no successor to lead into: the run only has to end the data, and
     * may be empty (the damaged record was the last).
     *
     * @param file the damaged segment, the journal's last
     * @param damage the offset of the damaged record
     * @param gapStart the sequence of the damaged record
     * @param mark the segment's synced mark: records were synced up to there, so a run that ends before it (zeros or
     *     the file's end where records were) does not count them
     * @return {offset of the run, its first sequence, the end of its data, the sequence after its last} (the last two
     *     the run's offset and first sequence when it is empty), or null when the damaged record's header is not intact
     *     or what follows it is not such a run: then how many records the damage destroyed is unknown
     */
    static long[] findLast(StorageFile file, long damage, long gapStart, long mark) {
        RunFinder r = new RunFinder(file, -1);
        if (damage + Format.FRAME_HEADER > r.size) {
            return null;
        }
        int length = r.intAt(damage);
        if (length < Format.FRAME_HEADER || length > r.size - damage || r.longAt(damage + 8) != gapStart
                || r.lengthWasTheDamage(damage, length, gapStart)) {
            return null;
        }
        long p = damage + Format.align(length);
        long end = r.chain(p, gapStart + 1);
        return end < 0 || end < mark ? null : new long[] {p, gapStart + 1, end, r.runNext};
    }

    /**
     * @param file a segment
     * @param p the offset of a record of a run {@link #findLast} found
     * @param seq its sequence
     * @param target a later sequence of the run
     * @return the offset of record {@code target}, walked by the run's lengths (checked when the run was found)
     */
    static long offsetOf(StorageFile file, long p, long seq, long target) {
        RunFinder r = new RunFinder(file, -1);
        for (long s = seq; s < target; s++) {
            p += Format.align(r.intAt(p));
        }
        return p;
    }

    /**
     * The CRC does not cover a frame's length, so a flipped length bit leaves a header that looks intact and points
     * elsewhere, into the record's own payload for one (where an image of the next frame may lie: a fifth review had
     * it rescued as that record). Checks whether the damaged record's stored CRC holds over its sequence and payload
     * at another length, one after which a frame of the next sequence begins (or the data ends): then the length was
     * the damage. One pass of CRC32C over the rest of the segment, byte by byte.
     */
    private boolean lengthWasTheDamage(long damage, int claimed, long gapStart) {
        int stored = intAt(damage + 4);
        CRC32C running = new CRC32C();
        long from = damage + 8;
        for (long q = from; q < size; ) {
            int n = (int) Math.min(CHUNK, size - q);
            file.read(q, payloads.clear().limit(n));
            for (int i = 0; i < n; i++) {
                running.update(payloads.get(i));
                long end = q + i + 1;
                if (end - damage >= Format.FRAME_HEADER && end - damage != claimed
                        && (int) running.getValue() == stored && nextFrameAt(Format.align(end), gapStart + 1)) {
                    return true;
                }
            }
            q += n;
        }
        return false;
    }

    /** @return whether a frame header of sequence {@code seq} begins at {@code p}, or the data ends there */
    private boolean nextFrameAt(long p, long seq) {
        if (p + Format.FRAME_HEADER > size) {
            return true;
        }
        int length = intAt(p);
        return length == 0 || length >= Format.FRAME_HEADER && length <= size - p && longAt(p + 8) == seq;
    }

    /** @return the end of the data when the chain from {@code start} (sequence {@code seq}) is the run, else -1 */
    private long chain(long start, long seq) {
        // headers first: lengths, sequences, where the data ends (cheap); then the CRCs, which cost the payloads
        long p = start;
        long expected = seq;
        long end;
        for (;;) {
            if (p + Format.FRAME_HEADER > size) {
                end = p; // fewer than a frame header's bytes left: the data ends here
                break;
            }
            int length = intAt(p);
            if (length == 0) {
                end = p;
                break;
            }
            if (length < Format.FRAME_HEADER || length > size - p || longAt(p + 8) != expected
                    || endSeq >= 0 && expected >= endSeq) {
                return -1;
            }
            p += Format.align(length);
            expected++;
        }
        // with a successor the run leads into it (and holds a record); in the last segment it only ends the data
        boolean leadsOn = endSeq < 0 || expected != seq && expected == endSeq;
        if (!leadsOn || Verifier.firstNonZero(file, end, size) >= 0) {
            return -1;
        }
        p = start;
        for (long s = seq; s < expected; s++) {
            int length = intAt(p);
            if (crcOf(p, s, length) != intAt(p + 4)) {
                return -1;
            }
            p += Format.align(length);
        }
        runNext = expected;
        return end;
    }

    private int crcOf(long p, long seq, int length) {
        crc.reset();
        for (int i = 0; i < 8; i++) {
            seqBytes[i] = (byte) (seq >>> (8 * i));
        }
        crc.update(seqBytes, 0, 8);
        long from = p + Format.FRAME_HEADER;
        long to = p + length;
        if (length <= WINDOW) {
            // a frame the headers' window holds (most): read with them, not by a read of its own
            cover(from, (int) (to - from));
            int at = (int) (from - windowStart);
            crc.update(window.duplicate().limit(at + (int) (to - from)).position(at));
            return (int) crc.getValue();
        }
        while (from < to) {
            int n = (int) Math.min(CHUNK, to - from);
            file.read(from, payloads.clear().limit(n));
            crc.update(payloads.flip());
            from += n;
        }
        return (int) crc.getValue();
    }

    private int intAt(long p) {
        cover(p, 4);
        return window.getInt((int) (p - windowStart));
    }

    private long longAt(long p) {
        cover(p, 8);
        return window.getLong((int) (p - windowStart));
    }

    /** Makes {@code [p, p + n)} (n at most the window's size, within the file) readable in the window. */
    private void cover(long p, int n) {
        if (p >= windowStart && p + n <= windowEnd) {
            return;
        }
        int length = (int) Math.min(WINDOW, size - p);
        window.clear().limit(length);
        file.read(p, window);
        window.clear();
        windowStart = p;
        windowEnd = p + length;
    }
}
