package org.iolab.store;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.iolab.storage.StorageFile;

/**
 * Walks the slots of a data file front to back in large chunks: header words checked against the data end
 * before anything is read or allocated, every slot's CRC checked. The chunks are heap buffers, copied from the file's
 * mapping in bulk when there is one, else read.
 */
final class Scanner {
    private static final int CHUNK = 1 << 20;

    /** What the walk found, slot by slot. */
    interface Sink {
        /**
         * A valid live slot. {@code b} holds it at {@code at}, valid during the call.
         */
        void live(long offset, int slotLength, long seq, ByteBuffer b, int at, int keyLength, int valueLength);

        /** A valid hole, or debris treated as one ({@code seq} -1: never acknowledged, or torn). */
        void free(long offset, int slotLength, long seq);

        /**
         * A damaged region: {@code [offset, offset + length)} holds no valid slot.
         *
         * @return true to go on after it (verify, repair), false to stop the walk
         */
        boolean damaged(long offset, long length, String what);
    }

    /**
     * How the walk treats what it finds.
     *
     * @param zeroEndsFrom a zero header word at or after this offset ends the data (a crash-recovery walk without a
     *        trusted data end; {@code Long.MAX_VALUE}: never)
     * @param crashDebris a slot with a bad CRC that a crash explains becomes a hole instead of damage: a FREE header
     *        being rewritten, or a live slot written after the checkpoint ({@code seq > debrisAbove})
     * @param debrisAbove see {@code crashDebris}; also: live slots with a sequence above {@code maxSeq} are debris
     * @param maxSeq live slots with a higher sequence were never acknowledged (lost from the redo log): holes
     * @param resync after damage, search forward (8 bytes at a time) for the next valid slot
     */
    record Policy(long zeroEndsFrom, boolean crashDebris, long debrisAbove, long maxSeq, boolean resync) {
    }

    private final StorageFile file;
    private final Path path;
    private final MemorySegment map;
    private final CRC32C crc = new CRC32C();
    private ByteBuffer buf;
    private long bufStart;
    private int bufLength;
    private long limit;

    Scanner(StorageFile file) {
        this(file, null);
    }

    /**
     * @param map the file's mapping, or null; must stay valid during the walk (no remapping write meanwhile)
     */
    Scanner(StorageFile file, MemorySegment map) {
        this.file = file;
        this.path = file.path();
        this.map = map;
    }

    /** Makes {@code [pos, pos + n)} available in {@link #buf}; returns its index there. */
    private int ensure(long pos, int n) {
        if (buf != null && pos >= bufStart && pos + n <= bufStart + bufLength) {
            return (int) (pos - bufStart);
        }
        if (buf == null || n > buf.capacity()) {
            buf = ByteBuffer.wrap(new byte[Math.max(CHUNK, Slots.align(n))]).order(ByteOrder.LITTLE_ENDIAN);
        }
        int len = (int) Math.min(buf.capacity(), limit - pos);
        if (map != null && limit <= map.byteSize()) {
            // one bulk copy per chunk: the CRCs then run over heap bytes (a CRC over a direct view of the shared
            // mapping acquires and releases it, two atomic operations per call)
            MemorySegment.copy(map, ValueLayout.JAVA_BYTE, pos, buf.array(), 0, len);
        } else {
            file.read(pos, buf.clear().limit(len));
        }
        bufStart = pos;
        bufLength = len;
        return 0;
    }

    /**
     * Makes {@code [pos, pos + n)} readable in {@link #buffer()}, reading ahead in chunks: reads at increasing
     * offsets (a check of index entries in file order) read each chunk once.
     *
     * @param end where the file's data ends ({@code pos + n <= end})
     * @return the index of {@code pos} in {@link #buffer()}
     */
    int read(long pos, int n, long end) {
        this.limit = end;
        return ensure(pos, n);
    }

    /** @return the buffer {@link #read} made readable (until the next read or walk) */
    ByteBuffer buffer() {
        return buf;
    }

    /**
     * Walks {@code [from, limit)}.
     *
     * @return where the data ends: {@code limit}, or the offset of a zero header word with {@link Policy#zeroEnds},
     *         or the offset of damage the sink stopped at, or (with {@link Policy#resync}) the end of a last record
     *         whose padding is cut off by {@code limit}
     */
    long walk(long from, long end, Policy policy, Sink sink) {
        this.limit = end;
        bufStart = 0;
        bufLength = 0;
        buf = null;
        long pos = from;
        while (pos + Slots.HEADER <= end) {
            int at = ensure(pos, Slots.HEADER);
            long w0 = buf.getLong(at);
            if (w0 == 0 && pos >= policy.zeroEndsFrom()) {
                return pos;
            }
            long seq = Slots.seq(w0, buf.getInt(at + 8));
            // after a crash inside a free-header write or a slot write into a hole, the first word (written whole)
            // still says where the hole ends; the rest is checked by the CRC
            String shape = Slots.checkShape(w0, pos, end);
            if (shape != null && (policy.resync() || policy.crashDebris())
                    && wholeBeforeEnd(w0, pos, end, seq, policy)) {
                // a file cut inside the last record's padding, which no CRC covers: the record itself is whole
                at = ensure(pos, Slots.HEADER + Slots.keyAndValue(w0));
                sink.live(pos, (int) Slots.slotLength(w0), seq, buf, at, Slots.keyLength(w0),
                        (int) Slots.valueLength(w0));
                return pos + Slots.slotLength(w0);
            }
            if (shape != null) {
                if (!policy.resync()) {
                    sink.damaged(pos, 0, shape);
                    return pos;
                }
                long next = resync(pos + 8, end, policy);
                if (!sink.damaged(pos, next - pos, shape)) {
                    return pos;
                }
                pos = next;
                continue;
            }
            int length = (int) Slots.slotLength(w0);
            int type = Slots.type(w0);
            int k = Slots.keyLength(w0);
            int v = type == Slots.LIVE ? (int) Slots.valueLength(w0) : 0;
            at = ensure(pos, Slots.HEADER + k + v);
            boolean crcOk = Slots.storedCrc(buf, at) == Slots.crc(crc, buf, at, k + v);
            if (crcOk && type == Slots.LIVE && seq <= policy.maxSeq()) {
                sink.live(pos, length, seq, buf, at, k, v);
            } else if (crcOk && type == Slots.FREE) {
                sink.free(pos, length, seq);
            } else if (crcOk || (policy.crashDebris() && (type == Slots.FREE || seq > policy.debrisAbove()))) {
                sink.free(pos, length, -1);
            } else {
                String what = (type == Slots.LIVE ? "record" : "free slot") + " of " + length
                        + " bytes fails its CRC check";
                if (!policy.resync()) {
                    sink.damaged(pos, length, what);
                    return pos;
                }
                long next = resyncWithin(pos, pos + length, end, policy);
                if (!sink.damaged(pos, next - pos, what)) {
                    return pos;
                }
                pos = next;
                continue;
            }
            pos += length;
        }
        if (pos < end) {
            int at = ensure(pos, (int) (end - pos));
            boolean zeros = true;
            for (int i = 0; i < end - pos; i++) {
                zeros &= buf.get(at + i) == 0;
            }
            if (!(zeros && pos >= policy.zeroEndsFrom()) && !policy.crashDebris()) {
                sink.damaged(pos, end - pos, (end - pos) + " bytes after the last slot are too few for a slot");
            }
        }
        return pos;
    }

    /**
     * @return whether the slot at {@code pos}, which runs past {@code end}, is a live record whose header, key and
     *         value end before it with a valid CRC (only its padding is missing)
     */
    private boolean wholeBeforeEnd(long w0, long pos, long end, long seq, Policy policy) {
        if (Slots.checkShape(w0, pos, Slots.MAX_FILE) != null || Slots.type(w0) != Slots.LIVE
                || pos + Slots.HEADER + Slots.keyAndValue(w0) > end || seq > policy.maxSeq()) {
            return false;
        }
        int kv = Slots.keyAndValue(w0);
        int at = ensure(pos, Slots.HEADER + kv);
        return Slots.storedCrc(buf, at) == Slots.crc(crc, buf, at, kv);
    }

    /**
     * After a slot at {@code pos} whose shape is sound but whose CRC fails: where the walk goes on. When the slot's own
     * length is borne out (a valid slot, or the data's end, follows it at {@code declaredEnd}), the damage is that
     * slot, unless a valid slot {@code q} inside it shows that the length word was the damage:
     * <ul>
     * <li>the slots from {@code q} pass over {@code declaredEnd} (no slot of theirs starts there) and meet the slots
     * from {@code declaredEnd} later: the claimed end lies inside one of them (an old header left inside a merged
     * hole), so the claimed length is wrong and these are the records after the real end;</li>
     * <li>or they land exactly on {@code declaredEnd}, and the damaged slot is a hole, or, given the length
     * {@code q - pos}, passes its CRC: a flipped length bit, the records between its real end and the claimed one
     * kept.</li>
     * </ul>
     * Slots inside that land on {@code declaredEnd} without that proof are bytes of the damaged record's value, which
     * may hold slot images (a value that is a copy of another store's records, ending where the record does): taking
     * one for a record would bring back under its key bytes that were never put there (two reviews found this, the
     * second with an image at the very end of an unpadded value). When the length is not borne out, the search runs on
     * from {@code pos + 8} as after any damage.
     *
     * @return the offset where the walk goes on
     */
    private long resyncWithin(long pos, long declaredEnd, long end, Policy policy) {
        if (!(declaredEnd == end || declaredEnd < end && slotEnd(declaredEnd, end, policy) >= 0)) {
            return resync(pos + 8, end, policy);
        }
        for (long q = resync(pos + 8, declaredEnd, policy); q < declaredEnd; q = resync(q + 8, declaredEnd, policy)) {
            long p = q;
            while (p >= 0 && p < declaredEnd) {
                p = slotEnd(p, end, policy);
            }
            if (p == declaredEnd ? holeAt(pos) || lengthWasTheDamage(pos, q - pos, end)
                    : p > declaredEnd && meet(p, declaredEnd, end, policy)) {
                return q;
            }
        }
        return declaredEnd;
    }

    /**
     * @return whether the slot at {@code pos} is a hole: it has no value that could hold slot images, and its CRC covers
     *     only its header, so a rewritten header word (a length grown over the records after it, its sequence changed
     *     too) cannot be told from a flipped length bit by the CRC; the runs inside it are kept
     */
    private boolean holeAt(long pos) {
        return Slots.type(buf.getLong(ensure(pos, Slots.HEADER))) == Slots.FREE;
    }

    /**
     * @return whether the slot at {@code pos}, its length word set to {@code length}, has a sound shape and passes
     *     its CRC (which covers the header's first 12 bytes, the length among them)
     */
    private boolean lengthWasTheDamage(long pos, long length, long end) {
        int at = ensure(pos, Slots.HEADER);
        long w0 = (buf.getLong(at) & ~0x7F_FFFFL) | (length >>> 3);
        if (Slots.checkShape(w0, pos, end) != null) {
            return false;
        }
        int kv = Slots.keyAndValue(w0);
        at = ensure(pos, Slots.HEADER + kv);
        // the slots' own CRC over the header with that length, put in the chunk's copy of the file for the call
        long was = buf.getLong(at);
        buf.putLong(at, w0);
        boolean ok = Slots.crc(crc, buf, at, kv) == Slots.storedCrc(buf, at);
        buf.putLong(at, was);
        return ok;
    }

    /**
     * @return the end of the valid slot at {@code p} ({@code end} for a zero word where zeros end the data), or -1
     *     when none is there
     */
    private long slotEnd(long p, long end, Policy policy) {
        if (p + Slots.HEADER > end) {
            return -1;
        }
        int at = ensure(p, Slots.HEADER);
        long w0 = buf.getLong(at);
        if (w0 == 0) {
            return p >= policy.zeroEndsFrom() ? end : -1;
        }
        if (Slots.checkShape(w0, p, end) != null) {
            return -1;
        }
        int kv = Slots.keyAndValue(w0);
        at = ensure(p, Slots.HEADER + kv);
        return Slots.storedCrc(buf, at) == Slots.crc(crc, buf, at, kv) ? p + Slots.slotLength(w0) : -1;
    }

    /** @return whether the runs of valid slots from {@code a} and from {@code b} reach a common offset (or both end) */
    private boolean meet(long a, long b, long end, Policy policy) {
        while (a != b) {
            if (a < b) {
                a = a == end ? -1 : slotEnd(a, end, policy);
                if (a < 0) {
                    return false;
                }
            } else {
                b = b == end ? -1 : slotEnd(b, end, policy);
                if (b < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** @return the next offset from {@code pos} (8-aligned) where a valid slot starts, or {@code end} */
    private long resync(long pos, long end, Policy policy) {
        for (long p = pos; p + Slots.HEADER <= end; p += 8) {
            int at = ensure(p, Slots.HEADER);
            long w0 = buf.getLong(at);
            if (w0 == 0 || Slots.checkShape(w0, p, end) != null) {
                continue;
            }
            int kv = Slots.keyAndValue(w0);
            at = ensure(p, Slots.HEADER + kv);
            if (Slots.storedCrc(buf, at) == Slots.crc(crc, buf, at, kv)) {
                return p;
            }
        }
        return end;
    }

    Path path() {
        return path;
    }
}
