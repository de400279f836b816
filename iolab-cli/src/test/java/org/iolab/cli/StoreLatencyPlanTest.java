package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.bench.store.StoreLatency;
import org.iolab.report.limits.Fio;
import org.iolab.report.model.Limit;
import org.iolab.report.model.PutLatency;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;

/** The per-put latency runs and the fio device job that follow the store points: plan, child command, parsing, table. */
class StoreLatencyPlanTest {
    private static StoreLatencyRun latency(String profile, StorePlan.Request r) {
        Profile p = Profile.parse(profile);
        return StorePlan.latency(p, r, StorePlan.plan(p, r));
    }

    private static StorePlan.Request request(List<String> engines, List<Durability> levels) {
        return new StorePlan.Request(engines, null, null, levels, null, null);
    }

    @Test
    void quickMeasuresEverySyncedEngineAtAlwaysAndIolabAtBatchWithinFortySeconds() {
        StoreLatencyRun l = latency("quick", StorePlan.Request.defaults());
        assertEquals(List.of("iolab:always", "rocksdb:always", "lmdb:always", "sqlite:always", "iolab:batch"),
                l.points());
        assertEquals(StorePlan.LATENCY_PUTS, l.puts());
        assertTrue(l.warmup() > 0 && l.fioSeconds() > 0 && l.fioRuns() > 0, l.toString());
        assertTrue(l.wallSeconds() < 40, "the store workload grows by less than 40 s: " + l.wallSeconds());
        assertTrue(l.wallSeconds() > l.latencySeconds() && l.latencySeconds() > StorePlan.FORK_OVERHEAD);
        assertTrue(l.describe().contains("iolab:always,rocksdb:always") && l.describe().contains("puts=2000"),
                l.describe());
        assertTrue(l.describeFio().startsWith("fio 4 KiB write+fdatasync"), l.describeFio());
    }

    @Test
    void smokeIsShortAndFollowsItsEngines() {
        StoreLatencyRun l = latency("smoke", StorePlan.Request.defaults());
        assertEquals(List.of("iolab:always", "lmdb:always", "rocksdb:always", "iolab:batch"), l.points());
        assertTrue(l.puts() <= 200 && l.fioSeconds() == 1 && l.fioRuns() == 1, l.toString());
        assertTrue(l.wallSeconds() < 10, l.toString());
    }

    @Test
    void theOptionsChooseTheEnginesAndLevels() {
        assertEquals(List.of("iolab-mapped:always", "sqlite:always"), latency("quick", request(
                List.of("iolab-mapped", "mvstore", "sqlite"), List.of(Durability.ALWAYS))).points(),
                "peers that do not sync are left out; no BATCH asked");
        assertEquals(List.of("iolab:batch"), latency("quick", request(List.of("iolab", "lmdb"),
                List.of(Durability.BATCH))).points());
        StoreLatencyRun none = latency("quick", request(null, List.of(Durability.NONE)));
        assertTrue(none.points().isEmpty() && none.fioRuns() == 0 && none.describeFio() == null, none.toString());
        assertEquals(0.0, none.wallSeconds());
        StoreLatencyRun unsynced = latency("quick", request(List.of("mvstore"), null));
        assertTrue(unsynced.points().isEmpty() && unsynced.fioRuns() > 0, "the device rate still stands beside ALWAYS");
        StoreLatencyRun noStore = StorePlan.latency(Profile.parse("quick"), StorePlan.Request.defaults(), List.of());
        assertTrue(noStore.points().isEmpty() && noStore.fioRuns() == 0, "no store workload, nothing after it");
    }

    @Test
    void theChildRunsStoreLatencyWithTheStoreBenchmarksFlags() {
        StoreLatencyRun l = latency("smoke", StorePlan.Request.defaults());
        List<String> cmd = StoreExtras.command(l, Path.of("/tmp/x"));
        assertTrue(cmd.getFirst().endsWith("/bin/java"), cmd.toString());
        assertTrue(cmd.contains("--add-opens=java.base/java.nio=ALL-UNNAMED"), "LMDB's flag: " + cmd);
        int main = cmd.indexOf(StoreLatency.class.getName());
        assertTrue(main > 0, cmd.toString());
        assertEquals(List.of("--dir", "/tmp/x", "--points", "iolab:always,lmdb:always,rocksdb:always,iolab:batch",
                "--puts", Integer.toString(l.puts()), "--warmup", Integer.toString(l.warmup())),
                cmd.subList(main + 1, cmd.size()));
    }

    @Test
    void parsingKeepsEachResultAndTurnsAFailedPointIntoANote() {
        String out = "WARNING: something\n"
                + "{\"engine\":\"iolab\",\"durability\":\"always\",\"mode\":\"put\",\"puts\":2000,\"warmup\":200,"
                + "\"putsPerSecond\":3912.5,\"p50Nanos\":230000,\"p90Nanos\":300000,\"p99Nanos\":518000,"
                + "\"p999Nanos\":1100000,\"maxNanos\":2000000,\"meanNanos\":250000.5}\n"
                + "{\"engine\":\"lmdb\",\"durability\":\"always\",\"error\":\"engine lmdb: not runnable: no opens\"}\n";
        StoreExtras.Parsed p = StoreExtras.parse(out);
        assertEquals(List.of(new PutLatency("iolab", "always", "put", 2000, 200, 3912.5, 230000, 300000, 518000,
                1100000, 2000000, 250000.5)), p.latency());
        assertEquals(List.of("store per-put latency of lmdb at always not measured: engine lmdb: not runnable: no"
                + " opens"), p.notes());
        assertThrows(IolabException.class, () -> StoreExtras.parse("Exception in thread main"));
        assertThrows(IolabException.class, () -> StoreExtras.parse("{not json"));
        assertThrows(IolabException.class, () -> StoreExtras.parse("{\"engine\":\"iolab\",\"puts\":0}"));
    }

    private static String print(List<PutLatency> latency, List<Limit> limits, boolean fio) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        StoreTable.printLatency(latency, limits, fio, new PrintStream(b, true, StandardCharsets.UTF_8));
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theSummaryPrintsEachRunAndTheDeviceRate() {
        List<PutLatency> latency = List.of(
                new PutLatency("sqlite", "always", "put", 2000, 200, 1950, 450e3, 600e3, 1.2e6, 2.5e6, 4e6, 5e5),
                new PutLatency("iolab", "batch", "durable", 2000, 200, 250e3, 2.1e6, 2.8e6, 3.4e6, 4e6, 4.5e6, 2.2e6),
                new PutLatency("iolab", "always", "put", 2000, 200, 3900, 230e3, 300e3, 518e3, 1.1e6, 2e6, 2.5e5),
                new PutLatency("iolab", "batch", "put", 2000, 200, 250e3, 2.5e3, 3e3, 9e3, 30e3, 80e3, 4e3));
        List<Limit> fio = List.of(new Limit("fio", Fio.STORE_WRITE_FDATASYNC, 4096, 64L << 20, null,
                List.of(4096 * 3900.0, 4096 * 4100.0), null, "n"));
        List<String> lines = print(latency, fio, true).lines().filter(s -> !s.isBlank()).toList();
        assertEquals(7, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("STORE PUT LATENCY"), lines.get(0));
        assertTrue(lines.get(2).matches("\\s+iolab\\s+batch\\s+put\\s+2000\\s+250 k puts/s\\s+2.5 µs.*-"), lines.get(2));
        assertTrue(lines.get(3).matches("\\s+iolab\\s+batch\\s+durable\\s+2000 .*3.40 ms.*"), lines.get(3));
        assertTrue(lines.get(4).matches("\\s+iolab\\s+always\\s+put .*3.90 k puts/s .*518 µs.* 0.98x"), lines.get(4));
        assertTrue(lines.get(5).matches("\\s+sqlite\\s+always .* 0.49x"), lines.get(5));
        assertEquals("DEVICE: fio 4 KiB write+fdatasync 4.00 k writes/s (3.90 k writes/s - 4.10 k writes/s, 2 runs)",
                lines.get(6));
        assertEquals("", print(List.of(), List.of(), false), "nothing planned, nothing printed");
        assertTrue(print(List.of(), List.of(), true).startsWith("DEVICE: fio 4 KiB write+fdatasync not measured"));
    }
}
