package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.iolab.IolabException;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.Preallocation;
import org.junit.jupiter.api.Test;

class PlannerTest {
    private static final long K = 1024;
    private static final long M = K * K;
    private static final long G = M * K;
    private static final long RAM = 16 * G;
    private static final MethodInfo FIS_BYTE =
            new MethodInfo("fis-byte", Kind.READ, "t", "d", Article.NADEAU, false);
    private static final MethodInfo FAST =
            new MethodInfo("channel-x", Kind.READ, "t", "d", Article.MODERN, true);

    private static Set<String> ids(List<Point> points) {
        return points.stream().map(p -> p.method().id()).collect(Collectors.toSet());
    }

    private static Set<String> catalogue() {
        return Catalogue.infos().stream().map(MethodInfo::id).collect(Collectors.toSet());
    }

    @Test
    void smokeRunsEveryCatalogueMethodOnceQuickly() {
        List<Point> points = Planner.plan(Profile.smoke(), Planner.Request.defaults(), RAM);
        assertEquals(catalogue(), ids(points));
        assertEquals(catalogue().size(), points.size(), "one point per method");
        for (Point p : points) {
            assertEquals(0, p.warmups());
            assertEquals(1, p.runs());
            assertTrue(p.fileSize() <= M);
            assertTrue(p.cache() == null || p.cache() == Cache.WARM);
        }
    }

    @Test
    void quickCoversEveryMethodWarmAndCold() {
        List<Point> points = Planner.plan(Profile.quick(), Planner.Request.defaults(), RAM);
        assertEquals(catalogue(), ids(points));
        for (MethodInfo m : Catalogue.infos()) {
            if (m.kind() == Kind.WRITE) {
                continue;
            }
            for (Cache c : Cache.values()) {
                assertTrue(points.stream().anyMatch(p -> p.method().equals(m) && p.cache() == c),
                        m.id() + " " + c);
            }
        }
        double total = points.stream().mapToDouble(Point::wallSeconds).sum();
        assertTrue(total < 5 * 60, "quick plans " + total + " s");
    }

    @Test
    void everyProfileCoversEveryKind() {
        for (String name : List.of("smoke", "quick", "seeds", "full")) {
            Profile p = Profile.parse(name);
            for (Kind k : Kind.values()) {
                assertTrue(p.studies().stream().anyMatch(s -> s.kinds().contains(k)), name + " " + k);
            }
        }
    }

    @Test
    void fullHasAFileLargerThanRam() {
        List<Point> points = Planner.plan(Profile.full(), Planner.Request.defaults(), RAM);
        assertTrue(points.stream().anyMatch(p -> p.requestedSize() > RAM));
        assertTrue(points.stream().anyMatch(p -> p.fileSize() > RAM), "a fast method keeps the big file");
    }

    @Test
    void seedsHasThompsonSizesAndNadeauBuffers() {
        List<Point> points = Planner.plan(Profile.seeds(), Planner.Request.defaults(), RAM);
        assertTrue(points.stream().anyMatch(p -> p.requestedSize() == 8 * G));
        assertTrue(points.stream().anyMatch(p -> p.prealloc() == Preallocation.ZERO_FILL));
        assertTrue(Profile.bufferSweep().contains(1L));
        assertTrue(Profile.bufferSweep().contains(128 * M));
    }

    @Test
    void budgetShrinksSlowMethodsToAPowerOfTwo() {
        Point slow = Planner.point(Bench.READ, FIS_BYTE, 8192, 256 * M, Cache.WARM, null, false, 1, 3, 1, 0.5);
        assertTrue(slow.fileSize() < 256 * M);
        assertEquals(1, Long.bitCount(slow.fileSize()), "a power of two: " + slow.fileSize());
        assertTrue(slow.fileSize() >= CostModel.MIN_FILE);
        assertTrue(slow.passSeconds() <= 0.5 || slow.fileSize() == CostModel.MIN_FILE);
        // twice the size would not fit
        assertTrue(CostModel.pass(FIS_BYTE, Bench.READ, 8192, 2 * slow.fileSize(), Cache.WARM, false, 0, 0) > 0.5);

        Point fast = Planner.point(Bench.READ, FAST, 8192, 256 * M, Cache.WARM, null, false, 1, 3, 1, 0.5);
        assertEquals(256 * M, fast.fileSize());
        Point oneByte = Planner.point(Bench.READ, FAST, 1, 256 * M, Cache.WARM, null, false, 1, 3, 1, 0.5);
        assertTrue(oneByte.fileSize() < 256 * M, "a 1-byte buffer makes a system call per byte");
    }

    @Test
    void fitNeverExceedsTheRequestAndStopsAtTheMinimum() {
        assertEquals(1000, CostModel.fit(1000, 0.001, s -> 1e9));
        assertEquals(CostModel.MIN_FILE, CostModel.fit(G, 0.001, s -> 1e9));
        assertEquals(400 * M, CostModel.fit(400 * M, 1, s -> 0.1));
        assertEquals(256 * M, CostModel.fit(400 * M, 1, s -> s / (300.0 * M)));
        assertEquals(128 * M, CostModel.fit(256 * M, 1, s -> s / (200.0 * M)));
    }

    @Test
    void overridesReplaceTheProfilesChoices() {
        String id = Catalogue.reads().getFirst().info().id();
        Planner.Request r = new Planner.Request(List.of(id), List.of(1L, 8 * K), List.of(2 * M), List.of(Cache.COLD),
                2, 7, null, null, 100.0);
        List<Point> points = Planner.plan(Profile.quick(), r, RAM);
        assertEquals(Set.of(id), ids(points));
        for (Point p : points) {
            assertEquals(2 * M, p.fileSize());
            assertEquals(Cache.COLD, p.cache());
            assertEquals(2, p.forks());
            assertEquals(7, p.runs());
        }
        assertEquals(Catalogue.reads().getFirst().info().usesBuffer() ? 2 : 1, points.size());
    }

    @Test
    void methodsOutsideTheProfilesSelectionStillRun() {
        String write = Catalogue.writes().getFirst().info().id();
        Planner.Request r = new Planner.Request(List.of(write), null, null, null, null, null,
                Preallocation.FALLOCATE, true, null);
        List<Point> points = Planner.plan(Profile.seeds(), r, RAM);
        assertFalse(points.isEmpty());
        assertTrue(points.stream().allMatch(p -> p.prealloc() == Preallocation.FALLOCATE && p.sync()));
    }

    @Test
    void badProfileAndCacheAreUserErrors() {
        IolabException e = assertThrows(IolabException.class, () -> Profile.parse("medium"));
        assertTrue(e.getMessage().contains("medium"));
        e = assertThrows(IolabException.class, () -> Cache.parse("lukewarm"));
        assertTrue(e.getMessage().contains("lukewarm"));
        assertEquals(List.of(Cache.WARM, Cache.COLD), Cache.parse("BOTH"));
    }

    @Test
    void largerThanRamIsAPowerOfTwoAboveIt() {
        assertEquals(32 * G, Planner.largerThan(23 * G));
        assertEquals(32 * G, Planner.largerThan(16 * G));
    }

    @Test
    void aFileTooSmallForARandomAccessProbeIsRefusedBeforeAnythingRuns() {
        Planner.Request r = new Planner.Request(List.of("raf-seek"), null, List.of(1L), null, null, null, null, null,
                null);
        IolabException e = assertThrows(IolabException.class, () -> Planner.plan(Profile.quick(), r, RAM));
        assertTrue(e.getMessage().contains("--sizes") && e.getMessage().contains("raf-seek"), e.getMessage());
        Planner.Request two = new Planner.Request(List.of("raf-seek"), null, List.of(2L), null, null, null, null,
                null, null);
        assertTrue(Planner.plan(Profile.quick(), two, RAM).stream().allMatch(p -> p.probes() == 1),
                "two bytes hold one probe");
    }
}
