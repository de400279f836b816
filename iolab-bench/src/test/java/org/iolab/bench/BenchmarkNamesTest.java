package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;

class BenchmarkNamesTest {
    @Test
    void namesMatchTheClasses() {
        assertEquals(ReadBenchmark.class.getName() + ".pass", BenchmarkNames.READ);
        assertEquals(WriteBenchmark.class.getName() + ".pass", BenchmarkNames.WRITE);
        assertEquals(RandomAccessBenchmark.class.getName() + ".pass", BenchmarkNames.RANDOM);
        assertEquals(JournalReplayBenchmark.class.getName() + ".pass", BenchmarkNames.JOURNAL_REPLAY);
        assertEquals(JournalBulkBenchmark.class.getName() + ".pass", BenchmarkNames.JOURNAL_BULK);
        assertEquals(org.iolab.bench.store.StoreBenchmark.class.getName() + ".phase", BenchmarkNames.STORE);
    }

    @Test
    void includePatternMatchesOnlyItsBenchmark() {
        Pattern p = Pattern.compile(BenchmarkNames.includePattern(BenchmarkNames.READ));
        assertTrue(p.matcher(BenchmarkNames.READ).find());
        assertTrue(!p.matcher(BenchmarkNames.WRITE).find());
        assertTrue(!p.matcher("org.iolab.bench.ReadBenchmark.passX").find());
    }

    @Test
    void dataFileNameIsInBytes() {
        assertEquals("read-67108864.dat", BenchmarkNames.dataFileName(64L << 20));
    }

    @Test
    void probePositions() {
        assertArrayEquals(new long[] {0, 20000, 40000}, BenchmarkNames.probePositions(40002, 20000, 1));
        assertArrayEquals(new long[] {0, 20000}, BenchmarkNames.probePositions(40001, 20000, 1));
        assertArrayEquals(new long[] {0}, BenchmarkNames.probePositions(2, 20000, 1));
        assertThrows(IolabException.class, () -> BenchmarkNames.probePositions(1, 20000, 1));
        assertThrows(IolabException.class, () -> BenchmarkNames.probePositions(100, 0, 1));
        assertThrows(IolabException.class, () -> BenchmarkNames.probePositions(1L << 40, 1, 1));
    }
}
