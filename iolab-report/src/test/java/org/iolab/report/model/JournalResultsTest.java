package org.iolab.report.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(rs.source() + ",journal_append,segment,") && l.endsWith(",batch,0")),
                lines.toString());
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
