package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.iolab.catalogue.Catalogue;
import org.junit.jupiter.api.Test;

class ResultsTest {
    private static ObjectNode entry(String benchmark, String method, String extraParams) throws Exception {
        return (ObjectNode) Results.JSON.readTree("""
                {"benchmark": "%s", "mode": "ss", "forks": 1,
                 "params": {"method": "%s", "fileSize": "1048576", "bufferSize": "8192", %s},
                 "primaryMetric": {"score": 2.0, "scoreError": "NaN", "scoreConfidence": ["NaN", "NaN"],
                   "scoreUnit": "ms/op", "rawData": [[1.0, 2.0, 4.0]]},
                 "secondaryMetrics": {}}
                """.formatted(benchmark, method, extraParams));
    }

    @Test
    void throughputIsBytesPerSecondPerPass() throws Exception {
        String id = Catalogue.reads().getFirst().info().id();
        ObjectNode e = entry(Bench.READ.jmhName(), id, "\"cache\": \"warm\"");
        Results.addThroughput(e);
        JsonNode t = e.path("secondaryMetrics").path("throughput");
        assertEquals("B/s", t.path("scoreUnit").asText());
        assertEquals(1048576 / 0.002, t.path("score").asDouble(), 1e-6);
        assertEquals(3, t.path("rawData").get(0).size());
        assertEquals(1048576 / 0.001, t.path("rawData").get(0).get(0).asDouble(), 1e-6);
        assertEquals(1048576 / 0.004, t.path("scorePercentiles").path("0.0").asDouble(), 1e-6);
        assertEquals(1048576 / 0.001, t.path("scorePercentiles").path("100.0").asDouble(), 1e-6);
    }

    @Test
    void randomAccessCountsProbes() throws Exception {
        String id = Catalogue.randomAccess().getFirst().info().id();
        ObjectNode e = entry(Bench.RANDOM.jmhName(), id, "\"stride\": \"20000\", \"length\": \"1\", \"cache\": \"cold\"");
        Results.addThroughput(e);
        JsonNode t = e.path("secondaryMetrics").path("throughput");
        assertEquals("probes/s", t.path("scoreUnit").asText());
        long probes = (1048576 - 1 - 1) / 20000 + 1;
        assertEquals(probes / 0.002, t.path("score").asDouble(), 1e-6);
    }

    @Test
    void tableSortsFastestFirst() throws Exception {
        String id = Catalogue.reads().getFirst().info().id();
        ArrayNode a = Results.JSON.createArrayNode();
        ObjectNode slow = entry(Bench.READ.jmhName(), id, "\"cache\": \"cold\"");
        ((ArrayNode) slow.path("primaryMetric").path("rawData").get(0)).removeAll().add(100.0);
        a.add(slow);
        a.add(entry(Bench.READ.jmhName(), id, "\"cache\": \"warm\""));
        a.forEach(n -> Results.addThroughput((ObjectNode) n));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Results.table(Results.rows(a), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.indexOf("warm") < text.indexOf("cold"), text);
        assertTrue(text.contains("MB/s"), text);
    }

    @Test
    void ratesUseReadableUnits() {
        assertEquals("1.50 GB/s", Results.rate(1.5e9, "B/s"));
        assertEquals("250 MB/s", Results.rate(250e6, "B/s"));
        assertEquals("1.25 MB/s", Results.rate(1.25e6, "B/s"));
        assertEquals("12.5 k/s", Results.rate(12.5e3, "probes/s"));
    }
}
