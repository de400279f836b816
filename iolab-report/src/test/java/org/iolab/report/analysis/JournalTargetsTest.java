package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iolab.report.limits.Fio;
import org.iolab.report.model.Advice;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Latency;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Stats;
import org.iolab.report.model.TargetCheck;
import org.iolab.report.model.Verdict;
import org.junit.jupiter.api.Test;

/** The journal's targets and the journal backend advice, on hand-made passes. */
class JournalTargetsTest {
    static Measurement append(String backend, String durability, long size, Double... passes) {
        return new Measurement(Bench.JOURNAL_APPEND, backend, null, size, true, 0, null, null, false, 0, 0,
                "appends/s", Arrays.asList(passes), List.of(), "25", durability, 0);
    }

    static Measurement chronicle(long size, Double... passes) {
        return new Measurement(Bench.CHRONICLE_APPEND, "chronicle", null, size, true, 0, null, null, false, 0, 0,
                "appends/s", Arrays.asList(passes), List.of(), "25", null, 0);
    }

    static RunData run(List<Measurement> journal, List<Limit> limits, List<Latency> latency) {
        return new RunData(new ResultSet(null, List.of(), journal), List.of(), limits, List.of(), latency);
    }

    private static TargetCheck find(List<TargetCheck> checks, String prefix) {
        return checks.stream().filter(c -> c.target().startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no target " + prefix + " in " + checks));
    }

    @Test
    void aTargetIsMetOnlyWhenEveryPassClearsTheScaledComparator() {
        Stats chronicle = Stats.of(List.of(1.0, 1.1, 1.2));
        assertEquals(Verdict.HOLDS, JournalTargets.verdict(Stats.of(List.of(3.7, 3.8, 4.0)), chronicle, 3));
        assertEquals(Verdict.DOES_NOT_HOLD, JournalTargets.verdict(Stats.of(List.of(2.0, 2.5, 2.9)), chronicle, 3));
        // median above 3x, but the lowest pass is inside the scaled range
        assertEquals(Verdict.NOT_DISTINGUISHABLE, JournalTargets.verdict(Stats.of(List.of(3.5, 4.0, 4.5)),
                chronicle, 3));
        // one pass has no spread
        assertEquals(Verdict.NOT_DISTINGUISHABLE, JournalTargets.verdict(Stats.of(List.of(10.0)), chronicle, 3));
    }

    @Test
    void appendTargetsUseTheFastestBackendAgainstChronicle() {
        List<Measurement> journal = List.of(append("segment", "none", 64, 6e6, 6.1e6, 6.2e6),
                append("raf", "none", 64, 0.7e6, 0.8e6, 0.9e6), chronicle(64, 1.5e6, 1.6e6, 1.7e6),
                append("segment", "none", 4096, 1.5e5, 1.6e5, 1.7e5), chronicle(4096, 1.4e5, 1.5e5, 1.6e5));
        List<TargetCheck> checks = JournalTargets.check(run(journal, List.of(), List.of()));
        TargetCheck small = find(checks, "NONE 64 B");
        assertEquals(Verdict.HOLDS, small.verdict(), small.toString());
        assertEquals(6.1e6 / 1.6e6, small.ratio(), 1e-9);
        assertTrue(small.journal().startsWith("segment "), small.journal());
        assertEquals("met", small.label());
        TargetCheck page = find(checks, "NONE 4 KiB");
        assertEquals(Verdict.DOES_NOT_HOLD, page.verdict(), page.toString());
        assertEquals("not met", page.label());
        assertEquals(Verdict.NOT_MEASURED, find(checks, "replay of 64 B").verdict());
    }

    @Test
    void withoutChronicleOrFioTheTargetsSayNotMeasuredAndWhy() {
        List<Measurement> journal = List.of(append("segment", "none", 64, 6e6, 6.1e6, 6.2e6),
                append("segment", "batch", 65536, 5e3, 5.1e3, 5.2e3));
        List<TargetCheck> checks = JournalTargets.check(run(journal, List.of(), List.of()));
        TargetCheck c = find(checks, "NONE 64 B");
        assertEquals(Verdict.NOT_MEASURED, c.verdict());
        assertTrue(c.comparator().contains("Chronicle Queue not measured"), c.comparator());
        TargetCheck batch = find(checks, "BATCH 64 KiB");
        assertEquals(Verdict.NOT_MEASURED, batch.verdict());
        assertTrue(batch.comparator().startsWith("fio not measured"), batch.comparator());
        TargetCheck none64k = find(checks, "64 KiB records at NONE");
        assertTrue(none64k.journal().contains("--record-sizes 64k"), none64k.journal());
        assertTrue(find(checks, "replay ≥ 0.9×").journal().contains("no replay"));
    }

    @Test
    void batchIsComparedInBytesWithFioAtTheSameCadenceAndCitesTheDurableP99() {
        // 5,000 appends/s of 64 KiB = 327.68 MB/s against fio's 100 MB/s
        List<Measurement> journal = List.of(append("segment", "batch", 65536, 5e3, 5.1e3, 5.2e3));
        Limit fio = new Limit("fio", Fio.JOURNAL_WRITE_FDATASYNC, 65536, 64L << 20, null,
                List.of(1.0e8, 1.1e8, 1.2e8), null, "--fdatasync=16");
        Latency durable = new Latency("durable", "segment", "batch", 64, 50000, 100000, 2e5, 4e5, 1.5e6, 3e6, 9e6,
                3e5, 49990);
        TargetCheck batch = find(JournalTargets.check(run(journal, List.of(fio), List.of(durable))), "BATCH 64 KiB");
        assertEquals(Verdict.HOLDS, batch.verdict(), batch.toString());
        assertEquals(5.1e3 * 65536 / 1.1e8, batch.ratio(), 1e-9);
        assertTrue(batch.journal().contains("p99 append-to-durable 1.50 ms"), batch.journal());
    }

    @Test
    void noJournalNoTargets() {
        assertTrue(JournalTargets.check(run(List.of(), List.of(), List.of())).isEmpty());
    }

    @Test
    void journalBackendAdviceIsTheFastestAtNone64BytesWithTies() {
        List<Measurement> clear = new ArrayList<>(List.of(append("segment", "none", 64, 6e6, 6.1e6, 6.2e6),
                append("mapped", "none", 64, 5e6, 5.1e6, 5.2e6), append("raf", "batch", 64, 9e6, 9e6, 9e6)));
        Advice a = Advisor.advise(run(clear, List.of(), List.of())).getLast();
        assertEquals(Advisor.JOURNAL_BACKEND, a.workload());
        assertEquals("segment", a.best().method(), "BATCH appends are not rivals of NONE ones");
        assertEquals("mapped", a.runnerUp().method());
        assertTrue(a.clearlyAhead(), a.text());
        List<Measurement> tied = List.of(append("segment", "none", 64, 4e6, 6.1e6, 6.2e6),
                append("mapped", "none", 64, 5e6, 5.1e6, 5.2e6));
        Advice t = Advisor.advise(run(tied, List.of(), List.of())).getLast();
        assertFalse(t.clearlyAhead());
        assertTrue(t.text().contains("tied within the noise with mapped"), t.text());
        assertTrue(Advisor.advise(run(List.of(), List.of(), List.of())).isEmpty());
    }
}
