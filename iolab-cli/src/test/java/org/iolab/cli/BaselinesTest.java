package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which file and buffers the physical limits use; how warm-up passes reach results.json. */
class BaselinesTest {
    private static final long K = 1024;
    private static final long M = K * K;

    private static Planner.Request none() {
        return Planner.Request.defaults();
    }

    @Test
    void quickProfileUsesItsReadBuffersAndLargestReadFile() {
        List<Point> points = Planner.plan(Profile.quick(), none(), 16L << 30);
        assertEquals(List.of(8 * K, 64 * K, M), Baselines.bufferSizes(points));
        assertEquals(256 * M, new Baselines(points, 3, true, System.err).dataSize());
    }

    @Test
    void smokeProfileUsesTheOneMebibyteFileAtEightKibibytes() {
        List<Point> points = Planner.plan(Profile.smoke(), none(), 16L << 30);
        assertEquals(List.of(8 * K), Baselines.bufferSizes(points));
        assertEquals(M, new Baselines(points, 1, true, System.err).dataSize());
    }

    @Test
    void seedsProfileMeasuresLimitsOnAFileOfAtMostOneGibibyteNotThompsonsEightGibibytes() {
        List<Point> points = Planner.plan(Profile.seeds(), none(), 16L << 30);
        assertTrue(points.stream().anyMatch(p -> p.bench() == Bench.READ && p.fileSize() > Baselines.MAX_DATA_SIZE));
        assertEquals(Baselines.MAX_DATA_SIZE, new Baselines(points, 3, true, System.err).dataSize());
    }

    @Test
    void aWideSweepIsCappedAtFourBuffersKeepingTheLargest() {
        Planner.Request r = new Planner.Request(null, Options.sizes("1,1k,8k,64k,1m,16m,128m", "--buffers",
                BenchCommand.MAX_BUFFER), Options.sizes("256m", "--sizes", BenchCommand.MAX_SIZE), List.of(Cache.WARM),
                null, null, null, null, null);
        List<Point> points = Planner.plan(Profile.quick(), r, 16L << 30);
        assertEquals(List.of(8 * K, 64 * K, M, 128 * M), Baselines.bufferSizes(points));
    }

    @Test
    void warmUpPassesBecomeThroughputPerFork() throws Exception {
        ObjectNode e = (ObjectNode) Results.JSON.readTree("""
                {"benchmark": "org.iolab.bench.ReadBenchmark.pass", "params": {"method": "fis-array",
                 "fileSize": "1048576", "bufferSize": "8192", "cache": "warm"}}
                """);
        Results.addWarmups(e, List.of(List.of(0.002, 0.001), List.of(0.004)));
        JsonNode w = e.path("iolab").path("warmupThroughput");
        assertEquals(2, w.size());
        assertEquals(1048576 / 0.002, w.get(0).get(0).asDouble(), 1e-6);
        assertEquals(1048576 / 0.001, w.get(0).get(1).asDouble(), 1e-6);
        assertEquals(1048576 / 0.004, w.get(1).get(0).asDouble(), 1e-6);
    }
}
