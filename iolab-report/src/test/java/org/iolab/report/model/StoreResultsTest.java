package org.iolab.report.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Store points of a results.json written by {@code ./iolab bench --workload store --profile smoke}. */
class StoreResultsTest {
    static Path sample() throws Exception {
        return Path.of(StoreResultsTest.class.getResource("/org/iolab/report/html/store/results.json").toURI());
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
    void storePointsAreKeptApartWithTheirTimesSizesAndLiveBytes() throws Exception {
        ResultSet rs = ResultSet.load(sample());
        JsonNode root = ResultSet.JSON.readTree(sample().toFile());
        assertTrue(rs.measurements().isEmpty() && rs.journal().isEmpty(), "no other point in a store-only run");
        assertTrue(rs.all().isEmpty(), "store times are not in all(): they are not rates");
        assertEquals(root.size(), rs.store().size());
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode e = root.get(i);
            Measurement m = rs.store().get(i);
            JsonNode params = e.path("params");
            assertEquals(Bench.STORE, m.bench());
            assertEquals(params.path("engine").asText(), m.method());
            assertEquals(params.path("phase").asText(), m.phase());
            assertEquals(params.path("durability").asText(), m.durability());
            assertEquals(Long.parseLong(params.path("records").asText()), m.records());
            assertEquals("ms/op", e.path("primaryMetric").path("scoreUnit").asText());
            assertEquals(flat(e.path("primaryMetric").path("rawData")), m.passes(), "times stay in ms");
            assertEquals("ms", m.unit());
            assertEquals(Math.round(e.path("secondaryMetrics").path("sizeBytes").path("score").asDouble()),
                    m.fileSize());
            assertTrue(m.fileSize() > 0, m.label());
            assertEquals(e.path("iolab").path("liveBytes").asLong(), m.bufferSize());
            assertTrue(m.bufferSize() > 0, "./iolab bench records the live bytes");
            assertTrue(keys.add(m.key()), "keys tell phases, engines and levels apart: " + m.key());
            assertTrue(m.label().startsWith("store " + m.method() + " " + m.phase()), m.label());
        }
    }

    @Test
    void aStoreEntryWithoutAPhaseNamesTheEntry(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("results.json");
        Files.writeString(bad, "[{\"benchmark\":\"" + Bench.STORE.jmhName() + "\",\"params\":{\"engine\":\"iolab\"},"
                + "\"primaryMetric\":{\"scoreUnit\":\"ms/op\",\"rawData\":[[1.0]]}}]");
        IolabException e = assertThrows(IolabException.class, () -> ResultSet.load(bad));
        assertTrue(e.getMessage().contains("entry 0") && e.getMessage().contains("phase"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void perPutLatencyRunsAreWrittenBesideTheResultsAndReadBack(@TempDir Path tmp) throws Exception {
        Path results = Files.copy(sample(), tmp.resolve("results.json"));
        PutLatency put = new PutLatency("iolab", "always", PutLatency.PUT, 2000, 200, 3912.5, 230e3, 300e3, 518e3,
                1.1e6, 2e6, 250.5e3);
        RunData run = new RunData(ResultSet.load(results), List.of(), List.of(), List.of(), List.of(), List.of(put));
        run.writeSiblings(tmp);
        assertTrue(Files.exists(tmp.resolve(RunData.PUT_LATENCY_FILE)));
        assertFalse(Files.exists(tmp.resolve(RunData.LATENCY_FILE)), "no journal latency, no file");
        assertEquals(List.of(put), RunData.load(results).putLatency());
        Files.delete(tmp.resolve(RunData.PUT_LATENCY_FILE));
        assertEquals(List.of(), RunData.load(results).putLatency(), "an older results folder has none");
        Files.writeString(tmp.resolve(RunData.PUT_LATENCY_FILE), "[{\"engine\": ");
        IolabException e = assertThrows(IolabException.class, () -> RunData.load(results));
        assertTrue(e.getMessage().contains(RunData.PUT_LATENCY_FILE), e.getMessage());
    }
}
