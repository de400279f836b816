package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.iolab.catalogue.Kind;
import org.iolab.report.model.Bench;
import org.iolab.report.model.ClaimCheck;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Verdict;
import org.junit.jupiter.api.Test;

/** Claims checked as the articles make them, against the measurements they are about. */
class ClaimWordingTest {
    private static final long MIB = 1L << 20;

    private static Measurement read(String method, long buffer, Double... bps) {
        return new Measurement(Bench.READ, method, Kind.READ, buffer, true, 256 * MIB, "warm", null, false, 0, 0,
                "B/s", Arrays.asList(bps), List.of(), "25");
    }

    private static Measurement readAfter(String method, List<Double> warmups, Double... bps) {
        return new Measurement(Bench.READ, method, Kind.READ, 8192, true, 256 * MIB, "warm", null, false, 0, 0,
                "B/s", Arrays.asList(bps), warmups, "25");
    }

    private static Measurement write(String method, boolean usesBuffer, Double... bps) {
        return new Measurement(Bench.WRITE, method, Kind.WRITE, 8192, usesBuffer, 256 * MIB, null, "none", false,
                0, 0, "B/s", Arrays.asList(bps), List.of(), "25");
    }

    private static ClaimCheck claim(String prefix, Measurement... ms) {
        RunData run = new RunData(new ResultSet(null, List.of(ms)), List.of(), List.of(), List.of());
        return Claims.check(run).stream().filter(c -> c.claim().startsWith(prefix)).findFirst().orElseThrow();
    }

    @Test
    void mappedWritesAreSetAgainstTheArticlesStreamOfArraysNotAByteAtATime() {
        ClaimCheck c = claim("memory-mapped writes are faster than streams",
                write("mapped-write", false, 1.0e9, 1.01e9, 1.02e9),
                write("bos-byte-write", true, 0.10e9, 0.11e9, 0.12e9),
                write("fos-array-write", true, 2.0e9, 2.01e9, 2.02e9));
        assertEquals(Verdict.DOES_NOT_HOLD, c.verdict(), c.measured());
    }

    @Test
    void nadeausMappedArrayHoldsAsOneOfHisThreeFastest() {
        ClaimCheck c = claim("MappedByteBuffer with array gets is one of the three fastest",
                read("channel-direct-array", 131072, 5.0e9, 5.05e9, 5.1e9),
                read("channel-wrapped", 262144, 4.9e9, 4.95e9, 5.0e9),
                read("mapped-array", 4096, 4.0e9, 4.05e9, 4.1e9),
                read("bis-array", 8192, 2.0e9, 2.05e9, 2.1e9),
                read("fis-array", 8192, 2.0e9, 2.05e9, 2.1e9),
                read("segment-mapped", 0, 9.0e9, 9.1e9, 9.2e9)); // modern: not in his comparison
        assertEquals(Verdict.HOLDS, c.verdict(), c.measured());
    }

    @Test
    void thompsonsClaimIsThatChannelsWinNotMappedFiles() {
        ClaimCheck channelsWin = claim("FileChannel with a ByteBuffer is the clear winner",
                read("channel-heap-array", 8192, 3.0e9, 3.05e9, 3.1e9),
                read("raf-array", 8192, 2.0e9, 2.05e9, 2.1e9),
                read("mapped-array", 8192, 1.0e9, 1.05e9, 1.1e9));
        assertEquals(Verdict.HOLDS, channelsWin.verdict(), channelsWin.measured());
        ClaimCheck mappedWins = claim("FileChannel with a ByteBuffer is the clear winner",
                read("channel-heap-array", 8192, 3.0e9, 3.05e9, 3.1e9),
                read("mapped-array", 8192, 6.0e9, 6.05e9, 6.1e9));
        assertEquals(Verdict.DOES_NOT_HOLD, mappedWins.verdict(), mappedWins.measured());
    }

    @Test
    void aFirstPassDropThatHeapBuffersShareIsNotTheDirectBuffersCost() {
        List<Double> jitWarmUp = List.of(1.0e9, 4.0e9, 4.0e9);
        ClaimCheck shared = claim("the first pass with a direct buffer costs more",
                readAfter("channel-direct-array", jitWarmUp, 4.0e9, 4.05e9, 4.1e9),
                readAfter("channel-heap-array", jitWarmUp, 4.0e9, 4.05e9, 4.1e9));
        assertEquals(Verdict.DOES_NOT_HOLD, shared.verdict(), shared.measured());
        ClaimCheck own = claim("the first pass with a direct buffer costs more",
                readAfter("channel-direct-array", List.of(0.5e9, 4.0e9, 4.0e9), 4.0e9, 4.05e9, 4.1e9),
                readAfter("channel-heap-array", List.of(3.8e9, 4.0e9, 4.0e9), 4.0e9, 4.05e9, 4.1e9));
        assertEquals(Verdict.HOLDS, own.verdict(), own.measured());
    }
}
