package org.iolab.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Checksum64Test {
    /**
     * The definition in {@link Checksum64}'s javadoc, written as plainly as possible: 8-byte little-endian
     * words (the last zero-padded), s1 = sum of words, s2 = sum of running s1, then
     * fmix64(s1 ^ rotl(s2, 29) ^ n * golden).
     */
    static long reference(byte[] b) {
        long n = b.length;
        long s1 = 0;
        long s2 = 0;
        for (int k = 0; k * 8L < n; k++) {
            long w = 0;
            for (int j = 0; j < 8; j++) {
                int i = k * 8 + j;
                long v = i < n ? b[i] & 0xFF : 0;
                w |= v << (8 * j);
            }
            s1 += w;
            s2 += s1;
        }
        long x = s1 ^ ((s2 << 29) | (s2 >>> 35)) ^ (n * 0x9E3779B97F4A7C15L);
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    private static byte[] random(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    @Test
    void emptyMatchesReference() {
        assertEquals(reference(new byte[0]), new Checksum64().value());
        assertEquals(0, new Checksum64().length());
    }

    @Test
    void matchesReferenceForEveryLengthUpTo200() {
        Random rnd = new Random(1);
        for (int n = 0; n <= 200; n++) {
            byte[] b = random(rnd, n);
            assertEquals(reference(b), Checksum64.of(b), "length " + n);
        }
    }

    @Test
    void allUpdateFormsAgreeWithRandomSplits() {
        Random rnd = new Random(42);
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 200; round++) {
                int n = rnd.nextInt(5000);
                byte[] data = random(rnd, n);
                long expected = reference(data);

                Checksum64 single = new Checksum64();
                for (byte x : data) {
                    single.update(x);
                }
                assertEquals(expected, single.value(), "byte at a time, n=" + n);
                assertEquals(n, single.length());

                int[] cuts = cuts(rnd, n);
                Checksum64 array = new Checksum64();
                Checksum64 heap = new Checksum64();
                Checksum64 direct = new Checksum64();
                Checksum64 segment = new Checksum64();
                Checksum64 mixed = new Checksum64();
                MemorySegment offHeap = arena.allocate(Math.max(n, 1));
                MemorySegment.copy(data, 0, offHeap, ValueLayout.JAVA_BYTE, 0, n);
                ByteBuffer directAll = ByteBuffer.allocateDirect(Math.max(n, 1));
                directAll.put(data).clear();
                for (int c = 0; c + 1 < cuts.length; c++) {
                    int from = cuts[c];
                    int len = cuts[c + 1] - from;
                    array.update(data, from, len);
                    // a heap buffer with a non-zero array offset and position
                    ByteBuffer h = ByteBuffer.wrap(Arrays.copyOfRange(data, from == 0 ? 0 : from - 1, from + len));
                    h.position(from == 0 ? 0 : 1);
                    ByteBuffer hs = h.slice();
                    heap.update(hs);
                    assertEquals(hs.limit(), hs.position(), "position moved to limit");
                    ByteBuffer d = directAll.duplicate().position(from).limit(from + len);
                    direct.update(d);
                    assertEquals(from + len, d.position());
                    segment.update(offHeap, from, len);
                    switch (c % 4) {
                        case 0 -> mixed.update(data, from, len);
                        case 1 -> mixed.update(directAll.duplicate().position(from).limit(from + len));
                        case 2 -> mixed.update(MemorySegment.ofArray(data), from, len);
                        default -> {
                            for (int i = from; i < from + len; i++) {
                                mixed.update(data[i]);
                            }
                        }
                    }
                }
                assertEquals(expected, array.value(), "byte[] chunks, n=" + n);
                assertEquals(expected, heap.value(), "heap ByteBuffer chunks, n=" + n);
                assertEquals(expected, direct.value(), "direct ByteBuffer chunks, n=" + n);
                assertEquals(expected, segment.value(), "MemorySegment chunks, n=" + n);
                assertEquals(expected, mixed.value(), "mixed chunks, n=" + n);
                assertEquals(n, mixed.length());
            }
        }
    }

    /** Sorted split points from 0 to n inclusive, with some empty pieces. */
    private static int[] cuts(Random rnd, int n) {
        int k = rnd.nextInt(12);
        int[] cuts = new int[k + 2];
        for (int i = 1; i <= k; i++) {
            cuts[i] = n == 0 ? 0 : rnd.nextInt(n + 1);
        }
        cuts[k + 1] = n;
        Arrays.sort(cuts);
        return cuts;
    }

    @Test
    void valueDoesNotChangeState() {
        byte[] data = random(new Random(3), 13);
        Checksum64 c = new Checksum64();
        c.update(data, 0, 5);
        long first = c.value();
        assertEquals(first, c.value());
        c.update(data, 5, 8);
        assertEquals(Checksum64.of(data), c.value());
    }

    @Test
    void detectsSwappedWords() {
        byte[] data = random(new Random(7), 4096);
        byte[] swapped = data.clone();
        System.arraycopy(data, 800, swapped, 808, 8);
        System.arraycopy(data, 808, swapped, 800, 8);
        assertNotEquals(Checksum64.of(data), Checksum64.of(swapped));
        assertEquals(reference(swapped), Checksum64.of(swapped));
    }

    @Test
    void detectsEverySingleFlippedBitInASmallBlock() {
        byte[] data = random(new Random(9), 64);
        long original = Checksum64.of(data);
        for (int bit = 0; bit < data.length * 8; bit++) {
            byte[] flipped = data.clone();
            flipped[bit >>> 3] ^= (byte) (1 << (bit & 7));
            assertNotEquals(original, Checksum64.of(flipped), "bit " + bit);
        }
    }

    @Test
    void lengthMatters() {
        byte[] data = random(new Random(11), 100);
        byte[] longer = Arrays.copyOf(data, 101);
        assertNotEquals(Checksum64.of(data), Checksum64.of(longer), "trailing zero byte");
        assertNotEquals(Checksum64.of(new byte[0]), Checksum64.of(new byte[1]));
        assertNotEquals(Checksum64.of(new byte[8]), Checksum64.of(new byte[16]), "trailing zero word");
    }

    @Test
    void toStringIsSixteenHexDigits() {
        Checksum64 c = new Checksum64();
        c.update(1);
        assertEquals(String.format("%016x", c.value()), c.toString());
    }
}
