package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Drives StoreUpdateBenchmark's state by hand: passes, the check after them, the clean-up. */
class StoreUpdateBenchmarkTest {
    @TempDir
    Path dir;

    private StoreUpdateBenchmark bench(String durability) {
        StoreUpdateBenchmark b = new StoreUpdateBenchmark();
        b.records = "500";
        b.durability = durability;
        b.dir = dir.toString();
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "batch", "always"})
    void passesUpdateEveryKeyAndTheCheckAcceptsThem(String durability) {
        StoreUpdateBenchmark b = bench(durability);
        b.setupTrial();
        Path folder = b.folder();
        for (int it = 0; it < 3; it++) {
            b.open();
            long first = b.store().stats().lastSequence();
            assertEquals(first + 500, b.pass());
            assertEquals(first + 1000, b.pass());
            assertEquals(500, b.store().size());
            b.check();
        }
        b.tearDownTrial();
        assertFalse(Files.exists(folder));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "batch"})
    void theCheckFailsWhenAValueIsNotTheLastPasss(String durability) {
        StoreUpdateBenchmark b = bench(durability);
        b.setupTrial();
        b.open();
        b.pass();
        b.store().put("employee-7".getBytes(StandardCharsets.US_ASCII), new byte[100]);
        IllegalStateException e = assertThrows(IllegalStateException.class, b::check);
        assertTrue(e.getMessage().contains("key 7"), e.getMessage());
        b.tearDownTrial();
    }
}
