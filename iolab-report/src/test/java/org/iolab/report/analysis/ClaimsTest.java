package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.iolab.report.model.ClaimCheck;
import org.iolab.report.model.Limit;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Verdict;
import org.junit.jupiter.api.Test;

class ClaimsTest {
    private static final String SEEK = "seeking is about 2x faster than skipping a buffered stream";
    private static final String DIRECT = "direct buffers are faster than heap buffers";
    private static final String EIGHT = "8 KiB buffers are faster than 1 KiB buffers";
    private static final String BYTES = "byte-at-a-time reads are orders of magnitude slower than array reads";
    private static final String FIRST = "the first pass with a direct buffer costs more (allocation)";
    private static final String PREALLOC = "pre-allocated files are faster to write";
    private static final String C = "C is clearly faster than Java";

    private static Map<String, ClaimCheck> claims(RunData run) {
        return Claims.check(run).stream().collect(Collectors.toMap(ClaimCheck::claim, Function.identity()));
    }

    @Test
    void quickProfileChecksEveryClaimAndDecidesMost() {
        List<ClaimCheck> all = Claims.check(Fixtures.run("quick-trimmed.json"));
        assertTrue(all.size() >= 12, "claims: " + all.size());
        long decided = all.stream().filter(c -> c.verdict() != Verdict.NOT_MEASURED).count();
        assertTrue(decided >= 12, "decided " + decided + " of " + all.size());
        for (ClaimCheck c : all) {
            assertFalse(c.article().isBlank(), c.toString());
            assertFalse(c.measured().isBlank(), c.toString());
        }
        Map<String, ClaimCheck> byClaim = all.stream().collect(Collectors.toMap(ClaimCheck::claim, c -> c));
        ClaimCheck seek = byClaim.get(SEEK);
        assertEquals(Verdict.HOLDS, seek.verdict(), seek.measured());
        assertTrue(seek.measured().contains("raf-seek 829 k probes/s"), seek.measured());
        assertTrue(seek.measured().contains("2.05x"), seek.measured());
        assertEquals(Verdict.HOLDS, byClaim.get(BYTES).verdict());
        assertEquals(Verdict.NOT_MEASURED, byClaim.get(EIGHT).verdict(), "quick has no 1 KiB points");
        assertTrue(byClaim.get(EIGHT).measured().contains("--buffers"), byClaim.get(EIGHT).measured());
        assertEquals(Verdict.NOT_MEASURED, byClaim.get(C).verdict(), "no limits");
    }

    @Test
    void holds() {
        Map<String, ClaimCheck> c = claims(Fixtures.run("claims-holds.json"));
        for (String claim : List.of(SEEK, DIRECT, EIGHT, BYTES, FIRST, PREALLOC)) {
            assertEquals(Verdict.HOLDS, c.get(claim).verdict(), claim + ": " + c.get(claim).measured());
        }
        assertTrue(c.get(BYTES).measured().contains("2500x"), c.get(BYTES).measured());
        assertTrue(c.get(EIGHT).measured().contains("2.14x"), c.get(EIGHT).measured());
    }

    @Test
    void doesNotHold() {
        Map<String, ClaimCheck> c = claims(Fixtures.run("claims-does-not-hold.json"));
        for (String claim : List.of(SEEK, DIRECT, EIGHT, BYTES)) {
            assertEquals(Verdict.DOES_NOT_HOLD, c.get(claim).verdict(), claim + ": " + c.get(claim).measured());
        }
        assertTrue(c.get(SEEK).measured().contains("1.20x, less than 1.5x"), c.get(SEEK).measured());
        assertTrue(c.get(BYTES).measured().contains("50.0x"), c.get(BYTES).measured());
    }

    @Test
    void overlappingRangesAreNotDistinguishable() {
        Map<String, ClaimCheck> c = claims(Fixtures.run("claims-noisy.json"));
        for (String claim : List.of(SEEK, DIRECT)) {
            assertEquals(Verdict.NOT_DISTINGUISHABLE, c.get(claim).verdict(), claim + ": " + c.get(claim).measured());
        }
    }

    @Test
    void missingDataIsNotMeasuredAndSaysWhatWouldMeasureIt() {
        Map<String, ClaimCheck> c = claims(Fixtures.run("claims-noisy.json"));
        for (String claim : List.of(EIGHT, BYTES, PREALLOC, C)) {
            assertEquals(Verdict.NOT_MEASURED, c.get(claim).verdict(), claim);
            assertTrue(c.get(claim).measured().startsWith("needs "), c.get(claim).measured());
        }
    }

    @Test
    void cAgainstTheBestJavaReadAtTheSameBufferAndCache() {
        Limit fast = new Limit("c", "read", 8192, 268435456, "warm", List.of(6e9, 6.1e9, 6.2e9), null, null);
        Map<String, ClaimCheck> c = claims(Fixtures.run("claims-holds.json", List.of(fast)));
        assertEquals(Verdict.HOLDS, c.get(C).verdict(), c.get(C).measured());
        assertTrue(c.get(C).measured().contains("C read() 6.10 GB/s"), c.get(C).measured());
        Limit slow = new Limit("c", "read", 8192, 268435456, "warm", List.of(4e9, 4.1e9, 4.2e9), null, null);
        assertEquals(Verdict.DOES_NOT_HOLD, claims(Fixtures.run("claims-holds.json", List.of(slow))).get(C)
                .verdict());
    }
}
