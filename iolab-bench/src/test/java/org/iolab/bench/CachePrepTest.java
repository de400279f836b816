package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.os.CacheStateException;
import org.iolab.os.PageCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachePrepTest {
    private static final long SIZE = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void warmThenCold() {
        Path file = dir.resolve("f.dat");
        BenchmarkNames.prepareDataFile(file, SIZE);
        assertEquals(1.0, new CachePrep("warm", "fadvise").apply(file).fraction());
        assertTrue(new CachePrep("cold", "fadvise").apply(file).fraction() <= PageCache.COLD_TOLERANCE);
        assertTrue(PageCache.residency(file).fraction() <= PageCache.COLD_TOLERANCE);
    }

    @Test
    void coldCollectsAForgottenMappingOfAnEarlierPass() throws IOException {
        Path file = dir.resolve("f.dat");
        BenchmarkNames.prepareDataFile(file, SIZE);
        assertEquals(0, touchThroughAMapping(file)); // the buffer is unreachable but not yet collected
        assertTrue(new CachePrep("cold", "fadvise").apply(file).fraction() <= PageCache.COLD_TOLERANCE);
    }

    @Test
    void coldRefusesAFileThatStaysMapped() throws IOException {
        Path file = dir.resolve("f.dat");
        BenchmarkNames.prepareDataFile(file, SIZE);
        MappedByteBuffer held = map(file);
        try {
            for (int i = 0; i < held.capacity(); i += 4096) {
                held.get(i);
            }
            CachePrep cold = new CachePrep("cold", "fadvise");
            assertThrows(CacheStateException.class, () -> cold.apply(file));
        } finally {
            Reference.reachabilityFence(held);
        }
    }

    @Test
    void badValuesAreNamed() {
        assertTrue(assertThrows(IolabException.class, () -> new CachePrep("hot", "fadvise")).getMessage()
                .contains("cache"));
        assertTrue(assertThrows(IolabException.class, () -> new CachePrep("cold", "pray")).getMessage()
                .contains("evict"));
        if (PageCache.canDropAll()) {
            assertEquals("cache=cold evict=drop-caches", new CachePrep("cold", "drop-caches").describe());
        } else {
            assertThrows(IolabException.class, () -> new CachePrep("cold", "drop-caches"));
        }
        assertEquals("cache=warm", new CachePrep("warm", "drop-caches").describe());
    }

    private static long touchThroughAMapping(Path file) throws IOException {
        MappedByteBuffer m = map(file);
        long ignored = 0;
        for (int i = 0; i < m.capacity(); i += 4096) {
            ignored += m.get(i) & 0;
        }
        return ignored;
    }

    private static MappedByteBuffer map(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        }
    }
}
