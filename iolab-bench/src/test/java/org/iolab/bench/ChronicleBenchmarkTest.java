package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Drives the Chronicle Queue peer benchmarks' states by hand, and the append benchmark once through JMH. */
class ChronicleBenchmarkTest {
    @TempDir
    Path dir;

    private ChronicleAppendBenchmark append(String recordSize) {
        ChronicleAppendBenchmark b = new ChronicleAppendBenchmark();
        b.recordSize = recordSize;
        b.dir = dir.toString();
        return b;
    }

    private ChronicleReplayBenchmark replay(String records, String recordSize) {
        ChronicleReplayBenchmark b = new ChronicleReplayBenchmark();
        b.records = records;
        b.recordSize = recordSize;
        b.dir = dir.toString();
        return b;
    }

    private long entries() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    private static void appendBehindTheBenchmarksBack(ChronicleAppendBenchmark b, int size) {
        Bytes<?> bytes = Bytes.allocateDirect(size);
        try (ExcerptAppender other = b.queue().createAppender()) {
            for (int i = 0; i < size; i++) {
                bytes.writeByte((byte) (i * 31 + 7));
            }
            other.writeBytes(bytes);
        } finally {
            bytes.releaseLast();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "64", "1000", "4k", "64k"})
    void appendStateChecksTheQueueAndCleansUp(String recordSize) throws Exception {
        ChronicleAppendBenchmark b = append(recordSize);
        b.setupTrial();
        Path folder = b.folder();
        assertTrue(Files.isDirectory(folder));
        AppendedBytes c = new AppendedBytes();
        c.reset();
        int n = 1500; // more than the CHECKED excerpts read back
        for (int i = 0; i < n; i++) {
            b.append(c);
        }
        long size = Params.fileSize(recordSize, "recordSize");
        assertEquals(n * size, c.bytes);
        assertEquals(n, b.appended());
        assertEquals(n, b.queue().entryCount());
        b.tearDownTrial();
        assertTrue(Files.notExists(folder));
        assertEquals(0, entries());
    }

    @Test
    void appendStateWithNoAppendsTearsDown() throws Exception {
        ChronicleAppendBenchmark b = append("64");
        b.setupTrial();
        b.tearDownTrial();
        assertEquals(0, entries());
    }

    @Test
    void appendStateWithATemporaryFolder() {
        ChronicleAppendBenchmark b = append("64");
        b.dir = "";
        b.setupTrial();
        Path folder = b.folder();
        assertTrue(!folder.startsWith(dir));
        AppendedBytes c = new AppendedBytes();
        for (int i = 0; i < 10; i++) {
            b.append(c);
        }
        b.tearDownTrial();
        assertTrue(Files.notExists(folder));
        assertTrue(Files.notExists(folder.getParent()), "workspace deleted");
    }

    @Test
    void verifyCatchesAnExcerptTheBenchmarkDidNotCount() throws Exception {
        ChronicleAppendBenchmark b = append("64");
        b.setupTrial();
        AppendedBytes c = new AppendedBytes();
        for (int i = 0; i < 10; i++) {
            b.append(c);
        }
        appendBehindTheBenchmarksBack(b, 64); // same bytes: only the count is wrong
        Path folder = b.folder();
        IllegalStateException e = assertThrows(IllegalStateException.class, b::tearDownTrial);
        assertTrue(e.getMessage().contains("holds 11 excerpts"), e.getMessage());
        assertTrue(e.getMessage().contains("after 10 appends"), e.getMessage());
        assertTrue(e.getMessage().contains("recordSize=64"), e.getMessage());
        assertTrue(Files.notExists(folder), "a failed check still deletes the queue");
        assertEquals(0, entries());
    }

    @Test
    void verifyCatchesAWrongExcerpt() {
        ChronicleAppendBenchmark b = append("64");
        b.setupTrial();
        try {
            AppendedBytes c = new AppendedBytes();
            for (int i = 0; i < 10; i++) {
                b.append(c);
            }
            b.verify();
            appendBehindTheBenchmarksBack(b, 63);
            IllegalStateException e = assertThrows(IllegalStateException.class, b::verify);
            assertTrue(e.getMessage().contains("excerpt 0 from the end has 63 bytes"), e.getMessage());
        } finally {
            assertThrows(IllegalStateException.class, b::tearDownTrial);
        }
    }

    @Test
    void replayStateReadsEveryRecordWithTheJournalsChecksum() throws Exception {
        ChronicleReplayBenchmark b = replay("5000", "61");
        b.setupTrial();
        Path folder = b.folder();
        long first = b.pass();
        assertEquals(b.expectedChecksum(), first);
        assertEquals(first, b.pass());
        b.tearDownTrial();
        assertTrue(Files.notExists(folder));

        JournalReplayBenchmark journal = new JournalReplayBenchmark();
        journal.backend = "segment";
        journal.records = "5000";
        journal.recordSize = "61";
        journal.segmentSize = "64k";
        journal.dir = dir.toString();
        journal.setupTrial();
        try {
            assertEquals(first, journal.pass(), "the same payloads as the journal's replay benchmark");
        } finally {
            journal.tearDownTrial();
        }
        assertEquals(0, entries());
    }

    @Test
    void replayFailsWhenTheQueueHoldsAnExtraRecord() throws Exception {
        ChronicleReplayBenchmark b = replay("100", "64");
        b.setupTrial();
        try {
            b.pass();
            Bytes<?> bytes = Bytes.allocateDirect(64);
            try (ExcerptAppender other = b.queue().createAppender()) {
                bytes.writeLong(42);
                other.writeBytes(bytes);
            } finally {
                bytes.releaseLast();
            }
            IllegalStateException e = assertThrows(IllegalStateException.class, b::pass);
            assertTrue(e.getMessage().contains("101 records"), e.getMessage());
            assertTrue(e.getMessage().contains("expected 100 records"), e.getMessage());
        } finally {
            b.tearDownTrial();
        }
        assertEquals(0, entries());
    }

    @Test
    void badParametersAreNamed() throws Exception {
        ChronicleAppendBenchmark a = append("0");
        assertTrue(assertThrows(IolabException.class, a::setupTrial).getMessage().contains("recordSize"));
        a = append("16m");
        assertTrue(assertThrows(IolabException.class, a::setupTrial).getMessage().contains("recordSize"));
        a = append("64");
        a.dir = dir.resolve("missing").toString();
        assertTrue(assertThrows(IolabException.class, a::setupTrial).getMessage().contains("dir"));
        ChronicleReplayBenchmark r = replay("0", "64");
        assertTrue(assertThrows(IolabException.class, r::setupTrial).getMessage().contains("records"));
        r = replay("10", "lots");
        assertTrue(assertThrows(IolabException.class, r::setupTrial).getMessage().contains("recordSize"));
        assertEquals(0, entries());
    }

    @Test
    void namesMatchTheBenchmarks() {
        assertEquals(ChronicleAppendBenchmark.class.getName() + ".append", BenchmarkNames.CHRONICLE_APPEND);
        assertEquals(ChronicleReplayBenchmark.class.getName() + ".pass", BenchmarkNames.CHRONICLE_REPLAY);
    }

    @Test
    void appendBenchmarkRunsInAForkWithItsFlags() throws Exception {
        Options options = new OptionsBuilder()
                .include(BenchmarkNames.includePattern(BenchmarkNames.CHRONICLE_APPEND))
                .param("recordSize", "64")
                .param("dir", dir.toString())
                .forks(1)
                // Not this test JVM's flags: the fork must work with the benchmark's own jvmArgsAppend.
                .jvmArgs("-Xmx512m")
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(200))
                .build();
        Collection<RunResult> results = new Runner(options).run();
        assertEquals(1, results.size());
        RunResult result = results.iterator().next();
        assertEquals(BenchmarkNames.CHRONICLE_APPEND, result.getParams().getBenchmark());
        double ops = result.getPrimaryResult().getScore();
        assertTrue(ops > 0, "ops/s " + ops);
        Result<?> bytes = result.getSecondaryResults().get("bytes");
        assertTrue(bytes != null, "bytes counter " + result.getSecondaryResults().keySet());
        assertEquals(ops * 64, bytes.getScore(), ops * 64 * 0.01);
        assertEquals(0, entries(), "the fork deleted the queue");
    }
}
