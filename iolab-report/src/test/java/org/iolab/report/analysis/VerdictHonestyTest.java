package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.iolab.catalogue.Kind;
import org.iolab.report.html.HtmlReport;
import org.iolab.report.limits.Fio;
import org.iolab.report.model.Bench;
import org.iolab.report.model.ClaimCheck;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.PutLatency;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.iolab.report.model.TargetCheck;
import org.iolab.report.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Honesty defects found in review: each test fails on the current code. */
class VerdictHonestyTest {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    static Measurement read(String method, boolean usesBuffer, long buffer, long file, String cache, Double... bps) {
        return new Measurement(Bench.READ, method, Kind.READ, buffer, usesBuffer, file, cache, null, false, 0, 0,
                "B/s", Arrays.asList(bps), List.of(), "25");
    }

    static RunData catalogue(List<Measurement> ms, List<Limit> limits) {
        return new RunData(new ResultSet(null, ms), List.of(), limits, List.of());
    }

    static ClaimCheck claim(RunData run, String prefix) {
        return Claims.check(run).stream().filter(c -> c.claim().startsWith(prefix)).findFirst().orElseThrow();
    }

    static TargetCheck target(List<TargetCheck> checks, String prefix) {
        return checks.stream().filter(c -> c.target().startsWith(prefix)).findFirst().orElseThrow();
    }

    // D1 Claims.decide: a "100x" claim holds although the spread straddles 100x
    @Test
    void factorClaimIsNotMetWhenTheSpreadStraddlesTheFactor() {
        RunData run = catalogue(List.of(
                read("fis-array", true, 8192, 64 * MIB, "warm", 1.05e9, 1.10e9, 1.20e9),
                read("fis-byte", false, 0, 64 * MIB, "warm", 5e6, 10e6, 20e6)), List.of());
        ClaimCheck c = claim(run, "byte-at-a-time reads are orders of magnitude slower");
        // 1.05 GB/s (slowest array pass) < 100 x 20 MB/s (fastest byte pass): not distinguishable from 100x
        assertEquals(Verdict.NOT_DISTINGUISHABLE, c.verdict(), c.measured());
    }

    // D2 Claims.flattens: "holds" from one pass each, and from ranges that straddle the 80% line
    @Test
    void flattensNeedsPassesAndASpreadClearOfTheEightyPercentLine() {
        ClaimCheck one = claim(catalogue(List.of(read("fis-array", true, 8192, 64 * MIB, "warm", 1.0e9),
                read("fis-array", true, MIB, 64 * MIB, "warm", 1.2e9)), List.of()), "read speed flattens");
        assertNotEquals(Verdict.HOLDS, one.verdict(), "one pass each has no spread: " + one.measured());
        ClaimCheck straddle = claim(catalogue(List.of(
                read("fis-array", true, 8192, 64 * MIB, "warm", 0.70e9, 0.81e9, 1.0e9),
                read("fis-array", true, MIB, 64 * MIB, "warm", 0.90e9, 1.0e9, 1.1e9)), List.of()),
                "read speed flattens");
        // 0.70 GB/s < 0.8 x 1.1 GB/s
        assertEquals(Verdict.NOT_DISTINGUISHABLE, straddle.verdict(), straddle.measured());
    }

    // D3 Claims.pairs: the claimed-faster side is taken from another file size than the slower side
    @Test
    void pairedClaimsCompareTheSameFileSize() {
        RunData run = catalogue(List.of(
                read("mapped-array", true, 8192, MIB, "warm", 9.9e9, 10e9, 10.1e9),
                read("mapped-array", true, 8192, GIB, "warm", 3.0e9, 3.1e9, 3.2e9),
                read("raf-array", true, 8192, GIB, "warm", 4.0e9, 4.1e9, 4.2e9)), List.of());
        ClaimCheck c = claim(run, "MappedByteBuffer is the fastest way to read records");
        // on the only file both measured (1 GiB) mapped-array is slower than raf-array
        assertEquals(Verdict.DOES_NOT_HOLD, c.verdict(), c.measured());
    }

    // D3b Claims.cFaster: C read() on the 1 GiB baseline file against Java's best on any file size
    @Test
    void cAgainstJavaOnTheSameFileSize() {
        Limit c = new Limit("c", "read", 8192, GIB, "warm", List.of(5.9e9, 6.0e9, 6.1e9), null, "");
        RunData run = catalogue(List.of(read("fis-array", true, 8192, MIB, "warm", 8.9e9, 9e9, 9.1e9),
                read("fis-array", true, 8192, GIB, "warm", 4.9e9, 5e9, 5.1e9)), List.of(c));
        ClaimCheck check = claim(run, "C is clearly faster than Java");
        assertEquals(Verdict.HOLDS, check.verdict(), check.measured());
    }

    // D4 Claims.pageCache: the "cold cache was not cold" test can never fire (device = fastest cold read)
    @Test
    void aColdReadTenTimesTheDeviceIsFlagged() {
        Limit direct = new Limit("fio", "read-direct", MIB, GIB, null, List.of(0.49e9, 0.5e9, 0.51e9), null, "");
        RunData run = catalogue(List.of(read("fis-array", true, 8192, GIB, "cold", 5.0e9, 5.1e9, 5.2e9),
                read("fis-array", true, 8192, GIB, "warm", 5.3e9, 5.4e9, 5.5e9)), List.of(direct));
        ClaimCheck c = claim(run, "warm figures can exceed");
        assertTrue(c.measured().contains("not cold"), c.verdict() + ": " + c.measured());
    }

    // D5 JournalTargets.versusFio without write+sync passes: JournalTargetsTest
    //    .withoutWriteThenSyncPassesTheFioTargetsShowTheAppendsWithoutAVerdict checks both levels

    // D6 JournalTargets.replayVersusReads: the fastest warm read of any file size (a 1 MiB file here)
    @Test
    void replayIsSetAgainstWarmReadsOfItsOwnSize() {
        Measurement replay = new Measurement(Bench.JOURNAL_REPLAY, "mapped", null, 64, true, 64 * MIB, "warm", null,
                false, 0, 0, "records/s", List.of(5.4e9 / 64, 5.5e9 / 64, 5.6e9 / 64), List.of(), "25", null,
                MIB);
        RunData run = new RunData(new ResultSet(null, List.of(
                read("mapped-array", true, 8192, MIB, "warm", 19e9, 20e9, 21e9),
                read("mapped-array", true, 8192, 64 * MIB, "warm", 5.0e9, 5.1e9, 5.2e9)), List.of(replay)),
                List.of(), List.of(), List.of());
        TargetCheck t = target(JournalTargets.check(run), "replay ≥ 0.9×");
        assertTrue(t.comparator().contains("64 MiB"), t.comparator());
    }

    // D7 StoreTargets.batchVersusAlways: the two rates ran different record counts
    @Test
    void batchVersusAlwaysPrefersTheSameRecordCountAndNamesBothCountsOtherwise() {
        Measurement always = StoreTargetsTest.phase("iolab", "always", "put", 2000, 330.0, 338.0, 344.0);
        Measurement batchAll = StoreTargetsTest.phase("iolab", "batch", "put", 100_000, 60.0, 61.0, 62.0);
        TargetCheck across = target(StoreTargets.check(StoreTargetsTest.run(List.of(batchAll, always), List.of())),
                "BATCH puts/s");
        assertTrue(across.journal().contains("100000 records") && across.comparator().contains("2000 records"),
                across.toString());
        Measurement batchSame = StoreTargetsTest.phase("iolab", "batch", "put", 2000, 2.0, 2.1, 2.2);
        TargetCheck same = target(StoreTargets.check(StoreTargetsTest.run(List.of(batchAll, batchSame, always),
                List.of())), "BATCH puts/s");
        assertTrue(same.journal().contains("2000 records"), "the BATCH run of the ALWAYS count: " + same);
    }

    // D8 StoreTargets.always: "iolab at Nx of [the device]" uses another rate than the figure beside it
    @Test
    void alwaysDeviceShareUsesTheRateItPrints() {
        List<Measurement> store = List.of(StoreTargetsTest.phase("iolab", "always", "put", 2000, 300.0, 305.0, 310.0),
                StoreTargetsTest.phase("sqlite", "always", "put", 2000, 400.0, 405.0, 410.0));
        List<PutLatency> lat = List.of(
                new PutLatency("iolab", "always", "put", 2000, 200, 3800, 2.1e5, 2.9e5, 1.2e6, 7e6, 1.5e7, 2.6e5),
                new PutLatency("sqlite", "always", "put", 2000, 200, 4300, 1.9e5, 3.6e5, 5.0e5, 2.3e6, 3.8e6, 2.3e5));
        Limit device = new Limit("fio", Fio.STORE_WRITE_FDATASYNC, 4096, 64 * MIB, null, List.of(2.29e7, 2.29e7),
                null, "");
        RunData run = new RunData(new ResultSet(null, List.of(), List.of(), store), List.of(), List.of(device),
                List.of(), List.of(), lat);
        TargetCheck t = target(StoreTargets.check(run), StoreTargets.ALWAYS_TARGET);
        double printed = 2000 * 1e3 / 305.0; // 6.56 k puts/s, the figure the row shows first
        String share = Rates.ratio(printed / (2.29e7 / 4096));
        assertTrue(t.comparator().contains("iolab at " + share), t.comparator());
        // iolab's p99 is 2.4x SQLite's: the target says its verdict weighs puts/s only, and both p99s stand beside it
        assertTrue(t.target().contains("the verdict: puts/s against SQLite's"), t.target());
        assertTrue(t.journal().contains("p99 1.20 ms") && t.comparator().contains("p99 500 µs"), t.toString());
    }

    // D9 Compare: store points are dropped, so `iolab compare` of two store runs prints an empty table
    @Test
    void compareKeepsStorePoints() {
        ResultSet rs = new ResultSet(Path.of("a.json"), List.of(), List.of(),
                List.of(StoreTargetsTest.phase("iolab", "none", "put", 100_000, 10.0, 11.0, 12.0)));
        Comparison c = Compare.compare(List.of(rs, rs));
        assertFalse(c.rows().isEmpty(), "no row for the store point");
    }

    // D10 HtmlReport.storeTable: "0.96x faster" for an iolab phase slower than the best peer
    @Test
    void storeTableDoesNotCallASlowerPhaseFaster(@TempDir Path out) throws Exception {
        List<Measurement> store = List.of(StoreTargetsTest.phase("iolab", "none", "get", 100_000, 70.6, 77.1, 80.6),
                StoreTargetsTest.phase("lmdb", "none", "get", 100_000, 72.3, 73.7, 77.8));
        RunData run = new RunData(new ResultSet(out.resolve("results.json"), List.of(), List.of(), store), List.of(),
                List.of(), List.of());
        String html = Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8);
        assertFalse(html.contains("0.96x faster"), "iolab 77.1 ms vs lmdb 73.7 ms is printed as '0.96x faster'");
    }
}
