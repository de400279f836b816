package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.BitSet;
import java.util.zip.CRC32C;
import org.iolab.storage.StorageFile;

/**
 * Finds, for {@link Journal#repair}, the intact records after damage in a segment that has a successor: the run of
 * frames with consecutive sequences and good CRCs that begins at the first 8-byte boundary after the damage where one
 * begins, ends the segment's data (only zeros follow it, to the end of the file) and leads into the successor (its
 * last sequence is the one before the successor's first, or before a gap the successor's marker names).
 *
 * <p>Why a frame image cannot pass: a copy of frames inside a damaged record's payload ends where the payload ends,
 * and real records follow it; to end the data its chain would have to run over those records, whose bytes its
 * lengths and CRCs would have to match by chance. A chain that ends at zeros inside a payload is no run (a review
 * had the repair return such images as records).
 *
 * <p>Cost: each chain is walked first by its headers (lengths, sequences, the end), then, when that holds, by its
 * CRCs, through one window over the file. A frame that passed its checks on a chain that failed is remembered, as is
 * one that fails its own: a chain that reaches either fails the same way, so each frame start is followed once (many
 * frame-like words in a payload, or two damages apart, cost linear time).
 */
final class RunFinder {
    /** The candidates' buffer, and the payloads' (their CRCs). */
    private static final int CHUNK = 1 << 20;
    /**
     * The headers' window, for chains walked frame by frame.
     */
    private static final int WINDOW = 64 << 10;
    /** What a jump reads: a frame header and a little more. */
    private static final int JUMP = 64;

    private final StorageFile file;
    private final long size;
    private final long damage;
    /**
     * The sequence the run must end before: the successor's first, or the start of the gap its marker names (the
     * gap's sequences were cut from this segment before: a frame here that claims one is an image).
     */
    private final long endSeq;
    /** Frame starts, in 8-byte steps from {@link #damage}, on chains that failed, or that fail their own checks. */
    private final BitSet failed = new BitSet();
    /** The chain walks' window over the headers, and {@link #fail}'s (so a walk back does not move the other). */
    private final Window walk = new Window();
    private final Window back = new Window();
    private final ByteBuffer payloads = ByteBuffer.allocateDirect(CHUNK);
    /** The last zero check: {@code [zerosFrom, nonZeroAt)} holds only zeros ({@code nonZeroAt} = size: to the end). */
    private long zerosFrom = -1;
    private long nonZeroAt = -1;
    private final CRC32C crc = new CRC32C();
    private final byte[] seqBytes = new byte[8];
    /** The sequence after the last record of the chain {@link #chain} accepted. */
    private long runNext;

    private RunFinder(StorageFile file, long damage, long endSeq) {
        this.file = file;
        this.size = file.size();
        this.damage = damage;
        this.endSeq = endSeq;
    }

    /**
     * @param file the damaged segment
     * @param damage the offset of the damage (a frame start)
     * @param gapStart the sequence of the first record lost (the damaged one)
     * @param next the successor's first sequence
     * @param nextMarker the successor header's word at {@link Format#START_OFFSET}
     * @return {offset of the run, its first sequence, the end of its data, the sequence after its last}, or null when
     *     there is none (also for a segment over 16 GiB, whose frame starts the bitset cannot count)
     */
    static long[] find(StorageFile file, long damage, long gapStart, long next, int nextMarker) {
        long endSeq = next;
        for (long g = gapStart; nextMarker != 0 && g < next; g++) {
            if (Format.gapMarker(next, g).getInt(0) == nextMarker) {
                endSeq = g; // at most one CRC of 24 bytes per sequence of this segment's
                break;
            }
        }
        RunFinder r = new RunFinder(file, damage, endSeq);
        if ((r.size - damage) / Format.ALIGN >= Integer.MAX_VALUE) {
            return null;
        }
        // the candidates are read through a buffer of their own: the chains move the window far ahead
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK + Format.FRAME_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        for (long base = damage + Format.ALIGN; base + Format.FRAME_HEADER <= r.size; base += CHUNK) {
            int n = (int) Math.min(chunk.capacity(), r.size - base);
            file.read(base, chunk.clear().limit(n));
            for (int i = 0; i + Format.FRAME_HEADER <= n && i < CHUNK; i += Format.ALIGN) {
                long p = base + i;
                int length = chunk.getInt(i);
                long seq = chunk.getLong(i + 8);
                if (length >= Format.FRAME_HEADER && length <= r.size - p && seq > gapStart && seq < r.endSeq
                        && !r.failed.get(r.index(p))) {
                    long end = r.chain(p, seq);
                    if (end >= 0) {
                        return new long[] {p, seq, end, r.runNext};
                    }
                }
            }
        }
        return null;
    }

    private int index(long p) {
        return (int) ((p - damage) / Format.ALIGN);
    }

    /** @return the end of the data when the chain from {@code start} (sequence {@code seq}) is the run, else -1 */
    private long chain(long start, long seq) {
        // headers first: lengths, sequences, where the data ends
        long p = start;
        long expected = seq;
        long end;
        for (;;) {
            if (p + Format.FRAME_HEADER > size) {
                end = p; // fewer than a frame header's bytes left: the data ends here
                break;
            }
            if (p != start && failed.get(index(p))) {
                return fail(start, p); // a chain through it failed: this one does the same from there
            }
            int length = walk.intAt(p);
            if (length == 0) {
                end = p;
                break;
            }
            if (length < Format.FRAME_HEADER || length > size - p) {
                failed.set(index(p)); // fails whatever leads to it
                return fail(start, p);
            }
            if (walk.longAt(p + 8) != expected || expected >= endSeq) {
                return fail(start, p); // another chain may still pass through p itself, with its own sequence
            }
            p += Format.align(length);
            expected++;
        }
        if (expected != endSeq || !zerosToTheEnd(end)) {
            return fail(start, end);
        }
        // then the CRCs, which cost the payloads' length
        p = start;
        for (long s = seq; s < expected; s++) {
            int length = walk.intAt(p);
            int stored = walk.intAt(p + 4);
            if (crcOf(p, s, length) != stored) {
                failed.set(index(p)); // fails whatever leads to it
                return fail(start, p); // the frames after it are on no failed chain yet: not marked
            }
            p += Format.align(length);
        }
        runNext = expected;
        return end;
    }

    /**
     * Remembers the frames of the chain from {@code start} before {@code stop} as failed: each one's chain runs
     * through {@code stop}, where this one failed.
     *
     * @return -1
     */
    private long fail(long start, long stop) {
        for (long p = start; p < stop; ) {
            failed.set(index(p));
            p += Format.align(back.intAt(p));
        }
        return -1;
    }

    /** @return whether only zeros follow {@code from} up to the end of the file */
    private boolean zerosToTheEnd(long from) {
        if (from >= zerosFrom && from <= nonZeroAt && zerosFrom >= 0) {
            return nonZeroAt == size;
        }
        long nonZero = Verifier.firstNonZero(file, from, size);
        zerosFrom = from;
        nonZeroAt = nonZero < 0 ? size : nonZero;
        return nonZero < 0;
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
            crc.update(walk.bytes(from, (int) (to - from)));
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

    /**
     * A window over the file for reading frame headers: refilled whole when a read follows it (a chain walked frame by
     * frame), with only a few bytes after a jump (a candidate that claims megabytes), so that candidates cost their
     * headers, not windows.
     */
    private final class Window {
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(WINDOW).order(ByteOrder.LITTLE_ENDIAN);
        private long start = -1;
        private long end = -1;

        /** @return the little-endian int at {@code p} (8-byte aligned, with a frame header's bytes in the file) */
        int intAt(long p) {
            cover(p, Format.FRAME_HEADER);
            return buffer.getInt((int) (p - start));
        }

        /** @return a view of the {@code n} bytes at {@code p} (at most a window's, within the file) */
        ByteBuffer bytes(long p, int n) {
            cover(p, n);
            int at = (int) (p - start);
            return buffer.duplicate().limit(at + n).position(at);
        }

        long longAt(long p) {
            cover(p, 8);
            return buffer.getLong((int) (p - start));
        }

        private void cover(long p, int n) {
            if (p >= start && p + n <= end) {
                return;
            }
            boolean onward = p >= start && p < end + WINDOW;
            int length = (int) Math.min(onward ? WINDOW : Math.max(n, JUMP), size - p);
            buffer.clear().limit(length);
            file.read(p, buffer);
            buffer.clear();
            start = p;
            end = p + length;
        }
    }
}
