package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;

/** {@link SymbolTable}: round trips, malformed input, serialization, damage, and the compression it reaches. */
class SymbolTableTest {
    /** How many benchmark-like employee values to build. */
    private static final int EMPLOYEES = 100_000;

    /** @return the i-th employee value, laid out like the store's benchmark records, little-endian */
    private static byte[] employee(int i) {
        byte[] text = ("This is employee number " + i).getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 1 + 1 + 4 + 2 + text.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(2000 + i).putInt(11900 + i).put((byte) (i % 2 == 0 ? 1 : 0)).put((byte) 4)
                .put("John".getBytes(StandardCharsets.US_ASCII)).putShort((short) text.length).put(text);
        return b.array();
    }

    /** @return all employee values, as heap buffers */
    private static List<ByteBuffer> employees() {
        List<ByteBuffer> values = new ArrayList<>(EMPLOYEES);
        for (int i = 0; i < EMPLOYEES; i++) {
            values.add(ByteBuffer.wrap(employee(i)));
        }
        return values;
    }

    /** @return a table trained on {@code values} (asserted not null) */
    private static SymbolTable train(List<byte[]> values) {
        List<ByteBuffer> sample = new ArrayList<>();
        for (byte[] v : values) {
            sample.add(ByteBuffer.wrap(v));
        }
        SymbolTable t = SymbolTable.train(sample);
        assertNotNull(t);
        return t;
    }

    /** @return the serialized bytes of {@code t} */
    private static byte[] serialize(SymbolTable t) {
        ByteBuffer page = ByteBuffer.allocate(SymbolTable.MAX_SERIALIZED);
        int n = t.write(page, 0);
        assertTrue(n > 0 && n <= SymbolTable.MAX_SERIALIZED);
        assertEquals(0, page.position());
        return Arrays.copyOf(page.array(), n);
    }

    /** @return {@code value} compressed with {@code t}, from a heap buffer at position 0 */
    private static byte[] encode(SymbolTable t, byte[] value) {
        ByteBuffer dst = ByteBuffer.allocate(SymbolTable.maxEncoded(value.length));
        int n = t.encode(ByteBuffer.wrap(value), dst, 0);
        return Arrays.copyOf(dst.array(), n);
    }

    /**
     * Compresses and decompresses {@code value} through heap and direct buffers at non-zero positions and offsets,
     * checking every path gives the same codes and the same bytes back.
     *
     * @return the compressed length
     */
    private static int roundTrip(SymbolTable t, byte[] value) {
        byte[] codes = encode(t, value);
        assertTrue(codes.length <= SymbolTable.maxEncoded(value.length));

        // the source at a non-zero position of a larger heap buffer, and of a sliced (array offset) buffer
        byte[] padded = new byte[value.length + 13];
        Arrays.fill(padded, (byte) 0x5A);
        System.arraycopy(value, 0, padded, 7, value.length);
        ByteBuffer heapSrc = ByteBuffer.wrap(padded).position(7).limit(7 + value.length);
        ByteBuffer sliced = ByteBuffer.wrap(padded, 3, padded.length - 3).slice().position(4).limit(4 + value.length);
        ByteBuffer directSrc = ByteBuffer.allocateDirect(value.length + 11).order(ByteOrder.BIG_ENDIAN);
        directSrc.put(5, value).position(5).limit(5 + value.length);
        ByteBuffer readOnly = ByteBuffer.wrap(value).asReadOnlyBuffer();

        int need = SymbolTable.maxEncoded(value.length);
        for (ByteBuffer src : List.of(heapSrc, sliced, directSrc, readOnly)) {
            int pos = src.position();
            int lim = src.limit();
            ByteBuffer heapDst = ByteBuffer.wrap(new byte[need + 20], 2, need + 10).slice();
            heapDst.position(1).limit(3);
            ByteBuffer directDst = ByteBuffer.allocateDirect(need + 9);
            directDst.position(2).limit(4);
            for (ByteBuffer dst : List.of(heapDst, directDst)) {
                int dstAt = 6;
                int n = t.encode(src, dst, dstAt);
                assertEquals(pos, src.position(), "source position unchanged");
                assertEquals(lim, src.limit(), "source limit unchanged");
                assertEquals(dst == heapDst ? 1 : 2, dst.position(), "destination position unchanged");
                assertEquals(dst == heapDst ? 3 : 4, dst.limit(), "destination limit unchanged");
                byte[] got = new byte[n];
                dst.duplicate().clear().get(dstAt, got, 0, n); // past the limit, up to the capacity
                assertArrayEquals(codes, got, "same codes from every kind of buffer");
            }
        }

        // decode from heap (with an array offset), direct and read-only sources into a larger array at an offset
        byte[] holder = new byte[codes.length + 10];
        System.arraycopy(codes, 0, holder, 9, codes.length);
        ByteBuffer heapCodes = ByteBuffer.wrap(holder, 1, holder.length - 1).slice();
        ByteBuffer directCodes = ByteBuffer.allocateDirect(holder.length).put(0, holder);
        for (ByteBuffer src : List.of(heapCodes, directCodes, directCodes.asReadOnlyBuffer())) {
            int at = src == heapCodes ? 8 : 9;
            assertEquals(value.length, t.decodedLength(src, at, codes.length));
            byte[] out = new byte[value.length + 30];
            Arrays.fill(out, (byte) 0x77);
            assertEquals(value.length, t.decode(src, at, codes.length, out, 11));
            assertArrayEquals(value, Arrays.copyOfRange(out, 11, 11 + value.length));
            for (int k = 0; k < out.length; k++) {
                if (k < 11 || k >= 11 + value.length) {
                    assertEquals((byte) 0x77, out[k], "decode writes only the value's bytes, not " + k);
                }
            }
            byte[] exact = new byte[value.length];
            assertEquals(value.length, t.decode(src, at, codes.length, exact, 0));
            assertArrayEquals(value, exact);
            // the loose decode: the same bytes, from index 0 of a buffer of looseRoom
            byte[] loose = new byte[(int) SymbolTable.looseRoom(codes.length)];
            assertEquals(value.length, t.decodeLoose(src, at, codes.length, loose));
            assertArrayEquals(value, Arrays.copyOf(loose, value.length));
        }
        return codes.length;
    }

    @Test
    void employeeValuesCompressToUnder45PercentAndComeBack() {
        List<ByteBuffer> values = employees();
        SymbolTable t = SymbolTable.train(values);
        assertNotNull(t);
        assertTrue(t.symbols() > 0 && t.symbols() <= SymbolTable.MAX_SYMBOLS);
        long in = 0;
        long out = 0;
        ByteBuffer dst = ByteBuffer.allocate(1024);
        byte[] back = new byte[1024];
        for (ByteBuffer v : values) {
            int n = t.encode(v, dst, 0);
            assertEquals(v.remaining(), t.decodedLength(dst, 0, n));
            assertEquals(v.remaining(), t.decode(dst, 0, n, back, 0));
            assertEquals(v, ByteBuffer.wrap(back, 0, v.remaining()));
            in += v.remaining();
            out += n;
        }
        double ratio = (double) out / in;
        System.out.printf("SymbolTable: %d employee values, %d -> %d bytes (%.1f%%), %d symbols%n", values.size(), in,
                out, 100 * ratio, t.symbols());
        assertTrue(ratio <= 0.45, "compressed to " + ratio);
        for (int i : new int[] {0, 1, 2, 9, 10, 99, 12345, 99_999}) {
            roundTrip(t, employee(i));
        }
        roundTrip(t, new byte[0]);
    }

    @Test
    void randomBytesOfEveryValueRoundTripThroughEveryKindOfTable() {
        Random r = new Random(42);
        List<byte[]> random = new ArrayList<>();
        for (int len = 0; len <= 200; len++) {
            byte[] v = new byte[len];
            r.nextBytes(v);
            random.add(v);
        }
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        random.add(all);
        byte[] ffs = new byte[40];
        Arrays.fill(ffs, (byte) 0xFF);
        random.add(ffs);
        random.add(new byte[40]);

        List<byte[]> text = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            text.add(("key-" + i + " value \u00e9\u00e8 " + (i * 7919)).getBytes(StandardCharsets.UTF_8));
        }
        List<SymbolTable> tables = new ArrayList<>();
        tables.add(SymbolTable.train(List.of(ByteBuffer.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF, 0, 0}))));
        tables.add(train(text));
        tables.add(train(List.of(employee(1), employee(2), employee(3))));
        tables.add(SymbolTable.train(employees()));
        List<byte[]> repeated = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            repeated.add(ffs);
        }
        tables.add(train(repeated));
        for (SymbolTable t : tables) {
            if (t == null) {
                continue;
            }
            for (byte[] v : random) {
                int n = roundTrip(t, v);
                assertTrue(n <= 2 * v.length);
            }
            for (byte[] v : text) {
                roundTrip(t, v);
            }
        }
    }

    @Test
    void anEmptySampleGivesNoTable() {
        assertNull(SymbolTable.train(List.of()));
        assertNull(SymbolTable.train(List.of(ByteBuffer.allocate(0), ByteBuffer.allocateDirect(0))));
        ByteBuffer consumed = ByteBuffer.wrap(new byte[] {1, 2, 3});
        consumed.position(3);
        assertNull(SymbolTable.train(List.of(consumed)), "only position to limit counts");
    }

    @Test
    void valuesOfOneRepeatedByteUseLongSymbols() {
        List<byte[]> sample = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            byte[] v = new byte[20 + i % 50];
            Arrays.fill(v, (byte) 'a');
            sample.add(v);
        }
        SymbolTable t = train(sample);
        for (int len = 0; len < 100; len++) {
            byte[] v = new byte[len];
            Arrays.fill(v, (byte) 'a');
            int n = roundTrip(t, v);
            assertTrue(n <= (len + 7) / 8 + 4, len + " bytes took " + n + " codes");
        }
        // other bytes are escaped, still round trip
        roundTrip(t, "abcabc\u0000\u00ff".getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void valuesLongerThanOneSymbolRoundTripInDirectSamples() {
        List<ByteBuffer> sample = new ArrayList<>();
        byte[] phrase = "the quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 200; i++) {
            ByteBuffer d = ByteBuffer.allocateDirect(phrase.length + 4);
            d.put(2, phrase).position(2).limit(2 + phrase.length);
            sample.add(d);
        }
        SymbolTable t = SymbolTable.train(sample);
        assertNotNull(t);
        for (ByteBuffer d : sample) {
            assertEquals(2, d.position(), "sample buffers not changed");
        }
        int n = roundTrip(t, phrase);
        assertTrue(n < phrase.length / 4, "43 bytes of a trained phrase took " + n + " codes");
        byte[] twice = (new String(phrase, StandardCharsets.US_ASCII) + " " + new String(phrase,
                StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII);
        roundTrip(t, twice);
    }

    @Test
    void malformedCodesHaveNoLengthAndDoNotDecode() {
        SymbolTable t = train(List.of("aaaaaaaaaaaaaaaa".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(t.symbols() < SymbolTable.MAX_SYMBOLS);
        byte[] out = new byte[100];
        byte bad = (byte) t.symbols();
        byte[][] malformed = {{(byte) SymbolTable.ESCAPE}, {0, (byte) SymbolTable.ESCAPE}, {bad}, {0, bad, 0},
                {(byte) SymbolTable.ESCAPE, 1, (byte) (SymbolTable.ESCAPE - 1)}};
        for (byte[] m : malformed) {
            for (ByteBuffer src : List.of(ByteBuffer.wrap(m), ByteBuffer.allocateDirect(m.length).put(0, m))) {
                assertEquals(-1, t.decodedLength(src, 0, m.length), Arrays.toString(m));
                assertThrows(IolabException.class, () -> t.decode(src, 0, m.length, out, 0));
            }
        }
        ByteBuffer ok = ByteBuffer.wrap(new byte[] {0, (byte) SymbolTable.ESCAPE, (byte) 0xFF});
        assertEquals(t.symbol(0).length + 1, t.decodedLength(ok, 0, 3));
        assertEquals(-1, t.decodedLength(ok, 0, 2), "the escape's byte is outside the n codes");
        assertEquals(-1, t.decodedLength(ok, 1, 3), "past the limit");
        assertEquals(-1, t.decodedLength(ok, -1, 1));
        assertEquals(-1, t.decodedLength(ok, 0, -1));
        assertEquals(-1, t.decodedLength(ok, Integer.MAX_VALUE, 2));
        assertEquals(0, t.decodedLength(ok, 3, 0));
        // too little room: an exception, never an index out of bounds
        int len = t.decodedLength(ok, 0, 3);
        for (int room = 0; room < len; room++) {
            byte[] small = new byte[room];
            assertThrows(IolabException.class, () -> t.decode(ok, 0, 3, small, 0));
        }
        assertThrows(IolabException.class, () -> t.decode(ok, 0, 3, new byte[len + 2], 3));
        assertThrows(IolabException.class, () -> t.decode(ok, 0, 3, new byte[len], -1));
        assertThrows(IolabException.class, () -> t.decode(ok, 1, 3, new byte[len], 0));
        assertThrows(IolabException.class, () -> t.decodeLoose(ok, 0, 3, new byte[(int) SymbolTable.looseRoom(3) - 1]));
        assertEquals(-1, t.decodeLoose(ok, 1, 3, new byte[(int) SymbolTable.looseRoom(3)]), "past the limit");

        // garbage never throws from decodedLength, and decode agrees with it
        SymbolTable employees = SymbolTable.train(employees());
        Random r = new Random(7);
        for (SymbolTable table : List.of(t, employees)) {
            for (int i = 0; i < 20_000; i++) {
                byte[] g = new byte[r.nextInt(40)];
                r.nextBytes(g);
                ByteBuffer src = ByteBuffer.wrap(g);
                int at = r.nextInt(g.length + 1);
                int n = r.nextInt(g.length - at + 1);
                int l = table.decodedLength(src, at, n);
                byte[] loose = new byte[(int) SymbolTable.looseRoom(n)];
                // the loose decode agrees with decodedLength on garbage too (-1 where it is malformed)
                assertEquals(l, table.decodeLoose(src, at, n, loose));
                if (l < 0) {
                    assertThrows(IolabException.class, () -> table.decode(src, at, n, new byte[400], 0));
                } else {
                    assertEquals(l, table.decode(src, at, n, new byte[l], 0));
                }
            }
        }
    }

    @Test
    void encodeIntoTooSmallADestinationThrows() {
        SymbolTable t = SymbolTable.train(employees());
        byte[] v = employee(5);
        int need = SymbolTable.maxEncoded(v.length);
        assertEquals(2 * v.length, need);
        for (ByteBuffer dst : List.of(ByteBuffer.allocate(need - 1), ByteBuffer.allocateDirect(need - 1),
                ByteBuffer.allocate(need))) {
            int at = dst.capacity() == need ? 1 : 0;
            assertThrows(IolabException.class, () -> t.encode(ByteBuffer.wrap(v), dst, at));
        }
        assertThrows(IolabException.class, () -> t.encode(ByteBuffer.wrap(v), ByteBuffer.allocate(need), -1));
        assertThrows(IolabException.class,
                () -> t.encode(ByteBuffer.wrap(v), ByteBuffer.allocate(need).asReadOnlyBuffer(), 0));
        assertThrows(IolabException.class, () -> SymbolTable.maxEncoded(-1));
        assertEquals(0, t.encode(ByteBuffer.allocate(0), ByteBuffer.allocate(0), 0));
    }

    @Test
    void writeThenReadGivesATableThatEncodesTheSame() {
        List<ByteBuffer> values = employees();
        SymbolTable t = SymbolTable.train(values);
        byte[] bytes = serialize(t);
        for (ByteBuffer page : List.of(ByteBuffer.allocate(8192), ByteBuffer.allocateDirect(8192))) {
            page.order(ByteOrder.BIG_ENDIAN).position(100).limit(4000);
            assertEquals(bytes.length, t.write(page, 123));
            assertEquals(100, page.position());
            assertEquals(4000, page.limit());
            SymbolTable back = SymbolTable.read(page, 123);
            assertNotNull(back);
            assertEquals(t.symbols(), back.symbols());
            assertArrayEquals(bytes, serialize(back));
            for (int i = 0; i < values.size(); i += 97) {
                byte[] v = employee(i);
                assertArrayEquals(encode(t, v), encode(back, v));
            }
            assertNull(SymbolTable.read(page, 122));
            page.limit(123 + bytes.length - 1);
            assertNull(SymbolTable.read(page, 123), "a table cut by the limit");
            assertThrows(IolabException.class, () -> t.write(page, 123), "no room up to the limit");
        }
    }

    @Test
    void everySingleFlippedBitMakesTheTableUnreadable() {
        for (SymbolTable t : List.of(SymbolTable.train(employees()),
                train(List.of("aaaaaaaaaaaaaaaa".getBytes(StandardCharsets.US_ASCII))))) {
            byte[] bytes = serialize(t);
            ByteBuffer page = ByteBuffer.allocate(bytes.length + 16);
            for (int bit = 0; bit < bytes.length * 8; bit++) {
                page.put(5, bytes);
                page.put(5 + bit / 8, (byte) (bytes[bit / 8] ^ (1 << (bit % 8))));
                assertNull(SymbolTable.read(page, 5), "bit " + bit + " flipped");
            }
            page.put(5, bytes);
            assertNotNull(SymbolTable.read(page, 5));
        }
    }

    @Test
    void garbageIsNeverATableAndNeverThrows() {
        Random r = new Random(99);
        byte[] magic = Arrays.copyOf(serialize(train(List.of("abababab".getBytes(StandardCharsets.US_ASCII)))), 8);
        for (int i = 0; i < 50_000; i++) {
            byte[] g = new byte[r.nextInt(3000)];
            r.nextBytes(g);
            if (i % 2 == 0 && g.length >= 8) {
                System.arraycopy(magic, 0, g, 0, i % 4 == 0 ? 4 : 8); // a real magic (and count) ahead of garbage
            }
            ByteBuffer page = i % 3 == 0 ? ByteBuffer.allocateDirect(g.length).put(0, g) : ByteBuffer.wrap(g);
            assertNull(SymbolTable.read(page, 0));
            int at = r.nextInt(g.length + 2) - 1;
            assertNull(SymbolTable.read(page, at));
        }
        assertNull(SymbolTable.read(ByteBuffer.allocate(0), 0));
        assertNull(SymbolTable.read(ByteBuffer.allocate(16), Integer.MAX_VALUE));
        assertNull(SymbolTable.read(ByteBuffer.allocate(16), Integer.MIN_VALUE));
    }

    @Test
    void trainingIsDeterministic() {
        byte[] a = serialize(SymbolTable.train(employees()));
        byte[] b = serialize(SymbolTable.train(employees()));
        assertArrayEquals(a, b);
        List<ByteBuffer> direct = new ArrayList<>();
        for (ByteBuffer v : employees()) {
            direct.add(ByteBuffer.allocateDirect(v.remaining()).put(0, v, 0, v.remaining()));
        }
        assertArrayEquals(a, serialize(SymbolTable.train(direct)), "heap or direct: the same table");
    }

    @Test
    void manyThreadsShareOneTable() throws InterruptedException {
        SymbolTable t = SymbolTable.train(employees());
        Thread[] threads = new Thread[4];
        Throwable[] failed = new Throwable[1];
        for (int k = 0; k < threads.length; k++) {
            int first = k;
            threads[k] = new Thread(() -> {
                try {
                    ByteBuffer dst = ByteBuffer.allocate(256);
                    byte[] back = new byte[256];
                    for (int i = first; i < EMPLOYEES; i += threads.length) {
                        byte[] v = employee(i);
                        int n = t.encode(ByteBuffer.wrap(v), dst, 0);
                        int len = t.decode(dst, 0, n, back, 0);
                        if (!Arrays.equals(v, 0, v.length, back, 0, len)) {
                            throw new AssertionError("employee " + i);
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failed) {
                        failed[0] = e;
                    }
                }
            });
            threads[k].start();
        }
        for (Thread th : threads) {
            th.join();
        }
        synchronized (failed) {
            assertNull(failed[0]);
        }
    }
}
