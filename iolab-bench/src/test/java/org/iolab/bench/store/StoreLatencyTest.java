package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Tiny runs of the per-put latency harness, and its command line. */
class StoreLatencyTest {
    @TempDir
    Path dir;

    private long entries() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    private static void assertSane(StoreLatencyResult r, long puts) {
        assertEquals(puts, r.puts(), r.toString());
        assertTrue(r.p50Nanos() > 0, r.toString());
        assertTrue(r.p50Nanos() <= r.p90Nanos() && r.p90Nanos() <= r.p99Nanos() && r.p99Nanos() <= r.p999Nanos()
                && r.p999Nanos() <= r.maxNanos(), "percentiles in order: " + r);
        assertTrue(r.meanNanos() > 0 && r.meanNanos() <= r.maxNanos(), r.toString());
        assertTrue(r.putsPerSecond() > 0, r.toString());
        if (r.mode().equals(StoreLatency.PUT)) {
            // the recorded puts are disjoint intervals inside the loop, so the loop's rate is at most 1 / mean
            // (plus HdrHistogram's 3-digit rounding); durable intervals overlap, they are not bound by it
            assertTrue(r.putsPerSecond() <= 1e9 / r.meanNanos() * 1.01, r.toString());
        }
    }

    @ParameterizedTest
    @CsvSource({"iolab,none", "iolab,always", "bruno-mbb,always", "lmdb,always", "sqlite,always", "rocksdb,always"})
    void eachPutIsRecordedOnceAndThePercentilesAreInOrder(String engine, String level) throws Exception {
        List<StoreLatencyResult> rs = StoreLatency.measure(dir, StoreLatency.Point.parse(engine + ":" + level), 60, 10);
        assertEquals(1, rs.size(), rs.toString());
        StoreLatencyResult r = rs.getFirst();
        assertEquals(engine, r.engine());
        assertEquals(Durability.parse(level), r.durability());
        assertEquals(StoreLatency.PUT, r.mode());
        assertEquals(10, r.warmup());
        assertSane(r, 60);
        assertEquals(0, entries(), "the store's folder is deleted");
    }

    @Test
    void iolabAtBatchAlsoReportsPutToDurableWhichIsNeverShorter() throws Exception {
        List<StoreLatencyResult> rs = StoreLatency.measure(dir, new StoreLatency.Point("iolab", Durability.BATCH),
                500, 50);
        assertEquals(List.of(StoreLatency.PUT, StoreLatency.DURABLE), rs.stream().map(StoreLatencyResult::mode)
                .toList());
        assertSane(rs.get(0), 500);
        assertSane(rs.get(1), 500);
        assertEquals(rs.get(0).putsPerSecond(), rs.get(1).putsPerSecond(), "the same loop");
        // a put is durable no earlier than it returned, so every percentile of durable is at least put's
        assertTrue(rs.get(1).p50Nanos() >= rs.get(0).p50Nanos() && rs.get(1).maxNanos() >= rs.get(0).p50Nanos(),
                rs.toString());
        assertEquals(0, entries());
    }

    @Test
    void theCommandLinePrintsOneJsonLinePerResultAndAFailedPointAsAnError() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = StoreLatency.run(new String[] {"--dir", dir.toString(), "--points", "iolab:always,iolab:batch",
            "--puts", "40", "--warmup=5"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("{\"engine\":\"iolab\",\"durability\":\"always\",\"mode\":\"put\","
                + "\"puts\":40,\"warmup\":5,"), lines.get(0));
        assertTrue(lines.get(1).contains("\"durability\":\"batch\",\"mode\":\"put\""), lines.get(1));
        assertTrue(lines.get(2).contains("\"durability\":\"batch\",\"mode\":\"durable\""), lines.get(2));
        assertEquals(0, entries());
    }

    @Test
    void badArgumentsAreOneLineAndExitTwo() {
        for (String[] args : List.of(new String[] {"--points", "floppydb:always"},
                new String[] {"--points", "iolab:sometimes"}, new String[] {"--points", "iolab"},
                new String[] {"--puts", "0"}, new String[] {"--puts", "many"}, new String[] {"--rate", "5"},
                new String[] {"--dir", dir.resolve("missing").toString()}, new String[] {"--puts"})) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = StoreLatency.run(args, new PrintStream(new ByteArrayOutputStream(), true,
                    StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            String e = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, code, String.join(" ", args) + ": " + e);
            assertEquals(1, e.lines().count(), e);
            assertTrue(e.startsWith("iolab: store latency: bad") || e.contains("'--rate'")
                    || e.contains("needs a value"), e);
        }
        assertThrows(IolabException.class, () -> StoreLatency.measure(dir, StoreLatency.Point.parse("iolab:none"),
                0, 0));
    }

    @Test
    void jsonTextIsQuoted() {
        assertEquals("\"a\\\"b\\\\c\\u000a\"", StoreLatency.quote("a\"b\\c\n"));
    }
}
