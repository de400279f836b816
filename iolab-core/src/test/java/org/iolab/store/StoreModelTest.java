package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model-based test (seeded random sequences, each seed reproducible): random put, get, delete, contains, compact,
 * sync and reopen against a {@link HashMap} oracle, over every backend and durability level; after every step the
 * store answers like the oracle, and its statistics add up. Every third seed compresses (its compactions train a symbol
 * table, its values are text-like half of the time).
 */
@Timeout(120)
class StoreModelTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
    void randomOperationsMatchAHashMap(int seed) {
        Random rnd = new Random(seed);
        Backend backend = Backend.values()[seed % Backend.values().length];
        Durability level = Durability.values()[seed % 3];
        StoreOptions options = StoreOptions.defaults().withBackend(backend).withDurability(level)
                .withRedoLimit(32 * 1024).withCheckpoint(seed % 4 != 0).withCompression(seed % 3 == 1);
        boolean packed = options.compression();
        Path file = tmp.resolve("model.store");
        Map<String, byte[]> oracle = new HashMap<>();
        int keys = 5 + rnd.nextInt(200);
        int steps = level == Durability.ALWAYS ? 400 : 2000;
        Store s = Store.open(file, options);
        try {
            for (int step = 0; step < steps; step++) {
                String key = "key" + rnd.nextInt(keys);
                byte[] kb = key.getBytes(StandardCharsets.UTF_8);
                int op = rnd.nextInt(100);
                String where = "seed " + seed + " step " + step + " (" + backend + ", " + level + ")";
                if (op < 45) {
                    byte[] v = packed && rnd.nextBoolean() ? StoreCompressionTest.text(step, rnd)
                            : StoreContractTest.value(rnd.nextLong(), rnd.nextInt(4) == 0 ? rnd.nextInt(5000)
                            : rnd.nextInt(100));
                    s.put(kb, v);
                    oracle.put(key, v);
                } else if (op < 65) {
                    assertArrayEquals(oracle.get(key), s.get(kb), where);
                } else if (op < 80) {
                    long seq = s.delete(kb);
                    assertEquals(oracle.remove(key) != null, seq > 0, where);
                } else if (op < 90) {
                    assertEquals(oracle.containsKey(key), s.contains(kb), where);
                } else if (op < 93) {
                    s.sync();
                } else if (op < 95) {
                    s.compact();
                    StoreStats st = s.stats();
                    assertEquals(0, st.holes(), where);
                    assertTrue(st.fileSize() <= Slots.DATA_START + 1.1 * st.storedBytes(), where + ": " + st);
                } else {
                    s.close();
                    s = Store.open(file, options);
                }
                if (step % 100 == 99) {
                    checkAll(s, oracle, where, packed);
                }
            }
            if (packed && oracle.values().stream().filter(v -> v.length > 0 && v[0] == 'T').count() >= 20) {
                // a compaction over enough text-like values trains a table: compression did engage in this run
                s.compact();
                assertTrue(s.stats().symbols() > 0, "seed " + seed + ": " + s.stats());
            }
            checkAll(s, oracle, "seed " + seed + " end", packed);
        } finally {
            s.close();
        }
        try (Store reopened = Store.open(file, options)) {
            checkAll(reopened, oracle, "seed " + seed + " reopened", packed);
        }
        assertTrue(Store.verify(file).ok());
    }

    private static void checkAll(Store s, Map<String, byte[]> oracle, String where, boolean packed) {
        assertEquals(oracle.size(), s.size(), where);
        Map<String, byte[]> seen = new HashMap<>();
        assertEquals(oracle.size(), s.scan((k, v) -> {
            byte[] kb = new byte[k.remaining()];
            k.get(kb);
            byte[] vb = new byte[v.remaining()];
            v.get(vb);
            seen.put(new String(kb, StandardCharsets.UTF_8), vb);
        }), where);
        assertEquals(oracle.keySet(), seen.keySet(), where);
        long kv = 0;
        for (Map.Entry<String, byte[]> e : oracle.entrySet()) {
            assertArrayEquals(e.getValue(), seen.get(e.getKey()), where);
            assertArrayEquals(e.getValue(), s.get(e.getKey().getBytes(StandardCharsets.UTF_8)), where);
            kv += e.getKey().length() + e.getValue().length;
        }
        StoreStats st = s.stats();
        if (packed) {
            // stored bytes: a compressed value is stored only when shorter
            assertTrue(st.liveBytes() <= kv, where + ": " + st);
        } else {
            assertEquals(kv, st.liveBytes(), where + ": " + st);
        }
        assertEquals(st.dataEnd() - Slots.DATA_START, st.storedBytes() + st.freeBytes(), where + ": " + st);
    }
}
