package org.iolab.content;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Random;
import org.iolab.checksum.Checksum64;
import org.junit.jupiter.api.Test;

class ContentTest {
    private static final Content C = Content.DEFAULT;

    private static byte[] byByteAt(long position, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) C.byteAt(position + i);
        }
        return b;
    }

    @Test
    void wordIsLittleEndianBytes() {
        for (long k : new long[] {0, 1, 8191, 8192, 1L << 40}) {
            long w = 0;
            for (int j = 0; j < 8; j++) {
                w |= (long) C.byteAt(k * 8 + j) << (8 * j);
            }
            assertEquals(C.word(k), w, "word " + k);
        }
    }

    @Test
    void fillArrayMatchesByteAtAtUnalignedPositions() {
        Random rnd = new Random(5);
        for (int round = 0; round < 300; round++) {
            long position = round < 20 ? round : (rnd.nextLong() >>> 20);
            int len = rnd.nextInt(100);
            int off = rnd.nextInt(9);
            byte[] dst = new byte[off + len + 3];
            C.fill(position, dst, off, len);
            byte[] expected = new byte[off + len + 3];
            System.arraycopy(byByteAt(position, len), 0, expected, off, len);
            assertArrayEquals(expected, dst, "position " + position + " len " + len + " off " + off);
        }
    }

    @Test
    void fillBuffersAndSegmentsMatchArray() {
        Random rnd = new Random(6);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 200; round++) {
                long position = rnd.nextInt(1 << 20);
                int len = rnd.nextInt(300);
                int pre = rnd.nextInt(9);
                byte[] expected = byByteAt(position, len);

                ByteBuffer heap = ByteBuffer.allocate(pre + len + 5).position(pre).limit(pre + len);
                C.fill(position, heap);
                assertEquals(pre + len, heap.position());
                byte[] got = new byte[len];
                heap.get(pre, got);
                assertArrayEquals(expected, got, "heap at " + position);

                ByteBuffer direct = ByteBuffer.allocateDirect(pre + len + 5).position(pre).limit(pre + len);
                C.fill(position, direct);
                assertEquals(pre + len, direct.position());
                direct.get(pre, got);
                assertArrayEquals(expected, got, "direct at " + position);

                MemorySegment seg = arena.allocate(pre + len + 5);
                C.fill(position, seg, pre, len);
                byte[] fromSeg = new byte[len];
                MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, pre, fromSeg, 0, len);
                assertArrayEquals(expected, fromSeg, "segment at " + position);
            }
        }
    }

    @Test
    void checksumMatchesBytesFromByteAt() {
        for (long size : new long[] {0, 1, 7, 8, 9, 4095, 65_536 + 3, (1 << 20) + 13, 3 * (1 << 20) + 1}) {
            Checksum64 sum = new Checksum64();
            for (long p = 0; p < size; p++) {
                sum.update(C.byteAt(p));
            }
            assertEquals(sum.value(), C.checksum(size), "size " + size);
        }
    }

    @Test
    void doesNotRepeatWithPeriod64KiB() {
        for (long k = 0; k < 3 * 8192; k++) {
            assertNotEquals(C.word(k), C.word(k + 8192), "word " + k);
        }
        assertNotEquals(C.checksumAt(new long[] {0}, 4096), C.checksumAt(new long[] {65_536}, 4096));
    }

    @Test
    void seedsDiffer() {
        Content other = new Content(Content.DEFAULT.seed() + 1);
        assertNotEquals(C.checksum(4096), other.checksum(4096));
    }

    @Test
    void checksumAtMatchesFills() {
        long[] positions = {0, 3, 100_001, 8};
        Checksum64 sum = new Checksum64();
        for (long p : positions) {
            sum.update(byByteAt(p, 11), 0, 11);
        }
        assertEquals(sum.value(), C.checksumAt(positions, 11));
    }
}
