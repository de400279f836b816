package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compression beside repair, statistics, readers during compactions and the codec's edge cases (from a review of the
 * compression commit; the two repair cases failed before their fix).
 */
class StoreCompressionRepairTest {
    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return ("key" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, byte[]> fill(Store s, int n, Random rnd) {
        Map<String, byte[]> oracle = new HashMap<>();
        for (int i = 0; i < n; i++) {
            byte[] v = StoreCompressionTest.text(i, rnd);
            s.put(key(i), v);
            oracle.put("key" + i, v);
        }
        return oracle;
    }

    private static void zero(Path file, long at, int n) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(n), at);
            ch.force(true);
        }
    }

    /** Opens, scans and compacts; returns what went wrong, or null. */
    private static String useAfterRepair(Path file, StoreOptions o, Map<String, byte[]> oracle) {
        try (Store s = Store.open(file, o)) {
            long[] scanned = {0};
            s.scan((k, v) -> scanned[0]++);
            for (Map.Entry<String, byte[]> e : oracle.entrySet()) {
                byte[] got = s.get(e.getKey().getBytes(StandardCharsets.UTF_8));
                if (got != null && !java.util.Arrays.equals(got, e.getValue())) {
                    return "wrong value for " + e.getKey();
                }
            }
            s.compact();
            return null;
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    /**
     * A compressed store that lost its whole first block (header page of zeros: the case beginsAsStore and repair
     * are documented to handle) lost its table with it: the repair drops the compressed records and reports them. It
     * used to keep them, and the repaired store threw on get, scan and compact, and verify called it damaged.
     */
    @Test
    void repairOfACompressedStoreThatLostItsHeaderPageLeavesAUsableStore() throws IOException {
        Path file = tmp.resolve("lost-page.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE).withCompression(true);
        Map<String, byte[]> oracle;
        try (Store s = Store.open(file, o)) {
            oracle = fill(s, 2000, new Random(5));
            s.compact();
            assertTrue(s.stats().symbols() > 0);
        }
        zero(file, 0, Header.PAGE);
        StoreReport repaired = Store.repair(file);
        assertTrue(repaired.problems().stream().anyMatch(p -> p.what().contains("the record is dropped")),
                repaired.toString());
        StoreReport after = Store.verify(file);
        String use = useAfterRepair(file, o, oracle);
        assertTrue(after.ok() && use == null, "after repair: " + repaired + "\nverify: " + after.problems().size()
                + " problems, first " + after.problems().stream().limit(2).toList() + "\nuse: " + use);
    }

    /** The header copies damaged, the table intact: repair keeps the table and every value (held). */
    @Test
    void repairWithBothHeaderCopiesZeroedKeepsTheTable() throws IOException {
        Path file = tmp.resolve("headers.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE).withCompression(true);
        Map<String, byte[]> oracle;
        try (Store s = Store.open(file, o)) {
            oracle = fill(s, 2000, new Random(6));
            s.compact();
        }
        zero(file, Header.COPY_A, Header.SIZE);
        zero(file, Header.COPY_B, Header.SIZE);
        Store.repair(file);
        assertTrue(Store.verify(file).ok());
        try (Store s = Store.open(file, o)) {
            assertTrue(s.stats().symbols() > 0);
            for (Map.Entry<String, byte[]> e : oracle.entrySet()) {
                assertArrayEquals(e.getValue(), s.get(e.getKey().getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    /**
     * One flipped bit in the table (header valid): the open refuses the store, naming the table, and the repair keeps
     * the values stored plain (the incompressible ones), drops the compressed ones and writes the file plain. It used
     * to refuse too, so no tool could reach the plain values.
     */
    @Test
    void repairOfAStoreWithADamagedTableSalvagesThePlainRecords() throws IOException {
        Path file = tmp.resolve("table.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE).withCompression(true);
        Random rnd = new Random(7);
        Map<String, byte[]> plain = new HashMap<>();
        try (Store s = Store.open(file, o)) {
            fill(s, 1000, rnd);
            for (int i = 0; i < 100; i++) {
                byte[] v = new byte[64];
                rnd.nextBytes(v); // incompressible: stored plain
                s.put(("plain" + i).getBytes(StandardCharsets.UTF_8), v);
                plain.put("plain" + i, v);
            }
            s.compact();
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, Header.TABLE + 20);
            b.put(0, (byte) (b.get(0) ^ 0x10));
            ch.write(b.clear(), Header.TABLE + 20);
        }
        String why = null;
        try {
            Store.repair(file);
        } catch (RuntimeException e) {
            why = e.toString();
        }
        assertEquals(null, why, "repair refused; the " + plain.size() + " plain records are unreachable");
        assertTrue(Store.verify(file).ok(), Store.verify(file).toString());
        try (Store s = Store.open(file, o)) {
            assertEquals(0, s.stats().symbols());
            for (Map.Entry<String, byte[]> e : plain.entrySet()) {
                assertArrayEquals(e.getValue(), s.get(e.getKey().getBytes(StandardCharsets.UTF_8)), e.getKey());
            }
            // what is left reads back whole: no value that does not decode
            long[] n = {0};
            s.scan((k, v) -> n[0]++);
            assertEquals(s.size(), n[0]);
        }
    }

    /** liveBytes/storedBytes agree whether the index comes from the compaction, FILE.idx or a rebuild scan. */
    @Test
    void statsAgreeAfterCompactionReopenAndRebuild() throws IOException {
        Path file = tmp.resolve("stats.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.BATCH).withCompression(true);
        StoreStats a;
        try (Store s = Store.open(file, o)) {
            fill(s, 3000, new Random(8));
            s.compact();
            for (int i = 0; i < 3000; i += 3) {
                s.delete(key(i));
            }
            for (int i = 1; i < 3000; i += 7) {
                s.put(key(i), ("replaced value number " + i + " with the record text").getBytes());
            }
            a = s.stats();
        }
        StoreStats b;
        try (Store s = Store.open(file, o)) {
            b = s.stats();
        }
        Files.delete(IndexFile.of(file));
        StoreStats c;
        try (Store s = Store.open(file, o)) {
            c = s.stats();
        }
        assertEquals(List.of(a.liveRecords(), a.liveBytes(), a.storedBytes()),
                List.of(b.liveRecords(), b.liveBytes(), b.storedBytes()), "reopen");
        assertEquals(List.of(a.liveRecords(), a.liveBytes(), a.storedBytes()),
                List.of(c.liveRecords(), c.liveBytes(), c.storedBytes()), "rebuild");
    }

    /** Tables with 0x00 / 0xFF symbols, a one-symbol table, values of 0..40 bytes: round trip. */
    @Test
    void edgeTablesRoundTrip() {
        Random rnd = new Random(9);
        List<List<ByteBuffer>> samples = new ArrayList<>();
        samples.add(List.of(ByteBuffer.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF})));
        samples.add(List.of(ByteBuffer.wrap(new byte[64])));
        samples.add(List.of(ByteBuffer.wrap("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes())));
        byte[] mixed = new byte[4096];
        for (int i = 0; i < mixed.length; i++) {
            mixed[i] = (byte) (rnd.nextInt(4) == 0 ? 0xFF : rnd.nextInt(3));
        }
        samples.add(List.of(ByteBuffer.wrap(mixed)));
        for (List<ByteBuffer> sample : samples) {
            SymbolTable t = SymbolTable.train(sample);
            if (t == null) {
                continue;
            }
            for (int trial = 0; trial < 2000; trial++) {
                byte[] v = new byte[rnd.nextInt(41)];
                for (int i = 0; i < v.length; i++) {
                    v[i] = (byte) (rnd.nextInt(3) == 0 ? 0xFF : rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(256));
                }
                ByteBuffer enc = ByteBuffer.allocate(SymbolTable.maxEncoded(v.length) + 1);
                int n = t.encode(ByteBuffer.wrap(v), enc, 0);
                byte[] loose = new byte[(int) SymbolTable.looseRoom(n)];
                int m = t.decodeLoose(enc, 0, n, loose);
                assertEquals(v.length, m);
                assertArrayEquals(v, java.util.Arrays.copyOf(loose, m));
                assertEquals(v.length, t.decodedLength(enc, 0, n));
                byte[] strict = new byte[v.length];
                assertEquals(v.length, t.decode(enc, 0, n, strict, 0));
                assertArrayEquals(v, strict);
                ByteBuffer direct = ByteBuffer.allocateDirect(n).put(0, enc, 0, n);
                assertEquals(v.length, t.decodeLoose(direct, 0, n, loose));
                assertArrayEquals(v, java.util.Arrays.copyOf(loose, m));
            }
        }
    }

    /** Garbage codes: decodeLoose and decodedLength agree, and a valid one decodes the same way strictly. */
    @Test
    void garbageCodesAgreeBetweenDecoders() {
        Random rnd = new Random(10);
        List<ByteBuffer> sample = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            sample.add(ByteBuffer.wrap(StoreCompressionTest.text(i, rnd)));
        }
        SymbolTable t = SymbolTable.train(sample);
        for (int trial = 0; trial < 20000; trial++) {
            byte[] g = new byte[rnd.nextInt(30)];
            rnd.nextBytes(g);
            ByteBuffer b = ByteBuffer.wrap(g);
            byte[] loose = new byte[(int) SymbolTable.looseRoom(g.length)];
            int m = t.decodeLoose(b, 0, g.length, loose);
            assertEquals(t.decodedLength(b, 0, g.length), m);
            if (m >= 0) {
                byte[] strict = new byte[m];
                t.decode(b, 0, g.length, strict, 0);
                assertArrayEquals(strict, java.util.Arrays.copyOf(loose, m));
            }
        }
    }

    /** Readers get and scan while the writer alternates compressed/plain compactions and puts (held?). */
    @Test
    void readersDuringCompactionsSeeExactValues() throws Exception {
        Path file = tmp.resolve("conc.store");
        StoreOptions on = StoreOptions.defaults().withDurability(Durability.NONE).withCompression(true);
        try (Store s = Store.open(file, on)) {
            Map<String, byte[]> oracle = fill(s, 3000, new Random(11));
            java.util.concurrent.atomic.AtomicReference<Throwable> bad = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                int seed = r;
                Thread t = new Thread(() -> {
                    Random rnd = new Random(seed);
                    try {
                        while (!stop.get()) {
                            int i = rnd.nextInt(3000);
                            byte[] got = s.get(key(i));
                            byte[] want = oracle.get("key" + i);
                            if (!java.util.Arrays.equals(got, want)) {
                                throw new AssertionError("key" + i);
                            }
                            if (rnd.nextInt(200) == 0) {
                                s.scan((k, v) -> {
                                    byte[] kb = new byte[k.remaining()];
                                    k.get(kb);
                                    byte[] vb = new byte[v.remaining()];
                                    v.get(vb);
                                    if (!java.util.Arrays.equals(vb, oracle.get(new String(kb)))) {
                                        throw new AssertionError("scan " + new String(kb));
                                    }
                                });
                            }
                        }
                    } catch (Throwable e) {
                        bad.compareAndSet(null, e);
                    }
                });
                t.start();
                readers.add(t);
            }
            for (int round = 0; round < 20 && bad.get() == null; round++) {
                s.compact();
            }
            stop.set(true);
            for (Thread t : readers) {
                t.join();
            }
            if (bad.get() != null) {
                throw new AssertionError(bad.get());
            }
        }
    }

    static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
