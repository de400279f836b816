package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/** The slot format (see {@link Store}): header words, CRCs, hashing and comparing keys. */
final class Slots {
    /** Bytes of a slot header. */
    static final int HEADER = 24;
    /** Where the first slot starts (after the header page). */
    static final long DATA_START = 4096;
    /** Type byte of a live record. */
    static final int LIVE = 1;
    /** Type byte of a hole. */
    static final int FREE = 2;
    /** The longest key. */
    static final int MAX_KEY = 65535;
    /** The longest value: 32 MiB. */
    static final int MAX_VALUE = 32 << 20;
    /** The longest slot. */
    static final int MAX_SLOT = align(HEADER + MAX_KEY + MAX_VALUE);
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

    static long word0(int slotLength, int type, int keyLength) {
        return (slotLength & 0xFFFF_FFFFL) | ((long) type << 32) | ((long) keyLength << 48);
    }

    static long slotLength(long word0) {
        return word0 & 0xFFFF_FFFFL;
    }

    static int type(long word0) {
        return (int) (word0 >>> 32) & 0xFF;
    }

    static int zeroByte(long word0) {
        return (int) (word0 >>> 40) & 0xFF;
    }

    static int keyLength(long word0) {
        return (int) (word0 >>> 48);
    }

    /**
     * Checks a header's shape: length, type, key and value lengths. The slot is at {@code offset} and must end by
     * {@code end}.
     *
     * @return null when plausible, else what is wrong
     */
    static String checkShape(long word0, long valueLength, long offset, long end) {
        long length = slotLength(word0);
        int type = type(word0);
        if (length < HEADER || length % 8 != 0 || length > MAX_SLOT) {
            return "impossible slot length " + length;
        }
        if (offset + length > end) {
            return "slot length " + length + " runs past the end of the data at " + end;
        }
        if (zeroByte(word0) != 0 || (type != LIVE && type != FREE)) {
            return "impossible slot type " + type + "/" + zeroByte(word0);
        }
        if (type == FREE && (keyLength(word0) != 0 || valueLength != 0)) {
            return "free slot with key or value length";
        }
        if (HEADER + keyLength(word0) + valueLength > length) {
            return "key length " + keyLength(word0) + " and value length " + valueLength + " do not fit in a slot of "
                    + length + " bytes";
        }
        return null;
    }

    /** @return the CRC32C of a slot held in {@code b} at {@code at} (header words and key + value) */
    static int crc(CRC32C crc, ByteBuffer b, int at, int keyAndValue) {
        int oldLimit = b.limit();
        int oldPos = b.position();
        crc.reset();
        b.limit(at + 20).position(at);
        crc.update(b);
        if (keyAndValue > 0) {
            b.limit(at + HEADER + keyAndValue).position(at + HEADER);
            crc.update(b);
        }
        b.limit(oldLimit).position(oldPos);
        return (int) crc.getValue();
    }

    /**
     * Builds a live slot at {@code at} of {@code b}: header (with CRC), key, value, zero padding to 8 bytes.
     *
     * @return the bytes written ({@link #needed})
     */
    static int writeLive(ByteBuffer b, int at, int slotLength, long seq, ByteBuffer key, ByteBuffer value,
            CRC32C crc) {
        int k = key.remaining();
        int v = value.remaining();
        int n = needed(k, v);
        b.putLong(at, word0(slotLength, LIVE, k)).putLong(at + 8, seq).putInt(at + 16, v).putInt(at + 20, 0);
        b.put(at + HEADER, key, key.position(), k);
        b.put(at + HEADER + k, value, value.position(), v);
        for (int i = at + HEADER + k + v; i < at + n; i++) {
            b.put(i, (byte) 0);
        }
        b.putInt(at + 20, crc(crc, b, at, k + v));
        return n;
    }

    /** Builds a 24-byte free-slot header at {@code at} of {@code b}. */
    static void writeFree(ByteBuffer b, int at, int slotLength, long seq, CRC32C crc) {
        b.putLong(at, word0(slotLength, FREE, 0)).putLong(at + 8, seq).putInt(at + 16, 0).putInt(at + 20, 0);
        b.putInt(at + 20, crc(crc, b, at, 0));
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
