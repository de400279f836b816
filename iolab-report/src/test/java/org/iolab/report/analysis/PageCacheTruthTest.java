package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalDouble;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;

class PageCacheTruthTest {
    private static Limit limit(String tool, String op, long block, String cache, double median) {
        return new Limit(tool, op, block, 268435456, cache, List.of(median * 0.99, median, median * 1.01), null,
                null);
    }

    private static Measurement find(RunData run, String method, String cache, long buffer) {
        return run.results().where(m -> m.method().equals(method) && java.util.Objects.equals(m.cache(), cache)
                && (buffer == 0 || m.bufferSize() == buffer)).getFirst();
    }

    @Test
    void deviceBandwidthIsTheFastestReadThatCannotHaveComeFromThePageCache() {
        RunData quick = Fixtures.run("quick-trimmed.json");
        // no limits: the fastest cold Java read (segment-mapped, 2.39 GB/s)
        assertEquals(2.39e9, quick.results().measurements().isEmpty() ? 0
                : PageCacheTruth.deviceBandwidth(quick).orElseThrow(), 0.01e9);
        Limit cRead = limit("c", "read", 8192, "cold", 2.0e9);
        Limit fioSmall = limit("fio", "read-direct", 4096, "cold", 1.0e9);
        Limit fioBig = limit("fio", "read-direct", 1048576, "cold", 3.0e9);
        RunData withC = Fixtures.run("quick-trimmed.json", List.of(cRead));
        assertEquals(2.39e9, PageCacheTruth.deviceBandwidth(withC).orElseThrow(), 0.01e9,
                "a cold Java read faster than C's cold read() still came from the device");
        Limit cWarm = limit("c", "read", 8192, "warm", 7.0e9);
        RunData withWarmC = Fixtures.run("quick-trimmed.json", List.of(cWarm));
        assertEquals(2.39e9, PageCacheTruth.deviceBandwidth(withWarmC).orElseThrow(), 0.01e9,
                "a warm baseline is the page cache, not the device");
        RunData withFio = Fixtures.run("quick-trimmed.json", List.of(cRead, fioSmall, fioBig));
        assertEquals(3.0e9, PageCacheTruth.deviceBandwidth(withFio).orElseThrow(), 1);
        RunData writesOnly = new RunData(new org.iolab.report.model.ResultSet(quick.results().source(),
                quick.results().where(m -> m.bench() == Bench.WRITE)), List.of(), List.of(), List.of());
        assertTrue(PageCacheTruth.deviceBandwidth(writesOnly).isEmpty());
    }

    @Test
    void labels() {
        RunData quick = Fixtures.run("quick-trimmed.json");
        OptionalDouble device = OptionalDouble.of(2.0e9);
        assertEquals("served from memory (5.0× the device)",
                PageCacheTruth.label(find(quick, "mapped-array", "warm", 8192), device));
        assertEquals("device-bound", PageCacheTruth.label(find(quick, "fis-array", "cold", 8192), device));
        assertEquals("device-bound", PageCacheTruth.label(find(quick, "fis-array", "cold", 8192),
                OptionalDouble.of(1.0e9)), "a cold pass was checked to be out of the page cache: never 'served from"
                + " memory', even when faster than the device figure");
        assertEquals("", PageCacheTruth.label(find(quick, "fis-byte", "cold", 0), device), "method-bound");
        assertEquals("", PageCacheTruth.label(find(quick, "raf-write", null, 8192), device), "writes");
        assertEquals("", PageCacheTruth.label(find(quick, "raf-seek", "warm", 0), device), "random");
        assertEquals("", PageCacheTruth.label(find(quick, "mapped-array", "warm", 8192), OptionalDouble.empty()));
    }

    @Test
    void matchingLimitAndRatio() {
        RunData quick = Fixtures.run("quick-trimmed.json");
        Limit read8 = limit("c", "read", 8192, "warm", 5.0e9);
        Limit read1m = limit("c", "read", 1048576, "warm", 10.0e9);
        Limit readCold = limit("c", "read", 8192, "cold", 2.0e9);
        Limit mmap = limit("c", "mmap", 0, "warm", 12.0e9);
        Limit write = limit("c", "write", 1048576, null, 2.0e9);
        Limit writeNoSync = limit("c", "write-nosync", 1048576, null, 4.0e9);
        List<Limit> limits = List.of(read8, read1m, readCold, mmap, write, writeNoSync);
        Measurement fis8 = find(quick, "fis-array", "warm", 8192);
        Measurement fis64 = find(quick, "fis-array", "warm", 65536);
        assertEquals(read8, PageCacheTruth.matchingLimit(fis8, limits).orElseThrow());
        assertEquals(read8, PageCacheTruth.matchingLimit(fis64, limits).orElseThrow(), "nearest buffer: 8k");
        assertEquals(readCold, PageCacheTruth.matchingLimit(find(quick, "fis-array", "cold", 8192), limits)
                .orElseThrow());
        assertEquals(mmap, PageCacheTruth.matchingLimit(find(quick, "mapped-array", "warm", 8192), limits)
                .orElseThrow());
        assertEquals(writeNoSync, PageCacheTruth.matchingLimit(find(quick, "raf-write", null, 8192), limits)
                .orElseThrow(), "an unsynced Java write is compared with an unsynced C write");
        assertEquals("C write() without sync", PageCacheTruth.name(writeNoSync));
        assertTrue(PageCacheTruth.matchingLimit(find(quick, "raf-seek", "warm", 0), limits).isEmpty());
        assertEquals("0.90× C read()", PageCacheTruth.ratio(fis8, limits));
        Limit fio = limit("fio", "read-direct", 1048576, "cold", 1.0e9);
        assertEquals("2.02× fio read (O_DIRECT)",
                PageCacheTruth.ratio(find(quick, "fis-array", "cold", 8192), List.of(fio)));
        assertEquals("", PageCacheTruth.ratio(fis8, List.of()));
    }
}
