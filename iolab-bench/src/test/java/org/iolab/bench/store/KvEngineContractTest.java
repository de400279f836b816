package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every peer engine, at every durability level, passes the whole employee workload (1,000 employees) with its checks. */
class KvEngineContractTest {
    static final int RECORDS = 1000;
    /** ALWAYS syncs every operation (about 2,000 syncs for 1,000 employees): fewer keep the suite fast. */
    static final int RECORDS_ALWAYS = 100;

    @TempDir
    Path dir;

    /** iolab's store over every backend, then the peers. */
    static Stream<String> engines() {
        return Engines.names().stream();
    }

    static Stream<Arguments> enginesAndLevels() {
        // the heap-map floor runs at NONE only (refusedAtSyncedLevels)
        return Engines.names().stream().flatMap(e -> Stream.of(Durability.values())
                .filter(d -> d == Durability.NONE || !e.equals(Engines.FLOOR)).map(d -> Arguments.of(e, d)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("enginesAndLevels")
    void passesEveryPhaseOfTheWorkload(String name, Durability durability) throws Exception {
        int records = durability == Durability.ALWAYS ? RECORDS_ALWAYS : RECORDS;
        EmployeeWorkload w = new EmployeeWorkload(records);
        Map<Phase, Long> results;
        long size;
        try (WorkloadRun run = new WorkloadRun(w, Engines.create(name), dir, durability)) {
            results = run.runAll();
            size = run.closeAndMeasure();
        }
        assertEquals(records, results.get(Phase.PUT));
        assertEquals(w.liveIdSum(Phase.PUT), results.get(Phase.SCAN));
        assertEquals(w.liveIdSum(Phase.GET), results.get(Phase.GET));
        assertEquals(records / 2, results.get(Phase.DELETE));
        assertEquals(records / 2, results.get(Phase.REINSERT));
        assertTrue(size > 0, "size on disk " + size);
        assertEquals(size, Folders.size(dir));
    }

    @ParameterizedTest
    @MethodSource("engines")
    void keepsTheLastValueAndForgetsDeletedKeysAcrossAReopen(String name) {
        KvEngine e = Engines.create(name);
        KvEngine.Sizing sizing = new KvEngine.Sizing(100, 8, 16);
        Map<String, String> oracle = new HashMap<>();
        e.open(dir, Durability.NONE, sizing);
        try {
            for (int i = 0; i < 50; i++) {
                put(e, oracle, "k" + i, "first value " + i);
            }
            for (int i = 0; i < 50; i += 3) {
                put(e, oracle, "k" + i, "second, longer value " + i);
            }
            for (int i = 1; i < 50; i += 4) {
                e.delete(bytes("k" + i));
                oracle.remove("k" + i);
            }
            e.delete(bytes("never there"));
            assertNull(e.get(bytes("never there")));
            assertMatches(e, oracle);
            e.sync();
        } finally {
            e.close();
        }
        e.close(); // twice is harmless
        e.open(dir, Durability.NONE, sizing);
        try {
            assertMatches(e, oracle);
            long[] seen = {0};
            long visited = e.scan((k, v) -> ++seen[0] < 5);
            assertEquals(5, seen[0], "the scan stops when the visitor says so");
            assertEquals(5, visited);
        } finally {
            e.close();
        }
        assertTrue(e.sizeOnDisk() > 0);
    }

    private static void put(KvEngine e, Map<String, String> oracle, String k, String v) {
        e.put(bytes(k), bytes(v));
        oracle.put(k, v);
    }

    private static void assertMatches(KvEngine e, Map<String, String> oracle) {
        for (int i = 0; i < 50; i++) {
            String k = "k" + i;
            String v = oracle.get(k);
            byte[] got = e.get(bytes(k));
            if (v == null) {
                assertNull(got, k);
            } else {
                assertArrayEquals(bytes(v), got, k);
            }
        }
        Map<String, String> scanned = new HashMap<>();
        long n = e.scan((ByteBuffer k, ByteBuffer v) -> {
            scanned.put(StandardCharsets.UTF_8.decode(k.duplicate()).toString(),
                    StandardCharsets.UTF_8.decode(v.duplicate()).toString());
            return true;
        });
        assertEquals(oracle, scanned);
        assertEquals(oracle.size(), n);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
