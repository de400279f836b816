package org.iolab.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import org.iolab.catalogue.Kind;
import org.iolab.report.analysis.Advisor;
import org.iolab.report.analysis.PageCacheTruth;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;

/** Java results set against a C/fio limit that measured something else. */
class LimitMatchTest {
    private static final long MIB256 = 256L << 20;

    private static Measurement write(String method, boolean sync, double bps) {
        return new Measurement(Bench.WRITE, method, Kind.WRITE, 8192, true, MIB256, null, "none", sync, 0, 0, "B/s",
                List.of(bps, bps, bps), List.of(), "25");
    }

    private static Measurement read(String method, String cache, double bps) {
        return new Measurement(Bench.READ, method, Kind.READ, 8192, true, MIB256, cache, null, false, 0, 0, "B/s",
                List.of(bps, bps, bps), List.of(), "25");
    }

    private static Limit limit(String tool, String op, String cache, double bps, String note) {
        return new Limit(tool, op, 8192, MIB256, cache, List.of(bps, bps, bps), null, note);
    }

    /** The quick profile's writes are unsynced; every fio write job ends with --end_fsync=1. */
    @Test
    void unsyncedJavaWriteIsNotSetAgainstAnFsyncedFioWrite() {
        Measurement java = write("channel-direct-write", false, 2.0e9);
        List<Limit> limits = List.of(
                limit("c", "write-nosync", null, 2.1e9, "page cache only, no sync"),
                limit("c", "write", null, 0.5e9, "ends with fdatasync"),
                limit("fio", "write-buffered", null, 0.5e9, "new file, --end_fsync=1, --fallocate=none"));
        RunData run = new RunData(new ResultSet(Path.of("r.json"), List.of(java)), List.of(), limits, List.of());
        String text = HtmlReport.javaVsHardware(run, Advisor.advise(run));
        assertFalse(text.contains("fio write"), "an unsynced write against fio's fsynced write: " + text);
        // without a C compiler the per-result ratio falls back to fio: the same mismatch
        String ratio = PageCacheTruth.ratio(java, limits.subList(2, 3));
        assertEquals("", ratio, "unsynced Java write over fio write+end_fsync");
    }

    /** odirect is O_DIRECT; its matching limit is the buffered C read() even when fio read-direct was measured. */
    @Test
    void odirectReadIsMatchedToADirectLimit() {
        Measurement java = read("odirect", "cold", 0.3e9);
        List<Limit> limits = List.of(
                limit("c", "read", "cold", 1.0e9, "posix_fadvise(DONTNEED), checked with mincore"),
                limit("fio", "read-direct", "cold", 0.3e9, "O_DIRECT: bypasses the page cache"));
        Limit matched = PageCacheTruth.matchingLimit(java, limits).orElseThrow();
        assertEquals("read-direct", matched.operation(), "O_DIRECT Java read set against buffered C read()");
    }
}
