package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Drives StoreCompressionBenchmark's state by hand: each pass reads every employee back right, and cleans up. */
class StoreCompressionBenchmarkTest {
    @TempDir
    Path dir;

    private StoreCompressionBenchmark bench(String compression, String phase) {
        StoreCompressionBenchmark b = new StoreCompressionBenchmark();
        b.compression = compression;
        b.phase = phase;
        b.records = "2000";
        b.dir = dir.toString();
        return b;
    }

    @ParameterizedTest
    @CsvSource({"off,scan", "on,scan", "off,get", "on,get"})
    void aPassReadsEveryEmployeeAndLeavesNothingBehind(String compression, String phase) throws IOException {
        StoreCompressionBenchmark b = bench(compression, phase);
        b.setupTrial();
        long expected = new EmployeeWorkload(2000).liveIdSum(Phase.parse(phase));
        for (int pass = 0; pass < 2; pass++) {
            b.setupIteration();
            assertEquals(expected, b.phase());
            b.tearDownIteration(); // checks the pass and the store
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void badParametersAreNamed() {
        IolabException e = assertThrows(IolabException.class, () -> bench("maybe", "get").setupTrial());
        assertTrue(e.getMessage().contains("compression"), e.getMessage());
        e = assertThrows(IolabException.class, () -> bench("on", "put").setupTrial());
        assertTrue(e.getMessage().contains("scan or get"), e.getMessage());
    }
}
