package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.iolab.IolabException;
import org.iolab.journal.JournalOptions;
import org.iolab.report.model.Latency;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JournalPlanTest {
    private static final Set<String> EVERYTHING = Set.of(JournalPlan.className(JournalBench.CHRONICLE_APPEND),
            JournalPlan.LATENCY_CLASS);

    private static JournalPlan.Plan plan(String profile, JournalPlan.Request r, Set<String> inBuild) {
        return JournalPlan.plan(Profile.parse(profile), r, inBuild::contains);
    }

    private static List<JournalPoint> of(JournalPlan.Plan p, JournalBench bench) {
        return p.points().stream().filter(x -> x.bench() == bench).toList();
    }

    @Test
    void smokeIsOneAppendOneReplayAndOneWriteThenSyncOfTheDefaultBackend() {
        JournalPlan.Plan p = plan("smoke", JournalPlan.Request.defaults(), Set.of());
        assertEquals(List.of(JournalBench.APPEND, JournalBench.REPLAY, JournalBench.BULK),
                p.points().stream().map(JournalPoint::bench).toList());
        JournalPoint a = p.points().getFirst();
        assertEquals(Backend.DEFAULT.label(), a.backend());
        assertEquals(Durability.NONE, a.durability());
        assertEquals(64, a.recordSize());
        JournalPoint bulk = p.points().getLast();
        assertEquals(Backend.DEFAULT.label(), bulk.backend());
        assertEquals(Durability.NONE, bulk.durability());
        assertEquals(64, bulk.recordSize());
        assertEquals(p.fioFileSize(), bulk.totalSize(), "the bulk pass writes what fio writes");
        assertEquals(p.fioFileSize() / 64, bulk.records());
        assertTrue(p.spaceNeeded() >= bulk.records() * 64 + JournalPlan.BULK_SEGMENT + p.fioFileSize(),
                "the free-space check counts the bulk journal and its fresh segment: " + p.spaceNeeded());
        assertTrue(p.points().stream().mapToDouble(JournalPoint::wallSeconds).sum() + p.afterSeconds() < 15,
                "smoke stays a few seconds");
        assertTrue(p.latency().isEmpty());
        assertEquals(2, p.notes().size(), "Chronicle and latency are named as not measured: " + p.notes());
        assertEquals(List.of(64L), p.fioRecordSizes());
    }

    @Test
    void quickMeasuresEveryBackendAtNoneAndTheDefaultAtBatchAndAlways() {
        JournalPlan.Plan p = plan("quick", JournalPlan.Request.defaults(), EVERYTHING);
        List<JournalPoint> appends = of(p, JournalBench.APPEND);
        int backends = Backend.values().length;
        assertEquals(backends * 4 + 2 * 4, appends.size());
        for (Backend b : Backend.values()) {
            assertEquals(Set.of(64L, 1024L, 4096L, 65536L), appends.stream().filter(x -> x.backend().equals(b.label())
                    && x.durability() == Durability.NONE).map(JournalPoint::recordSize).collect(Collectors.toSet()));
        }
        assertTrue(appends.stream().filter(x -> x.durability() != Durability.NONE)
                .allMatch(x -> x.backend().equals(Backend.DEFAULT.label())));
        // ALWAYS waits for an fsync per append: shorter iterations
        double none = appends.stream().filter(x -> x.durability() == Durability.NONE).findFirst().orElseThrow()
                .iterationSeconds();
        assertTrue(appends.stream().filter(x -> x.durability() == Durability.ALWAYS)
                .allMatch(x -> x.iterationSeconds() < none));
        List<JournalPoint> replays = of(p, JournalBench.REPLAY);
        assertEquals(2 * backends, replays.size(), "every backend at 64 B and at 64 KiB");
        for (Backend b : Backend.values()) {
            assertEquals(Set.of(64L, 65536L), replays.stream().filter(x -> x.backend().equals(b.label()))
                    .map(JournalPoint::recordSize).collect(Collectors.toSet()), b.label());
        }
        for (JournalPoint r : replays) {
            assertEquals(JournalPlan.study("quick").replayBytes() / r.recordSize(), r.records());
        }
        assertEquals(4, of(p, JournalBench.CHRONICLE_APPEND).size());
        assertEquals(2, of(p, JournalBench.CHRONICLE_REPLAY).size());
        assertEquals(List.of("tail", "durable"), p.latency().stream().map(LatencyRun::mode).toList());
        assertTrue(p.notes().isEmpty(), p.notes().toString());
        assertEquals(List.of(64L, 1024L, 4096L, 65536L), p.fioRecordSizes());
        assertEquals(p.points().size(), p.points().stream().map(JournalPoint::describe).distinct().count(),
                "no point twice");
    }

    @Test
    void bulkPassesMatchFiosRecordSizesAndBytesAtNoneAndBatch() {
        JournalPlan.Plan p = plan("quick", JournalPlan.Request.defaults(), EVERYTHING);
        List<JournalPoint> bulk = of(p, JournalBench.BULK);
        assertEquals(2 * p.fioRecordSizes().size(), bulk.size(), bulk.toString());
        for (Durability d : List.of(Durability.NONE, Durability.BATCH)) {
            assertEquals(p.fioRecordSizes(), bulk.stream().filter(x -> x.durability() == d)
                    .map(JournalPoint::recordSize).toList(), d.toString());
        }
        for (JournalPoint b : bulk) {
            assertEquals(Backend.DEFAULT.label(), b.backend(), "quick: the default backend only");
            assertEquals(JournalPlan.fioSize(p.fioFileSize(), b.recordSize()), b.totalSize(), b.describe());
            assertEquals(b.totalSize(), b.records() * b.recordSize(), "whole records");
            assertTrue(b.describe().contains(" write+sync ") && b.describe().contains("total=64 MiB"), b.describe());
        }
        // a BATCH pass pays an fdatasync per group-commit threshold on top of the bytes
        long total = 64L << 20;
        double none = JournalPlan.bulkPassSeconds(total, Durability.NONE);
        double batch = JournalPlan.bulkPassSeconds(total, Durability.BATCH);
        assertEquals(total / JournalPlan.WRITE_BW, none, 1e-12);
        assertEquals(none + Math.ceilDiv(total, JournalOptions.defaults().batchBytes())
                * JournalPlan.BATCH_SYNC_SECONDS, batch, 1e-12);
        JournalPoint first = bulk.getFirst();
        assertEquals(first.forks() * (JournalPlan.FORK_OVERHEAD + (first.warmups() + first.runs())
                * (first.iterationSeconds() + JournalPlan.BULK_SETUP_SECONDS)), first.wallSeconds(), 1e-9);
    }

    @Test
    void fullRunsBulkPassesOnEveryBackendAndTheDurabilityOptionLimitsThem() {
        List<JournalPoint> full = of(plan("full", JournalPlan.Request.defaults(), Set.of()), JournalBench.BULK);
        assertEquals(Backend.values().length * 2 * 4, full.size());
        assertEquals(Arrays.stream(Backend.values()).map(Backend::label).collect(Collectors.toSet()),
                full.stream().map(JournalPoint::backend).collect(Collectors.toSet()));
        assertEquals(JournalPlan.fioSize(256L << 20, 64), full.getFirst().totalSize());
        JournalPlan.Request none = new JournalPlan.Request(null, null, List.of(Durability.NONE), null, null);
        assertTrue(of(plan("quick", none, Set.of()), JournalBench.BULK).stream()
                .allMatch(b -> b.durability() == Durability.NONE));
        JournalPlan.Request always = new JournalPlan.Request(null, null, List.of(Durability.ALWAYS), null, null);
        assertTrue(of(plan("quick", always, Set.of()), JournalBench.BULK).isEmpty(),
                "fio's jobs stand for NONE and BATCH only");
    }

    @Test
    void bulkPointsRunAsSingleShotsWithTheirByteTotal() {
        JournalPoint b = of(plan("smoke", JournalPlan.Request.defaults(), Set.of()), JournalBench.BULK).getFirst();
        var o = Execution.options(b, java.nio.file.Path.of("/tmp/x")).build();
        assertEquals(Set.of(org.openjdk.jmh.annotations.Mode.SingleShotTime), o.getBenchModes());
        assertEquals(List.of(Long.toString(4L << 20)), List.copyOf(o.getParameter("totalSize").get()));
        assertEquals(List.of("none"), List.copyOf(o.getParameter("durability").get()));
        assertEquals(List.of(Backend.DEFAULT.label()), List.copyOf(o.getParameter("backend").get()));
        assertFalse(o.getParameter("records").hasValue(), "the bulk benchmark has no records parameter");
    }

    @Test
    void optionsReplaceTheProfilesLists() {
        JournalPlan.Request r = new JournalPlan.Request(List.of(4096L), List.of("raf", "mapped"),
                List.of(Durability.BATCH), null, 5);
        JournalPlan.Plan p = plan("quick", r, Set.of());
        List<JournalPoint> appends = of(p, JournalBench.APPEND);
        assertEquals(2, appends.size(), appends.toString());
        assertTrue(appends.stream().allMatch(x -> x.recordSize() == 4096 && x.durability() == Durability.BATCH
                && x.runs() == 5));
        assertEquals(Set.of("raf", "mapped"), appends.stream().map(JournalPoint::backend).collect(Collectors.toSet()));
        assertEquals(2, of(p, JournalBench.REPLAY).size());
        List<JournalPoint> bulk = of(p, JournalBench.BULK);
        assertEquals(1, bulk.size(), "the leading measured backend, at the one level and size: " + bulk);
        assertEquals("raf", bulk.getFirst().backend());
        assertEquals(Durability.BATCH, bulk.getFirst().durability());
    }

    @Test
    void optionValuesParse() {
        assertEquals(List.of(64L, 1024L, 65536L), JournalPlan.recordSizes("64, 1k,64k"));
        assertEquals(List.of("segment", "raf"), JournalPlan.backends("SEGMENT,raf,segment"));
        assertEquals(Arrays.stream(Backend.values()).map(Backend::label).toList(), JournalPlan.backends("all"));
        assertEquals(List.of(Durability.NONE, Durability.ALWAYS), JournalPlan.durabilities("none,always"));
        assertEquals(List.of(Durability.values()), JournalPlan.durabilities("all"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-64", "12q", "64,,1k", "1g"})
    void badRecordSizesNameTheOption(String bad) {
        IolabException e = assertThrows(IolabException.class, () -> JournalPlan.recordSizes(bad));
        assertTrue(e.getMessage().startsWith("bad --record-sizes"), e.getMessage());
        assertTrue(JournalOptions.defaults().maxRecordSize() < 1L << 30, "1g is above the largest record");
    }

    @Test
    void badBackendsAndDurabilitiesNameTheEntry() {
        IolabException b = assertThrows(IolabException.class, () -> JournalPlan.backends("segment,floppy"));
        assertTrue(b.getMessage().startsWith("bad --backends 'floppy'") && b.getMessage().contains("segment"),
                b.getMessage());
        IolabException d = assertThrows(IolabException.class, () -> JournalPlan.durabilities("none,sometimes"));
        assertTrue(d.getMessage().startsWith("bad --durability 'sometimes'"), d.getMessage());
        assertThrows(IolabException.class, () -> JournalPlan.durabilities("none,"));
    }

    @Test
    void workloadOptionsBelongToTheirWorkload() {
        BenchCommand c = new BenchCommand();
        assertEquals(Workload.FILE, c.workload());
        c.recordSizes = "64";
        IolabException e = assertThrows(IolabException.class, c::workload);
        assertTrue(e.getMessage().startsWith("--record-sizes") && e.getMessage().contains("--workload journal"));
        c.workload = "journal";
        assertEquals(Workload.JOURNAL, c.workload());
        c.methods = "fis-array";
        assertTrue(assertThrows(IolabException.class, c::workload).getMessage().startsWith("--methods"));
        c.workload = "all";
        assertEquals(Workload.ALL, c.workload());
        c.workload = "disk";
        assertTrue(assertThrows(IolabException.class, c::workload).getMessage().contains("'disk'"));
    }

    @Test
    void journalEntriesGetTheirThroughputInBytesAndStayOutOfTheFileTable() {
        ArrayNode array = Results.JSON.createArrayNode();
        ObjectNode e = array.addObject();
        e.put("benchmark", JournalBench.APPEND.jmhName());
        e.putObject("params").put("backend", "segment").put("durability", "none").put("recordSize", "4k");
        ObjectNode primary = e.putObject("primaryMetric");
        primary.put("scoreUnit", "ops/s");
        primary.putArray("rawData").addArray().add(1000.0).add(3000.0).add(2000.0);
        Results.addJournalThroughput(e, JournalBench.APPEND);
        var t = e.path("secondaryMetrics").path(Results.METRIC);
        assertEquals("B/s", t.path("scoreUnit").asText());
        assertEquals(2000.0 * 4096, t.path("score").asDouble());
        assertEquals(3000.0 * 4096, t.path("rawData").get(0).get(1).asDouble());
        assertTrue(Results.rows(array).isEmpty());
    }

    @Test
    void bulkEntriesGetTheBytesOfTheirRecordsOverThePassTime() {
        ObjectNode e = Results.JSON.createObjectNode();
        e.put("benchmark", JournalBench.BULK.jmhName());
        e.putObject("params").put("backend", "segment").put("durability", "batch").put("recordSize", "65536")
                .put("totalSize", "64m");
        ObjectNode primary = e.putObject("primaryMetric");
        primary.put("scoreUnit", "ms/op");
        primary.putArray("rawData").addArray().add(100.0).add(50.0).add(200.0);
        Results.addJournalThroughput(e, JournalBench.BULK);
        var t = e.path("secondaryMetrics").path(Results.METRIC);
        assertEquals("B/s", t.path("scoreUnit").asText());
        assertEquals((64 << 20) / 0.1, t.path("score").asDouble(), 1e-3);
        assertEquals((64 << 20) / 0.05, t.path("rawData").get(0).get(1).asDouble(), 1e-3);
        // a total that is not whole records: the benchmark writes totalSize / recordSize records
        ((ObjectNode) e.get("params")).put("totalSize", "1000").put("recordSize", "64");
        Results.addJournalThroughput(e, JournalBench.BULK);
        assertEquals(15 * 64 / 0.1, e.path("secondaryMetrics").path(Results.METRIC).path("score").asDouble(), 1e-6);
    }

    @Test
    void latencyLinesParseAndGarbageIsAnError() {
        Latency l = JournalExtras.parse("warming up\n{\"mode\":\"tail\",\"backend\":\"segment\",\"durability\":\"none\","
                + "\"recordSize\":64,\"rate\":100000,\"count\":300000,\"p50Nanos\":800,\"p90Nanos\":1500,"
                + "\"p99Nanos\":9000,\"p999Nanos\":40000,\"maxNanos\":2000000,\"meanNanos\":1100,"
                + "\"achievedRate\":99998.5,\"extra\":1}\n");
        assertEquals("tail", l.mode());
        assertEquals(9000, l.p99Nanos());
        assertEquals(300000, l.count());
        assertTrue(assertThrows(IolabException.class, () -> JournalExtras.parse("Exception in thread main"))
                .getMessage().contains("no JSON line"));
        assertThrows(IolabException.class, () -> JournalExtras.parse("{\"mode\":\"tail\",\"count\":0}"));
        assertThrows(IolabException.class, () -> JournalExtras.parse("{not json"));
    }

    @Test
    void latencyChildUsesTheJournalBenchmarksFlags() {
        LatencyRun run = new LatencyRun("durable", "segment", Durability.BATCH, 64, 50000, 3, 1);
        List<String> cmd = JournalExtras.command(run, java.nio.file.Path.of("/tmp/x"));
        assertTrue(cmd.contains("--enable-native-access=ALL-UNNAMED"), cmd.toString());
        assertTrue(cmd.containsAll(List.of(JournalPlan.LATENCY_CLASS, "--mode", "durable", "--durability", "batch",
                "--rate", "50000", "--seconds", "3", "--warmup", "1", "--record-size", "64")), cmd.toString());
        assertFalse(JournalPlan.inBuild("org.iolab.bench.NoSuchBenchmark"));
        assertTrue(JournalPlan.inBuild("org.iolab.bench.JournalAppendBenchmark"));
    }
}
