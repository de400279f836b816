package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.iolab.IolabException;
import org.iolab.bench.BenchmarkNames;
import org.iolab.bench.store.Employee;
import org.iolab.bench.store.EmployeeCodec;
import org.iolab.bench.store.Engines;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StorePlanTest {
    private static List<StorePoint> plan(String profile, StorePlan.Request r) {
        return StorePlan.plan(Profile.parse(profile), r);
    }

    private static Set<String> engines(List<StorePoint> points, Durability d) {
        return points.stream().filter(p -> p.durability() == d).map(StorePoint::engine).collect(Collectors.toSet());
    }

    @Test
    void smokeIsIolabAndTwoPeersAtNoneOnceEachWithFewRecords() {
        List<StorePoint> p = plan("smoke", StorePlan.Request.defaults());
        assertEquals(Set.of("iolab", "lmdb", "rocksdb"), engines(p, Durability.NONE));
        assertTrue(p.stream().allMatch(x -> x.durability() == Durability.NONE && x.records() == 2000
                && x.runs() == 1 && x.warmups() == 0 && x.forks() == 1), p.toString());
        assertEquals(9, p.size());
        assertTrue(p.stream().mapToDouble(StorePoint::wallSeconds).sum() < 30, "smoke stays well under 30 s");
    }

    @Test
    void quickRunsEveryEngineAndPhaseAtNoneAndFourEnginesWhenSynced() {
        List<StorePoint> p = plan("quick", StorePlan.Request.defaults());
        Set<String> none = engines(p, Durability.NONE);
        assertEquals(Set.copyOf(StorePlan.defaultEngines()), none);
        assertTrue(none.contains("bruno-mbb") && none.containsAll(Engines.PEERS), none.toString());
        assertEquals(Set.of("iolab", "sqlite", "rocksdb", "lmdb"), engines(p, Durability.BATCH));
        assertEquals(Set.of("iolab", "sqlite", "rocksdb", "lmdb"), engines(p, Durability.ALWAYS));
        assertTrue(none.contains(Engines.FLOOR), "the heap-map floor runs beside them at NONE");
        assertEquals(9 * 6 + 4 * 6 * 2, p.size());
        for (StorePoint x : p) {
            assertEquals(x.durability() == Durability.ALWAYS ? StorePlan.ALWAYS_RECORDS : StorePlan.BRUNO_RECORDS,
                    x.records(), x.describe());
        }
        assertEquals(Set.copyOf(StorePlan.allPhases()), p.stream().filter(x -> x.engine().equals("lmdb")
                && x.durability() == Durability.ALWAYS).map(StorePoint::phase).collect(Collectors.toSet()));
        assertTrue(p.stream().noneMatch(x -> x.engine().startsWith("iolab-")), "quick: the default backend only");
    }

    @Test
    void aDurabilityOverrideKeepsTheRecordCountOfEachLevel() {
        List<StorePoint> none = plan("quick", new StorePlan.Request(null, null, null, List.of(Durability.NONE),
                null, null));
        assertEquals(9 * 6, none.size(), "the synced block's engines are already in the first: " + none);
        assertTrue(none.stream().allMatch(x -> x.records() == StorePlan.BRUNO_RECORDS), none.toString());
        List<StorePoint> always = plan("quick", new StorePlan.Request(null, List.of("put"), null,
                List.of(Durability.ALWAYS), null, null));
        assertTrue(always.stream().allMatch(x -> x.records() == StorePlan.ALWAYS_RECORDS), always.toString());
        assertTrue(always.stream().noneMatch(x -> x.engine().equals(Engines.FLOOR)),
                "the heap-map floor has no synced level: " + always);
    }

    @Test
    void fullAddsEveryIolabBackend() {
        Set<String> none = engines(plan("full", StorePlan.Request.defaults()), Durability.NONE);
        for (Backend b : Backend.values()) {
            assertTrue(none.contains("iolab-" + b.label()), none.toString());
        }
    }

    @Test
    void optionsReplaceTheProfilesLists() {
        List<StorePoint> p = plan("quick", new StorePlan.Request(List.of("iolab", "mapdb"), List.of("put", "reopen"),
                5000, List.of(Durability.BATCH), 2, 4));
        assertEquals(4, p.size(), "duplicates of the three blocks collapse: " + p);
        assertTrue(p.stream().allMatch(x -> x.records() == 5000 && x.durability() == Durability.BATCH
                && x.forks() == 2 && x.runs() == 4), p.toString());
    }

    @Test
    void aLaterPhaseCostsMoreAndAlwaysCostsMoreThanNone() {
        StorePoint put = plan("quick", StorePlan.Request.defaults()).getFirst();
        List<StorePoint> iolab = plan("quick", new StorePlan.Request(List.of("iolab"), null, 100_000,
                List.of(Durability.NONE, Durability.ALWAYS), 1, 1));
        StorePoint reopen = iolab.stream().filter(x -> x.phase().equals("reopen") && x.durability() == Durability.NONE)
                .findFirst().orElseThrow();
        StorePoint always = iolab.stream().filter(x -> x.phase().equals("put") && x.durability() == Durability.ALWAYS)
                .findFirst().orElseThrow();
        assertEquals("put", put.phase());
        assertTrue(reopen.passSeconds() > put.passSeconds(), "the reopen pass sets up every phase before it");
        assertTrue(always.passSeconds() > 10 * put.passSeconds(), "an fsync per put");
    }

    @Test
    void optionsParse() {
        assertEquals(List.of("iolab", "lmdb"), StorePlan.engines("iolab, LMDB,iolab"));
        assertEquals(Engines.names(), StorePlan.engines("all"));
        assertEquals(List.of("put", "get", "reopen"), StorePlan.phases("reopen,get,put"), "workload order");
        assertEquals(StorePlan.allPhases(), StorePlan.phases("all"));
        assertEquals(100_000, StorePlan.records("100000"));
        assertEquals(100_000, StorePlan.records("100_000"));
        assertEquals(100_000, StorePlan.records("100k"));
        assertEquals(2_000_000, StorePlan.records("2m"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "0", "-5", "lots", "1.5k", "", "20m", "99999999999999999999"})
    void badRecordsNameTheOption(String text) {
        IolabException e = assertThrows(IolabException.class, () -> StorePlan.records(text));
        assertTrue(e.getMessage().startsWith("bad --records '" + text + "'"), e.getMessage());
    }

    @Test
    void badEnginesAndPhasesNameTheEntry() {
        IolabException e = assertThrows(IolabException.class, () -> StorePlan.engines("iolab,floppydb"));
        assertTrue(e.getMessage().contains("'floppydb'") && e.getMessage().contains("rocksdb"), e.getMessage());
        e = assertThrows(IolabException.class, () -> StorePlan.engines("iolab,,lmdb"));
        assertTrue(e.getMessage().contains("empty entry"), e.getMessage());
        e = assertThrows(IolabException.class, () -> StorePlan.phases("put,compress"));
        assertTrue(e.getMessage().contains("'compress'") && e.getMessage().contains("reinsert"), e.getMessage());
    }

    @Test
    void liveBytesAreTheEncodedKeysAndValuesLiveAfterTheWorkload() {
        long expected = 0;
        for (int i : new int[] {0, 2, 4, 6, 8, 10, 11, 12, 13, 14}) { // evens of 0..9, then the 5 new ones
            Employee e = Employee.number(i);
            expected += EmployeeCodec.key(e).length + EmployeeCodec.value(e).length;
        }
        assertEquals(expected, StorePlan.liveBytes(10));
        assertTrue(StorePlan.liveBytes(100_000) > 40 * 100_000, "about 45 bytes per live employee");
    }

    @Test
    void storeEntriesKeepTheirTimesAndGainTheLiveBytes() {
        ArrayNode array = Results.JSON.createArrayNode();
        ObjectNode e = array.addObject();
        e.put("benchmark", BenchmarkNames.STORE);
        e.putObject("params").put("engine", "iolab").put("phase", "put").put("records", "10");
        e.putObject("primaryMetric").put("score", 3.5).put("scoreUnit", "ms/op");
        Results.addLiveBytes(e);
        assertTrue(Results.store(e));
        assertEquals(StorePlan.liveBytes(10), e.path("iolab").path("liveBytes").asLong());
        assertTrue(Results.rows(array).isEmpty(), "store entries are not catalogue rows");
    }

    @Test
    void workloadStoreRunsOnlyTheStoreAndAllRunsEverything() {
        assertTrue(Workload.parse("store").store());
        assertTrue(!Workload.parse("store").files() && !Workload.parse("store").journal());
        Workload all = Workload.parse("all");
        assertTrue(all.store() && all.files() && all.journal());
        assertTrue(!Workload.FILE.store(), "store points never run in the default ./iolab bench");
    }
}
