package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.bench.BenchmarkNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/** Drives StoreBenchmark's state by hand for every phase, and one point through JMH. */
class StoreBenchmarkTest {
    @TempDir
    Path dir;

    private StoreBenchmark bench(String engine, String phase) {
        StoreBenchmark b = new StoreBenchmark();
        b.engine = engine;
        b.durability = "none";
        b.phase = phase;
        b.records = "1000";
        b.dir = dir.toString();
        return b;
    }

    private long entries() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"put", "scan", "get", "delete", "reinsert", "reopen"})
    void everyPhaseRunsChecksReportsItsSizeAndCleansUp(String phase) throws Exception {
        StoreBenchmark b = bench("bruno-mbb", phase);
        b.setupTrial(1);
        for (int iteration = 0; iteration < 2; iteration++) {
            StoreBenchmark.Size size = new StoreBenchmark.Size();
            size.reset();
            b.setupIteration();
            Path folder = b.folder();
            assertTrue(Files.isDirectory(folder));
            b.phase(size);
            b.tearDownIteration();
            assertTrue(Files.notExists(folder));
            assertEquals((double) BrunoMbbEngine.PAGE_SIZE, size.sizeBytes, "1,000 employees fit Bruno's first page");
        }
        assertEquals(0, entries());
    }

    @Test
    void aWrongResultFailsTheTeardownAndStillCleansUp() throws Exception {
        StoreBenchmark b = bench("rocksdb", "put");
        b.setupTrial(1);
        b.setupIteration();
        // no measured pass: the store is empty, so the put check fails
        assertThrows(WorkloadCheckException.class, b::tearDownIteration);
        assertEquals(0, entries());
    }

    @Test
    void badParametersAreNamed() throws Exception {
        assertNamed("engine", bench("nope", "put"));
        assertNamed("phase", bench("rocksdb", "sometimes"));
        StoreBenchmark one = bench("rocksdb", "put");
        one.records = "1";
        assertNamed("records", one);
        StoreBenchmark lots = bench("rocksdb", "put");
        lots.records = "lots";
        assertNamed("records", lots);
        StoreBenchmark sometimes = bench("rocksdb", "put");
        sometimes.durability = "sometimes";
        assertNamed("durability", sometimes);
        StoreBenchmark missing = bench("rocksdb", "put");
        missing.dir = dir.resolve("missing").toString();
        assertNamed("dir", missing);
        assertEquals(0, entries());
    }

    private static void assertNamed(String parameter, StoreBenchmark b) {
        String message = assertThrows(IolabException.class, () -> b.setupTrial(1)).getMessage();
        assertTrue(message.contains(parameter), message);
    }

    @Test
    void iolabEnginesAreNamedByBackend() {
        assertEquals("iolab", Engines.create("iolab").name());
        assertEquals("iolab-mapped", Engines.create("iolab-mapped").name());
        assertTrue(assertThrows(IolabException.class, () -> Engines.create("iolab-nope")).getMessage()
                .contains("iolab-nope"));
    }

    @Test
    void storeBenchmarkRunsInJmhAndReportsTheSize() throws Exception {
        Options options = new OptionsBuilder()
                .include(BenchmarkNames.includePattern(BenchmarkNames.STORE))
                .param("engine", "lmdb")
                .param("durability", "none")
                .param("phase", "reopen")
                .param("records", "1000")
                .param("dir", dir.toString())
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(2)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        assertEquals(1, results.size());
        RunResult result = results.iterator().next();
        assertEquals(BenchmarkNames.STORE, result.getParams().getBenchmark());
        double ms = result.getPrimaryResult().getScore();
        assertTrue(ms > 0, "ms " + ms);
        Result<?> size = result.getSecondaryResults().get("sizeBytes");
        assertTrue(size != null, "sizeBytes " + result.getSecondaryResults().keySet());
        // LMDB's data.mdb after the workload is a whole number of 4 KiB pages; the score is the mean size
        assertTrue(size.getScore() > 1000 * 40 && size.getScore() % 4096 == 0, "sizeBytes " + size.getScore());
        assertEquals(0, entries(), "the fork deleted its stores");
    }
}
