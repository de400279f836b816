package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compression ({@link StoreOptions#withCompression}): a compaction trains a symbol table and stores values
 * compressed; every read path (get, the zero-copy get, scan, a reopen, a read-only open, a recovery) gives back the
 * exact values; puts after it compress; a compaction without it decompresses; a damaged table is refused, naming its
 * offset.
 */
class StoreCompressionTest {
    @TempDir
    Path tmp;

    static Stream<Arguments> configs() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (Backend backend : Backend.values()) {
            for (Durability d : new Durability[] {Durability.NONE, Durability.BATCH}) {
                b.add(Arguments.of(backend, d));
            }
        }
        return b.build();
    }

    /** @return a text-like value: the kind a symbol table shortens (the employee benchmark's comments, say) */
    static byte[] text(int i, Random rnd) {
        String[] words = {"employee", "number", "the", "record", "store", "value", "with", "some", "text"};
        StringBuilder s = new StringBuilder("This is record number ").append(i).append(':');
        int n = rnd.nextInt(12);
        for (int w = 0; w < n; w++) {
            s.append(' ').append(words[rnd.nextInt(words.length)]);
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] key(int i) {
        return ("key" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, byte[]> fill(Store s, int n, Random rnd) {
        Map<String, byte[]> oracle = new HashMap<>();
        for (int i = 0; i < n; i++) {
            // now and then a value that does not compress (random bytes), an empty one and a long one
            byte[] v;
            if (i % 17 == 0) {
                v = StoreContractTest.value(i, rnd.nextInt(200));
            } else if (i % 101 == 0) {
                v = new byte[0];
            } else if (i % 211 == 0) {
                v = new String(text(i, rnd), StandardCharsets.UTF_8).repeat(300).getBytes(StandardCharsets.UTF_8);
            } else {
                v = text(i, rnd);
            }
            s.put(key(i), v);
            oracle.put("key" + i, v);
        }
        return oracle;
    }

    private static void check(Store s, Map<String, byte[]> oracle, String where) {
        assertEquals(oracle.size(), s.size(), where);
        // the scan's values, each checked against get's
        Map<String, byte[]> scanned = StorePowerLossTest.contents(s);
        assertEquals(oracle.keySet(), scanned.keySet(), where);
        for (Map.Entry<String, byte[]> e : oracle.entrySet()) {
            byte[] kb = e.getKey().getBytes(StandardCharsets.UTF_8);
            assertArrayEquals(e.getValue(), scanned.get(e.getKey()), where + " scan " + e.getKey());
            byte[][] seen = new byte[1][];
            assertTrue(s.get(ByteBuffer.wrap(kb), v -> {
                seen[0] = new byte[v.remaining()];
                v.get(seen[0]);
            }), where);
            assertArrayEquals(e.getValue(), seen[0], where + " visited " + e.getKey());
        }
    }

    private static int version(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.read(b, 0);
        }
        Header a = Header.decode(b, Header.COPY_A);
        Header c = Header.decode(b, Header.COPY_B);
        Header h = a == null || c != null && c.generation() > a.generation() ? c : a;
        return h.packed() ? Header.VERSION_PACKED : Header.VERSION;
    }

    @ParameterizedTest
    @MethodSource("configs")
    void aCompressedCompactionKeepsEveryValueAndShrinksTheFile(Backend backend, Durability durability)
            throws IOException {
        Random rnd = new Random(1);
        Path plainFile = tmp.resolve("plain.store");
        Path packedFile = tmp.resolve("packed.store");
        StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(durability);
        Map<String, byte[]> oracle;
        long plainSize;
        try (Store s = Store.open(plainFile, o)) {
            oracle = fill(s, 3000, rnd);
            s.compact();
            assertEquals(0, s.stats().symbols());
            plainSize = s.stats().fileSize();
        }
        try (Store s = Store.open(packedFile, o.withCompression(true))) {
            Map<String, byte[]> same = fill(s, 3000, new Random(1));
            assertEquals(oracle.keySet(), same.keySet());
            check(s, oracle, "before compaction");
            s.compact();
            StoreStats st = s.stats();
            assertTrue(st.symbols() > 0, st.toString());
            assertTrue(st.fileSize() < 0.75 * plainSize, st.fileSize() + " compressed against " + plainSize);
            check(s, oracle, "after compaction");
            // puts after the compaction compress with the same table; updates, deletes and holes work as ever
            for (int i = 3000; i < 3500; i++) {
                byte[] v = text(i, rnd);
                s.put(key(i), v);
                oracle.put("key" + i, v);
            }
            for (int i = 0; i < 3000; i += 3) {
                s.delete(key(i));
                oracle.remove("key" + i);
            }
            for (int i = 1; i < 3000; i += 3) {
                byte[] v = text(i + 7, rnd);
                s.put(key(i), v);
                oracle.put("key" + i, v);
            }
            check(s, oracle, "after puts and deletes");
            assertTrue(s.stats().liveBytes() < 0.75 * rawBytes(oracle), "puts after the compaction are compressed");
        }
        assertEquals(Header.VERSION_PACKED, version(packedFile));
        try (Store s = Store.open(packedFile, o)) {
            check(s, oracle, "reopened");
        }
        try (Store s = Store.openReadOnly(packedFile, o)) {
            check(s, oracle, "read-only");
            assertTrue(s.stats().symbols() > 0);
        }
        assertTrue(Store.verify(packedFile).ok(), Store.verify(packedFile).toString());
        // compacted again with compression: a new table, trained on values that were compressed
        try (Store s = Store.open(packedFile, o.withCompression(true))) {
            s.compact();
            check(s, oracle, "compacted twice");
        }
        // a compaction without compression writes every value plain and the file is version 2 again
        try (Store s = Store.open(packedFile, o)) {
            s.compact();
            assertEquals(0, s.stats().symbols());
            assertEquals(rawBytes(oracle), s.stats().liveBytes());
            check(s, oracle, "decompressed");
        }
        assertEquals(Header.VERSION, version(packedFile));
        try (Store s = Store.open(packedFile, o)) {
            check(s, oracle, "decompressed, reopened");
        }
    }

    private static long rawBytes(Map<String, byte[]> oracle) {
        long n = 0;
        for (Map.Entry<String, byte[]> e : oracle.entrySet()) {
            n += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().length;
        }
        return n;
    }

    @ParameterizedTest
    @MethodSource("configs")
    void anUncleanStopAfterCompressedPutsRecoversThem(Backend backend, Durability durability) {
        Path file = tmp.resolve("crash.store");
        Random rnd = new Random(2);
        StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(durability)
                .withCompression(true);
        Map<String, byte[]> oracle;
        try (Store s = Store.open(file, o)) {
            oracle = fill(s, 1000, rnd);
            s.compact();
        }
        Store s = Store.open(file, o);
        for (int i = 1000; i < 1400; i++) {
            byte[] v = text(i, rnd);
            s.put(key(i), v);
            oracle.put("key" + i, v);
        }
        s.delete(key(5));
        oracle.remove("key5");
        s.sync();
        // the writer stops without a close: the next open recovers (redo replay at BATCH, a scan at NONE)
        s.abandon();
        try (Store r = Store.open(file, o)) {
            check(r, oracle, "recovered");
            assertTrue(r.stats().symbols() > 0);
        }
        assertTrue(Store.verify(file).ok());
    }

    /**
     * The table is trained on values from the whole file, not its first megabyte: the front half of these records
     * shares no words with the back half, and both halves compress.
     */
    @Test
    void theTableLearnsFromTheWholeFile() {
        Path file = tmp.resolve("halves.store");
        String[] front = {"alpha", "beta", "gamma", "delta", "epsilon"};
        String[] back = {"QUOKKA", "WOMBAT", "NUMBAT", "BILBY", "DINGO"};
        Random rnd = new Random(9);
        long raw = 0;
        int n = 20_000;
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE)
                .withCompression(true))) {
            for (int i = 0; i < n; i++) {
                String[] words = i < n / 2 ? front : back;
                StringBuilder v = new StringBuilder();
                while (v.length() < 300) {
                    v.append(words[rnd.nextInt(words.length)]).append(i < n / 2 ? ' ' : '_');
                }
                byte[] value = v.toString().getBytes(StandardCharsets.UTF_8);
                s.put(key(i), value);
                raw += key(i).length + value.length;
            }
            s.compact();
            double ratio = (double) s.stats().liveBytes() / raw;
            assertTrue(ratio < 0.5, "stored " + s.stats().liveBytes() + " of " + raw + " bytes: " + ratio);
        }
    }

    @Test
    void valuesThatDoNotGetShorterAreStoredPlain() {
        Path file = tmp.resolve("random.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE).withCompression(true);
        Map<String, byte[]> oracle = new HashMap<>();
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < 500; i++) {
                byte[] v = StoreContractTest.value(i, 64);
                s.put(key(i), v);
                oracle.put("key" + i, v);
            }
            s.compact();
            // random bytes: no table pays, or a table and every value plain
            assertEquals(rawBytes(oracle), s.stats().liveBytes());
            check(s, oracle, "random values");
        }
    }

    @Test
    void aValueOverThePackLimitIsStoredPlainAndOneBelowCompressed() {
        Path file = tmp.resolve("long.store");
        Random rnd = new Random(4);
        try (Store s = Store.open(file, StoreOptions.defaults().withCompression(true))) {
            Map<String, byte[]> oracle = fill(s, 300, rnd);
            s.compact();
            long live = s.stats().liveBytes();
            byte[] over = new String(text(1, rnd), StandardCharsets.UTF_8).repeat(Store.PACK_MAX / 10)
                    .getBytes(StandardCharsets.UTF_8);
            assertTrue(over.length > Store.PACK_MAX);
            byte[] under = java.util.Arrays.copyOf(over, Store.PACK_MAX);
            s.put(key(1000), over);
            oracle.put("key1000", over);
            long afterOver = s.stats().liveBytes();
            assertEquals(live + key(1000).length + over.length, afterOver, "stored as it is");
            s.put(key(1001), under);
            oracle.put("key1001", under);
            assertTrue(s.stats().liveBytes() - afterOver < under.length / 2, "compressed");
            check(s, oracle, "long values");
            s.compact();
            check(s, oracle, "long values compacted");
        }
    }

    @Test
    void aDamagedSymbolTableIsRefusedNamingItsOffset() throws IOException {
        Path file = tmp.resolve("damaged.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE).withCompression(true);
        Random rnd = new Random(3);
        try (Store s = Store.open(file, o)) {
            fill(s, 500, rnd);
            s.compact();
        }
        byte[] before = Files.readAllBytes(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, Header.TABLE + 20);
            b.put(0, (byte) (b.get(0) ^ 0x10));
            ch.write(b.clear(), Header.TABLE + 20);
        }
        StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> Store.open(file, o).close());
        assertEquals(Header.TABLE, e.offset());
        assertTrue(e.getMessage().contains("symbol table") && e.getMessage().contains(file.toString()),
                e.getMessage());
        assertThrows(StoreCorruptedException.class, () -> Store.openReadOnly(file, o).close());
        StoreReport report = Store.verify(file);
        assertFalse(report.ok());
        assertTrue(report.problems().stream().anyMatch(p -> p.offset() == Header.TABLE && !p.recoverable()),
                report.toString());
        // refused, not changed: only the flipped byte differs
        byte[] after = Files.readAllBytes(file);
        int diff = 0;
        for (int i = 0; i < before.length; i++) {
            diff += before[i] != after[i] ? 1 : 0;
        }
        assertEquals(before.length, after.length);
        assertEquals(1, diff);
    }

    @Test
    void aCompressedSlotInAFileWithoutATableIsDamageNotGarbage() throws IOException {
        Path file = tmp.resolve("notable.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        try (Store s = Store.open(file, o)) {
            s.put(key(1), "a value of some length".getBytes(StandardCharsets.UTF_8));
        }
        // set the packed bit of the one slot and give it a valid CRC: only a bug could write this, and a read must
        // say so rather than hand back the bytes as a value
        ByteBuffer slot = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.read(slot, Slots.DATA_START);
            long w0 = slot.getLong(0);
            slot.putLong(0, w0 | Slots.PACKED);
            int kv = Slots.keyAndValue(w0);
            slot.putInt(12, Slots.crc(new java.util.zip.CRC32C(), slot, 0, kv));
            ch.write(slot.clear(), Slots.DATA_START);
        }
        try (Store s = Store.open(file, o)) {
            StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> s.get(key(1)));
            assertEquals(Slots.DATA_START, e.offset());
            assertThrows(StoreCorruptedException.class, () -> s.scan((k, v) -> { }));
        }
        StoreReport report = Store.verify(file);
        assertTrue(report.problems().stream().anyMatch(p -> p.offset() == Slots.DATA_START
                && p.what().contains("without a symbol table")), report.toString());
    }

    @Test
    void anEmptyStoreCompactsWithoutATable() {
        Path file = tmp.resolve("empty.store");
        try (Store s = Store.open(file, StoreOptions.defaults().withCompression(true))) {
            s.compact();
            assertEquals(0, s.stats().symbols());
            assertNull(s.get(key(1)));
        }
    }
}
