package org.iolab.content;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.iolab.checksum.Checksum64;

/**
 * The bytes of every test file, defined by a formula so that any byte at any offset is known without
 * reading the file: writers produce it, readers are checked against it.
 *
 * <p>The file is a sequence of 8-byte little-endian words; word {@code k} is
 * {@code table[k mod 8192] + k * 0x9E3779B97F4A7C15}, where {@code table} is 64 KiB of SplitMix64 output
 * from the seed. The table makes the bytes look random (no compression, no zero pages); the {@code k} term
 * makes the content never repeat, so a method that reads the same block twice cannot produce the right
 * checksum by accident.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class Content {
    /** The content every iolab benchmark uses unless told otherwise. */
    public static final Content DEFAULT = new Content(0x10_1AB_2026L);

    private static final int TABLE_WORDS = 8192;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final VarHandle LONGS_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong SEGMENT_LONG_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final long seed;
    private final long[] table = new long[TABLE_WORDS];
    private final ConcurrentMap<Long, Long> checksums = new ConcurrentHashMap<>();

    /** @param seed selects the pseudo-random table */
    public Content(long seed) {
        this.seed = seed;
        long x = seed;
        for (int i = 0; i < TABLE_WORDS; i++) {
            x += GOLDEN;
            long z = x;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            table[i] = z ^ (z >>> 31);
        }
    }

    /** @return the seed this content was made from */
    public long seed() {
        return seed;
    }

    /**
     * @param k word index
     * @return the 8-byte word at byte offset {@code 8 * k}, little-endian
     */
    public long word(long k) {
        return table[(int) (k & (TABLE_WORDS - 1))] + k * GOLDEN;
    }

    /**
     * @param position byte offset in the file
     * @return the byte at that offset, 0..255
     */
    public int byteAt(long position) {
        return (int) (word(position >>> 3) >>> ((position & 7) << 3)) & 0xFF;
    }

    /**
     * Fills {@code dst[off, off+len)} with the file's bytes from {@code position}.
     *
     * @param position file offset of {@code dst[off]}
     * @param dst destination
     * @param off first index to fill
     * @param len how many bytes
     */
    public void fill(long position, byte[] dst, int off, int len) {
        int i = off;
        int end = off + len;
        long p = position;
        while ((p & 7) != 0 && i < end) {
            dst[i++] = (byte) byteAt(p++);
        }
        long k = p >>> 3;
        int wordsEnd = i + ((end - i) & ~7);
        for (; i < wordsEnd; i += Long.BYTES) {
            LONGS_LE.set(dst, i, word(k++));
        }
        p = k << 3;
        while (i < end) {
            dst[i++] = (byte) byteAt(p++);
        }
    }

    /**
     * Fills {@code dst} from its position to its limit with the file's bytes from {@code position},
     * and moves its position to its limit.
     *
     * @param position file offset of the buffer's first byte
     * @param dst destination (heap, direct or mapped)
     */
    public void fill(long position, ByteBuffer dst) {
        if (dst.hasArray()) {
            int len = dst.remaining();
            fill(position, dst.array(), dst.arrayOffset() + dst.position(), len);
            dst.position(dst.limit());
            return;
        }
        fill(position, MemorySegment.ofBuffer(dst), 0, dst.remaining());
        dst.position(dst.limit());
    }

    /**
     * Fills {@code len} bytes of {@code dst} from {@code offset} with the file's bytes from
     * {@code position}.
     *
     * @param position file offset of {@code dst[offset]}
     * @param dst destination segment
     * @param offset first byte of the segment to fill
     * @param len how many bytes
     */
    public void fill(long position, MemorySegment dst, long offset, long len) {
        long i = offset;
        long end = offset + len;
        long p = position;
        while ((p & 7) != 0 && i < end) {
            dst.set(ValueLayout.JAVA_BYTE, i++, (byte) byteAt(p++));
        }
        long k = p >>> 3;
        long wordsEnd = i + ((end - i) & ~7L);
        for (; i < wordsEnd; i += Long.BYTES) {
            dst.set(SEGMENT_LONG_LE, i, word(k++));
        }
        p = k << 3;
        while (i < end) {
            dst.set(ValueLayout.JAVA_BYTE, i++, (byte) byteAt(p++));
        }
    }

    /**
     * The expected {@link Checksum64} of a file of {@code size} bytes of this content, computed in memory
     * (never from a file), and remembered.
     *
     * @param size file size in bytes
     * @return the checksum a correct read of the whole file must return
     */
    public long checksum(long size) {
        return checksums.computeIfAbsent(size, this::computeChecksum);
    }

    private long computeChecksum(long size) {
        Checksum64 c = new Checksum64();
        byte[] chunk = new byte[1 << 20];
        for (long p = 0; p < size; p += chunk.length) {
            int n = (int) Math.min(chunk.length, size - p);
            fill(p, chunk, 0, n);
            c.update(chunk, 0, n);
        }
        return c.value();
    }

    /**
     * @param positions file offsets
     * @param length bytes read at each offset
     * @return the checksum of the bytes at {@code [p, p+length)} for each {@code p}, in order
     */
    public long checksumAt(long[] positions, int length) {
        Checksum64 c = new Checksum64();
        byte[] bytes = new byte[length];
        for (long p : positions) {
            fill(p, bytes, 0, length);
            c.update(bytes, 0, length);
        }
        return c.value();
    }

    @Override
    public String toString() {
        return "Content[seed=" + Long.toHexString(seed) + ", table=" + Arrays.hashCode(table) + "]";
    }
}
