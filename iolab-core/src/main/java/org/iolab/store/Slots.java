package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/** The slot format (see {@link Store}): header words, CRCs, hashing and comparing keys. */
final class Slots {
    /** Bytes of a slot header. */
    static final int HEADER = 16;
    /** Where the first slot starts (after the header page). */
    static final long DATA_START = 4096;
    /** Type of a live record. */
    static final int LIVE = 1;
    /** Type of a hole. */
    static final int FREE = 2;
    /** The longest key. */
    static final int MAX_KEY = 65535;
    /** The longest value: 32 MiB. */
    static final int MAX_VALUE = 32 << 20;
    /** The longest slot (its length / 8 fits the header's 23 bits). */
    static final int MAX_SLOT = align(HEADER + MAX_KEY + MAX_VALUE);
    /** The most padding bytes after a value (alignment, plus a hole's remainder too short to be a hole). */
    static final int MAX_PAD = 63;
    /** The highest sequence a slot header holds (48 bits). */
    static final long MAX_SEQ = (1L << 48) - 1;
    /**
     * Bit 31 of a live slot's first header word: its value is compressed with the file's {@link SymbolTable} (a store
     * compacted with compression, format version 3). Zero in a hole, and in every slot of a file without a table.
     */
    static final long PACKED = 1L << 31;
    /** The largest data file: 1 TiB (offsets are kept in 37 bits of 8-byte units). */
    static final long MAX_FILE = 1L << 40;

    private Slots() {
    }

    static int align(int n) {
        return (n + 7) & ~7;
    }

    static int needed(int keyLength, int valueLength) {
        return align(HEADER + keyLength + valueLength);
    }

    /**
     * @return the first header word: slot length / 8 (bits 0-22), type (23-24), padding (25-30), packed (31: see
     *         {@link #PACKED}; zero here), key
     *         length (32-47), the sequence's low 16 bits (48-63)
     */
    static long word0(int slotLength, int type, int keyLength, int pad, long seq) {
        return (slotLength >>> 3) | ((long) type << 23) | ((long) pad << 25) | ((long) keyLength << 32)
                | (seq << 48);
    }

    /** @return the int at byte 8 of a header: the sequence's bits 16-47 */
    static int seqHigh(long seq) {
        return (int) (seq >>> 16);
    }

    /** @return the sequence from the first header word and the int at byte 8 */
    static long seq(long word0, int seqHigh) {
        return (word0 >>> 48) | (seqHigh & 0xFFFF_FFFFL) << 16;
    }

    static long slotLength(long word0) {
        return (word0 & 0x7F_FFFFL) << 3;
    }

    static int type(long word0) {
        return (int) (word0 >>> 23) & 3;
    }

    static int pad(long word0) {
        return (int) (word0 >>> 25) & MAX_PAD;
    }

    /** @return whether a live slot's value is compressed ({@link #PACKED}) */
    static boolean packed(long word0) {
        return (word0 & PACKED) != 0;
    }

    static int keyLength(long word0) {
        return (int) (word0 >>> 32) & 0xFFFF;
    }

    /** @return the value length of a live slot (negative or too long when the header is damaged: see checkShape) */
    static long valueLength(long word0) {
        return slotLength(word0) - HEADER - keyLength(word0) - pad(word0);
    }

    /**
     * Checks a header's shape: length, type, key and value lengths. The slot is at {@code offset} and must end by
     * {@code end}.
     *
     * @return null when plausible, else what is wrong
     */
    static String checkShape(long word0, long offset, long end) {
        long length = slotLength(word0);
        int type = type(word0);
        if (length < HEADER || length > MAX_SLOT) {
            return "impossible slot length " + length;
        }
        if (offset + length > end) {
            return "slot length " + length + " runs past the end of the data at " + end;
        }
        if (type != LIVE && type != FREE || type == FREE && packed(word0)) {
            return "impossible slot type " + type + (packed(word0) ? "/packed" : "");
        }
        if (type == FREE && (keyLength(word0) != 0 || pad(word0) != 0)) {
            return "free slot with a key length or padding";
        }
        long v = valueLength(word0);
        if (type == LIVE && (v < 0 || v > MAX_VALUE)) {
            return "key length " + keyLength(word0) + " and padding " + pad(word0) + " do not fit in a slot of "
                    + length + " bytes";
        }
        return null;
    }

    /** @return the key and value bytes of a slot whose shape is valid (0 for a hole) */
    static int keyAndValue(long word0) {
        return type(word0) == LIVE ? keyLength(word0) + (int) valueLength(word0) : 0;
    }

    /** @return the CRC32C of a slot held in {@code b} at {@code at} (header bytes 0-11 and key + value) */
    static int crc(CRC32C crc, ByteBuffer b, int at, int keyAndValue) {
        crc.reset();
        if (b.hasArray()) {
            byte[] a = b.array();
            int base = b.arrayOffset() + at;
            crc.update(a, base, 12);
            crc.update(a, base + HEADER, keyAndValue);
            return (int) crc.getValue();
        }
        int oldLimit = b.limit();
        int oldPos = b.position();
        crc.reset();
        b.limit(at + 12).position(at);
        crc.update(b);
        if (keyAndValue > 0) {
            b.limit(at + HEADER + keyAndValue).position(at + HEADER);
            crc.update(b);
        }
        b.limit(oldLimit).position(oldPos);
        return (int) crc.getValue();
    }

    /** @return the CRC stored in the header of a slot held in {@code b} at {@code at} */
    static int storedCrc(ByteBuffer b, int at) {
        return b.getInt(at + 12);
    }

    /**
     * Builds a live slot at {@code at} of {@code b}: header (with CRC), key, value, zero padding to 8 bytes.
     *
     * @param slotLength its length: {@link #needed}, or up to 8 more (a hole taken whole)
     * @param packed whether {@code value} is compressed with the file's symbol table ({@link #PACKED})
     * @return the bytes written ({@link #needed})
     */
    static int writeLive(ByteBuffer b, int at, int slotLength, long seq, ByteBuffer key, ByteBuffer value,
            boolean packed, CRC32C crc) {
        int k = key.remaining();
        int v = value.remaining();
        int n = needed(k, v);
        b.putLong(at, word0(slotLength, LIVE, k, slotLength - HEADER - k - v, seq) | (packed ? PACKED : 0))
                .putInt(at + 8, seqHigh(seq));
        b.put(at + HEADER, key, key.position(), k);
        b.put(at + HEADER + k, value, value.position(), v);
        for (int i = at + HEADER + k + v; i < at + n; i++) {
            b.put(i, (byte) 0);
        }
        b.putInt(at + 12, crc(crc, b, at, k + v));
        return n;
    }

    /**
     * Gives the live slot held in {@code b} at {@code at} a new length (its padding changes; key, value and
     * sequence stay) and a new CRC.
     *
     * @return false when the padding would not fit the header ({@link #MAX_PAD}) or the slot would pass
     *         {@link #MAX_SLOT}; {@code b} is then unchanged
     */
    static boolean relength(ByteBuffer b, int at, int slotLength, CRC32C crc) {
        long w0 = b.getLong(at);
        int k = keyLength(w0);
        int v = (int) valueLength(w0);
        int pad = slotLength - HEADER - k - v;
        if (pad < 0 || pad > MAX_PAD || slotLength > MAX_SLOT) {
            return false;
        }
        long seq = seq(w0, b.getInt(at + 8));
        b.putLong(at, word0(slotLength, LIVE, k, pad, seq) | (w0 & PACKED));
        b.putInt(at + 12, crc(crc, b, at, k + v));
        return true;
    }

    /** Builds a 16-byte free-slot header at {@code at} of {@code b}. */
    static void writeFree(ByteBuffer b, int at, int slotLength, long seq, CRC32C crc) {
        b.putLong(at, word0(slotLength, FREE, 0, 0, seq)).putInt(at + 8, seqHigh(seq));
        b.putInt(at + 12, crc(crc, b, at, 0));
    }

    /** @return a 64-bit hash of {@code len} bytes at {@code pos} of {@code b} (independent of its byte order) */
    static long hash(ByteBuffer b, int pos, int len) {
        boolean big = b.order() == ByteOrder.BIG_ENDIAN;
        long h = 0x9E3779B97F4A7C15L ^ len;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long w = b.getLong(pos + i);
            if (big) {
                w = Long.reverseBytes(w);
            }
            h = Long.rotateLeft(h ^ (w * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L;
        }
        long tail = 0;
        for (int s = 0; i < len; i++, s += 8) {
            tail |= (b.get(pos + i) & 0xFFL) << s;
        }
        h ^= tail * 0x165667B19E3779F9L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }

    /** @return whether {@code len} bytes at {@code aPos} of {@code a} equal those at {@code bPos} of {@code b} */
    static boolean equal(ByteBuffer a, int aPos, ByteBuffer b, int bPos, int len) {
        int i = 0;
        boolean same = a.order() == b.order();
        for (; i + 8 <= len; i += 8) {
            long y = b.getLong(bPos + i);
            if (a.getLong(aPos + i) != (same ? y : Long.reverseBytes(y))) {
                return false;
            }
        }
        for (; i < len; i++) {
            if (a.get(aPos + i) != b.get(bPos + i)) {
                return false;
            }
        }
        return true;
    }
}
