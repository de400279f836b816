package org.iolab.report.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.report.analysis.Compare;
import org.iolab.report.analysis.Comparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Journal points of a results.json written by {@code ./iolab bench --workload journal --profile smoke}. */
class JournalResultsTest {
    static Path sample() throws Exception {
        return Path.of(JournalResultsTest.class.getResource("/org/iolab/report/html/journal/results.json").toURI());
    }

    private static List<Double> flat(JsonNode raw) {
        List<Double> out = new ArrayList<>();
        for (JsonNode fork : raw) {
            for (JsonNode v : fork) {
                out.add(v.asDouble());
            }
        }
        return out;
    }

    @Test
    void journalPointsAreKeptApartWithTheirRatesPerSecond() throws Exception {
        ResultSet rs = ResultSet.load(sample());
        JsonNode root = ResultSet.JSON.readTree(sample().toFile());
        assertTrue(rs.measurements().isEmpty(), "no catalogue point in a journal-only run");
        assertEquals(root.size(), rs.journal().size());
        for (int i = 0; i < root.size(); i++) {
            JsonNode e = root.get(i);
            Measurement m = rs.journal().get(i);
            JsonNode params = e.path("params");
            assertEquals(params.path("backend").asText(), m.method());
            assertEquals(Long.parseLong(params.path("recordSize").asText()), m.bufferSize());
            List<Double> raw = flat(e.path("primaryMetric").path("rawData"));
            assertFalse(raw.isEmpty());
            if (m.bench() == Bench.JOURNAL_APPEND) {
                assertEquals("ops/s", e.path("primaryMetric").path("scoreUnit").asText());
                assertEquals(raw, m.passes(), "appends/s are JMH's ops/s");
                assertEquals(params.path("durability").asText(), m.durability());
                assertEquals("appends/s", m.unit());
            } else if (m.bench() == Bench.JOURNAL_BULK) {
                long total = Long.parseLong(params.path("totalSize").asText());
                long records = total / m.bufferSize();
                assertEquals(records, m.records());
                assertEquals(records * m.bufferSize(), m.fileSize(), "the payload bytes of a pass");
                assertEquals(params.path("durability").asText(), m.durability());
                assertEquals("records/s", m.unit());
                for (int p = 0; p < raw.size(); p++) {
                    assertEquals(records / (raw.get(p) / 1000), m.passes().get(p), 1e-6, "records/s from ms/op");
                }
            } else {
                assertEquals(Bench.JOURNAL_REPLAY, m.bench());
                long records = Long.parseLong(params.path("records").asText());
                assertEquals(records, m.records());
                assertNull(m.durability());
                for (int p = 0; p < raw.size(); p++) {
                    assertEquals(records / (raw.get(p) / 1000), m.passes().get(p), 1e-6, "records/s from ms/op");
                }
            }
            // iolab's own throughput metric (B/s) agrees with records/s x record size
            List<Double> bytes = flat(e.path("secondaryMetrics").path("throughput").path("rawData"));
            for (int p = 0; p < bytes.size(); p++) {
                assertEquals(bytes.get(p), m.passes().get(p) * m.bufferSize(), bytes.get(p) * 1e-9);
            }
            assertEquals(Stats.of(bytes).median(), m.byteStats().median(), 1e-3);
        }
    }

    @Test
    void compareKeepsDurabilitiesApartAndCsvCarriesThem(@TempDir Path tmp) throws Exception {
        ResultSet rs = ResultSet.load(sample());
        Comparison c = Compare.compare(List.of(rs, rs));
        assertEquals(rs.journal().size(), c.rows().size(), "one row per journal point: keys differ by durability");
        for (Comparison.Row r : c.rows()) {
            assertEquals(Comparison.Status.WITHIN_NOISE, r.cells().get(1).status(), r.label());
        }
        Path csv = tmp.resolve("j.csv");
        Compare.writeCsv(rs, csv);
        List<String> lines = Files.readAllLines(csv);
        long passes = rs.journal().stream().mapToLong(m -> m.passes().size()).sum();
        assertEquals(passes + 1, lines.size());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(rs.source() + ",journal_append,segment,") && l.endsWith(",batch,0,")),
                lines.toString());
        // a write-then-sync pass: payload bytes in fileSize, its durability and records per pass
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(rs.source() + ",journal_bulk,segment,,65536,4194304,")
                && l.endsWith(",batch,64,")), lines.toString());
    }

    @Test
    void writeThenSyncPointsAreTheirOwnKindInTheSample() throws Exception {
        List<Measurement> bulk = ResultSet.load(sample()).journal().stream()
                .filter(m -> m.bench() == Bench.JOURNAL_BULK).toList();
        assertEquals(4, bulk.size(), "segment at none and batch, 64 B and 64 KiB");
        for (Measurement m : bulk) {
            assertFalse(m.bench().append() || m.bench().replay(), m.label());
            assertNull(m.cache(), "a write is neither warm nor cold");
            assertTrue(m.label().startsWith("journal segment write+sync ") && m.label().endsWith(" 4 MiB"), m.label());
        }
        assertEquals(4, bulk.stream().map(Measurement::key).distinct().count(), "keys differ by size and durability");
    }

    @Test
    void aWriteThenSyncEntryWithoutRecordsNamesTheEntry(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("results.json");
        Files.writeString(bad, """
                [{"benchmark": "org.iolab.bench.JournalBulkBenchmark.pass",
                  "params": {"backend": "segment", "durability": "none", "recordSize": "0", "totalSize": "64m"},
                  "primaryMetric": {"scoreUnit": "ms/op", "rawData": [[10.0]]}}]
                """);
        IolabException e = assertThrows(IolabException.class, () -> ResultSet.load(bad));
        assertTrue(e.getMessage().startsWith(bad + ": entry 0 cannot be read: recordSize 0"), e.getMessage());
    }

    @Test
    void latencyRoundTripsThroughItsSiblingFile(@TempDir Path tmp) throws Exception {
        Path results = Files.copy(sample(), tmp.resolve("results.json"));
        Latency tail = new Latency("tail", "segment", "none", 64, 100000, 300000, 800, 1500, 9000, 40000, 2e6,
                1100, 99998);
        new RunData(ResultSet.load(results), List.of(), List.of(), List.of(), List.of(tail)).writeSiblings(tmp);
        assertTrue(Files.exists(tmp.resolve(RunData.LATENCY_FILE)));
        assertEquals(List.of(tail), RunData.load(results).latency());
        Files.delete(tmp.resolve(RunData.LATENCY_FILE));
        new RunData(ResultSet.load(results), List.of(), List.of(), List.of()).writeSiblings(tmp);
        assertFalse(Files.exists(tmp.resolve(RunData.LATENCY_FILE)), "no file without latency runs");
        assertTrue(RunData.load(results).latency().isEmpty());
    }
}
