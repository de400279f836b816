package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Drives the journal benchmarks' states by hand for every backend, and one append benchmark through JMH. */
class JournalBenchmarkTest {
    @TempDir
    Path dir;

    static Stream<Arguments> backendsAndDurabilities() {
        return Stream.of(Backend.values())
                .flatMap(b -> Stream.of("none", "batch").map(d -> Arguments.of(b.label(), d)));
    }

    static Stream<String> backends() {
        return Stream.of(Backend.values()).map(Backend::label);
    }

    private JournalAppendBenchmark append(String backend, String durability, String recordSize) {
        JournalAppendBenchmark b = new JournalAppendBenchmark();
        b.backend = backend;
        b.durability = durability;
        b.recordSize = recordSize;
        b.segmentSize = "64k";
        b.prefault = "true";
        b.dir = dir.toString();
        return b;
    }

    private JournalReplayBenchmark replay(String backend, String records) {
        JournalReplayBenchmark b = new JournalReplayBenchmark();
        b.backend = backend;
        b.records = records;
        b.recordSize = "61";
        b.segmentSize = "64k";
        b.dir = dir.toString();
        return b;
    }

    private long entries() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @ParameterizedTest
    @MethodSource("backendsAndDurabilities")
    void appendStateRollsSegmentsAndCleansUp(String backend, String durability) throws Exception {
        JournalAppendBenchmark b = append(backend, durability, "1000");
        b.setupTrial();
        Path folder = b.folder();
        assertTrue(Files.isDirectory(folder));
        AppendedBytes c = new AppendedBytes();
        c.reset();
        int n = 1500; // > CHECKED records, about 23 segments of 64 KiB
        for (int i = 0; i < n; i++) {
            assertEquals(i, b.append(c));
        }
        assertEquals(n * 1000L, c.bytes);
        assertEquals(n, b.appended());
        b.tearDownTrial();
        assertTrue(Files.notExists(folder));
        assertEquals(0, entries());
    }

    @ParameterizedTest
    @MethodSource("backends")
    void appendStateWithATemporaryFolder(String backend) {
        JournalAppendBenchmark b = append(backend, "none", "64");
        b.dir = "";
        b.setupTrial();
        Path folder = b.folder();
        AppendedBytes c = new AppendedBytes();
        for (int i = 0; i < 10; i++) {
            b.append(c);
        }
        b.tearDownTrial();
        assertTrue(Files.notExists(folder));
        assertTrue(Files.notExists(folder.getParent()), "workspace deleted");
    }

    @Test
    void appendStateWithNoAppendsTearsDown() throws Exception {
        JournalAppendBenchmark b = append("segment", "none", "64");
        b.setupTrial();
        b.tearDownTrial();
        assertEquals(0, entries());
    }

    @Test
    void badParametersAreNamed() throws Exception {
        JournalAppendBenchmark b = append("nope", "none", "64");
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("backend"));
        b = append("segment", "sometimes", "64");
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("durability"));
        b = append("segment", "none", "0");
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("recordSize"));
        b = append("segment", "none", "64k"); // larger than a 64 KiB segment can hold
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("recordSize"));
        b = append("segment", "none", "64");
        b.segmentSize = "1000";
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("segmentSize"));
        b = append("segment", "none", "64");
        b.dir = dir.resolve("missing").toString();
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("dir"));
        JournalReplayBenchmark r = replay("segment", "0");
        assertTrue(assertThrows(IolabException.class, r::setupTrial).getMessage().contains("records"));
        assertEquals(0, entries());
    }

    @ParameterizedTest
    @MethodSource("backends")
    void replayStateReadsEveryRecord(String backend) throws Exception {
        JournalReplayBenchmark b = replay(backend, "5000");
        b.setupTrial();
        Path folder = b.folder();
        long first = b.pass();
        assertEquals(first, b.pass());
        b.tearDownTrial();
        assertTrue(Files.notExists(folder));
        assertEquals(0, entries());
    }

    @ParameterizedTest
    @MethodSource("backendsAndDurabilities")
    void bulkStateWritesSyncsAndChecksEveryPass(String backend, String durability) throws Exception {
        JournalBulkBenchmark b = new JournalBulkBenchmark();
        b.backend = backend;
        b.durability = durability;
        b.recordSize = "3000";
        b.totalSize = "1m";
        b.segmentSize = "256k";
        b.prefault = "true";
        b.prealloc = durability.equals("none") ? "none" : "fallocate";
        b.dir = dir.toString();
        b.setupTrial();
        assertEquals((1 << 20) / 3000, b.count());
        for (int pass = 0; pass < 2; pass++) {
            b.setupIteration();
            assertEquals(b.count(), b.pass());
            b.tearDownIteration();
            assertEquals(0, entries(), "each pass deletes its journal");
        }
        b.tearDownTrial();
    }

    @Test
    void bulkStateRejectsATotalSmallerThanARecord() throws Exception {
        JournalBulkBenchmark b = new JournalBulkBenchmark();
        b.backend = "segment";
        b.durability = "none";
        b.recordSize = "64k";
        b.totalSize = "1k";
        b.segmentSize = "1m";
        b.prefault = "false";
        b.prealloc = "zero-fill";
        b.dir = dir.toString();
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("totalSize"));
        b.totalSize = "1m";
        b.prefault = "maybe";
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("prefault"));
        b.prefault = "true";
        b.prealloc = "sometimes";
        assertTrue(assertThrows(IolabException.class, b::setupTrial).getMessage().contains("bad prealloc 'sometimes'"));
        assertEquals(0, entries());
    }

    @Test
    void appendBenchmarkRunsInJmh() throws Exception {
        Options options = new OptionsBuilder()
                .include(BenchmarkNames.includePattern(BenchmarkNames.JOURNAL_APPEND))
                .param("backend", "segment")
                .param("durability", "none")
                .param("recordSize", "64")
                .param("segmentSize", "4m")
                .param("dir", dir.toString())
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(200))
                .build();
        Collection<RunResult> results = new Runner(options).run();
        assertEquals(1, results.size());
        RunResult result = results.iterator().next();
        assertEquals(BenchmarkNames.JOURNAL_APPEND, result.getParams().getBenchmark());
        double ops = result.getPrimaryResult().getScore();
        assertTrue(ops > 0, "ops/s " + ops);
        Result<?> bytes = result.getSecondaryResults().get("bytes");
        assertTrue(bytes != null, "bytes counter " + result.getSecondaryResults().keySet());
        assertEquals(ops * 64, bytes.getScore(), ops * 64 * 0.01);
        assertEquals(0, entries(), "the fork deleted the journal");
    }
}
