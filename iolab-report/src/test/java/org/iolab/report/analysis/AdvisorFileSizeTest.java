package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import org.iolab.catalogue.Kind;
import org.iolab.report.model.Advice;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;

/**
 * The seeds profile's warm reads, as Planner.plan(Profile.seeds()) sizes them: only raf-array keeps the
 * 8 GiB file (the other Thompson reads are shrunk by the 5 s budget), the rest run on 1 GiB and 256 MiB. The answer
 * is taken on a file several methods were measured on, not given to raf-array unopposed.
 */
class AdvisorFileSizeTest {
    private static Measurement warm(String method, long buffer, long size, double bps) {
        return new Measurement(Bench.READ, method, Kind.READ, buffer, true, size, "warm", null, false, 0, 0, "B/s",
                List.of(bps, bps * 1.01, bps * 0.99), List.of(), "25");
    }

    @Test
    void warmAdviceIsNotALoneMethodOnTheOneLargestFile() {
        List<Measurement> ms = List.of(
                warm("raf-array", 4096, 8L << 30, 2.0e9),
                warm("mapped-array", 8192, 1L << 30, 9.0e9),
                warm("channel-direct-array", 8192, 1L << 30, 8.0e9),
                warm("mapped-array", 1 << 20, 256L << 20, 11.0e9),
                warm("fis-array", 1 << 20, 256L << 20, 7.0e9));
        RunData run = new RunData(new ResultSet(Path.of("r.json"), ms), List.of(), List.of(), List.of());
        Advice a = Advisor.advise(run).getFirst();
        assertFalse(a.text().contains("no other method was measured"), a.text());
        // 1 GiB and 256 MiB both hold two methods: the larger of them decides
        assertEquals("mapped-array", a.best().method(), a.text());
        assertEquals(1L << 30, a.best().fileSize(), a.text());
        assertEquals("channel-direct-array", a.runnerUp().method(), a.text());
    }
}
