package org.iolab.checksum;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The 64-bit checksum every catalogue method computes over the bytes it reads, so that a method that
 * skips, repeats, reorders or corrupts bytes is caught.
 *
 * <p>Definition: split the byte stream {@code b[0..n)} into 8-byte little-endian words {@code w[k]} (the
 * last one zero-padded). With {@code s1 = Σ w[k]} and {@code s2 = Σ (running s1 after word k)}, both modulo
 * 2<sup>64</sup>, the value is {@code fmix64(s1 ^ rotl(s2, 29) ^ n * 0x9E3779B97F4A7C15)}. {@code s2} makes
 * it position dependent (a Fletcher sum over words); the final mix spreads every bit. Two dependent adds
 * per 8 bytes keep it far cheaper than the I/O it checks, and byte-at-a-time and bulk updates give the same
 * value for the same bytes.
 *
 * <p>Not thread-safe; one instance per pass.
 */
public final class Checksum64 {
    private static final VarHandle LONGS_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong SEGMENT_LONG_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private long s1;
    private long s2;
    private long pending;
    private int pendingBytes;
    private long length;

    /** Creates an empty checksum (the value of no bytes). */
    public Checksum64() {
    }

    /**
     * Adds one byte.
     *
     * @param b the byte, in its low 8 bits (as {@code InputStream.read()} returns it)
     */
    public void update(int b) {
        pending |= (long) (b & 0xFF) << (pendingBytes << 3);
        length++;
        if (++pendingBytes == Long.BYTES) {
            word(pending);
            pending = 0;
            pendingBytes = 0;
        }
    }

    /**
     * Adds {@code len} bytes of {@code bytes} from {@code off}.
     *
     * @param bytes the source
     * @param off first byte to add
     * @param len how many bytes
     */
    public void update(byte[] bytes, int off, int len) {
        int end = off + len;
        int i = off;
        while (pendingBytes != 0 && i < end) {
            update(bytes[i++]);
        }
        long a = s1;
        long b = s2;
        int wordsEnd = i + ((end - i) & ~7);
        int start = i;
        for (; i < wordsEnd; i += Long.BYTES) {
            a += (long) LONGS_LE.get(bytes, i);
            b += a;
        }
        s1 = a;
        s2 = b;
        length += wordsEnd - start;
        while (i < end) {
            update(bytes[i++]);
        }
    }

    /**
     * Adds every byte of {@code bytes}.
     *
     * @param bytes the source
     */
    public void update(byte[] bytes) {
        update(bytes, 0, bytes.length);
    }

    /**
     * Adds the bytes between {@code buffer}'s position and limit, and moves its position to its limit.
     * Works for heap, direct and mapped buffers without changing their byte order.
     *
     * @param buffer the source
     */
    public void update(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            int pos = buffer.position();
            int len = buffer.remaining();
            update(buffer.array(), buffer.arrayOffset() + pos, len);
            buffer.position(pos + len);
            return;
        }
        int pos = buffer.position();
        int limit = buffer.limit();
        while (pendingBytes != 0 && pos < limit) {
            update(buffer.get(pos++));
        }
        ByteBuffer le = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        long a = s1;
        long b = s2;
        int wordsEnd = pos + ((limit - pos) & ~7);
        int start = pos;
        for (; pos < wordsEnd; pos += Long.BYTES) {
            a += le.getLong(pos);
            b += a;
        }
        s1 = a;
        s2 = b;
        length += wordsEnd - start;
        while (pos < limit) {
            update(buffer.get(pos++));
        }
        buffer.position(limit);
    }

    /**
     * Adds {@code len} bytes of {@code segment} from {@code offset}.
     *
     * @param segment the source (heap, native or mapped)
     * @param offset first byte to add
     * @param len how many bytes
     */
    public void update(MemorySegment segment, long offset, long len) {
        long end = offset + len;
        long i = offset;
        while (pendingBytes != 0 && i < end) {
            update(segment.get(ValueLayout.JAVA_BYTE, i++));
        }
        long a = s1;
        long b = s2;
        long wordsEnd = i + ((end - i) & ~7L);
        long start = i;
        for (; i < wordsEnd; i += Long.BYTES) {
            a += segment.get(SEGMENT_LONG_LE, i);
            b += a;
        }
        s1 = a;
        s2 = b;
        length += wordsEnd - start;
        while (i < end) {
            update(segment.get(ValueLayout.JAVA_BYTE, i++));
        }
    }

    /** @return how many bytes were added */
    public long length() {
        return length;
    }

    /** @return the checksum of the bytes added so far; does not change the state */
    public long value() {
        long a = s1;
        long b = s2;
        if (pendingBytes != 0) {
            a += pending;
            b += a;
        }
        return fmix64(a ^ Long.rotateLeft(b, 29) ^ length * 0x9E3779B97F4A7C15L);
    }

    /**
     * @param bytes the bytes
     * @return the checksum of all of {@code bytes}
     */
    public static long of(byte[] bytes) {
        Checksum64 c = new Checksum64();
        c.update(bytes);
        return c.value();
    }

    /**
     * @param file a file
     * @return the checksum of all its bytes, read through a {@link FileChannel} with a 4 MiB direct buffer (how a
     *     write is checked after it ends)
     * @throws IOException when the file cannot be read
     */
    public static long of(Path file) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(4 << 20);
        Checksum64 sum = new Checksum64();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                sum.update(buf.flip());
                buf.clear();
            }
        }
        return sum.value();
    }

    private void word(long w) {
        s1 += w;
        s2 += s1;
    }

    /** MurmurHash3's 64-bit finaliser. */
    static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** @return the value as 16 hex digits, as iolab prints it */
    @Override
    public String toString() {
        return String.format("%016x", value());
    }
}
