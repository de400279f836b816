package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.content.Content;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageCacheTest {
    private static final long SIZE = 32L << 20;

    @TempDir
    Path dir;

    private Path write(long size) throws IOException {
        Path f = dir.resolve("data");
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long p = 0; p < size; ) {
                buf.clear().limit((int) Math.min(buf.capacity(), size - p));
                Content.DEFAULT.fill(p, buf);
                buf.flip();
                p += ch.write(buf, p);
            }
        }
        return f;
    }

    @Test
    void writeBackAllLeavesNoDirtyPage(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("dirty");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1 << 20), 0);
        }
        long before = org.iolab.testing.DirtyPages.count(f, 0, 1 << 20);
        org.junit.jupiter.api.Assumptions.assumeTrue(before > 0, "needs cachestat (Linux 6.5+) and the pages dirty");
        PageCache.writeBackAll();
        assertEquals(0, org.iolab.testing.DirtyPages.count(f, 0, 1 << 20));
    }

    @Test
    void evictionLeavesNoPagesResidentAndWarmingBringsThemBack() throws IOException {
        Path f = write(SIZE);
        PageCache.Residency cold = PageCache.evict(f);
        assertEquals(SIZE / PageCache.pageSize(), cold.totalPages());
        assertTrue(cold.fraction() <= PageCache.COLD_TOLERANCE, cold::toString);
        // an independent look, not the value evict() returned
        assertTrue(PageCache.residency(f).fraction() <= PageCache.COLD_TOLERANCE);

        PageCache.Residency warm = PageCache.warm(f);
        assertTrue(warm.fraction() > 0.99, warm::toString);
    }

    @Test
    void readingPartOfAColdFileCachesOnlyThatPart() throws IOException {
        Path f = write(SIZE);
        PageCache.evict(f);
        ByteBuffer buf = ByteBuffer.allocate(4 << 20);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // fill the first 4 MiB only
            }
        }
        double fraction = PageCache.residency(f).fraction();
        // 4 of 32 MiB read, plus whatever readahead brought in: resident, but far from all of it
        assertTrue(fraction >= 4.0 / 32 && fraction < 0.9, () -> "resident fraction " + fraction);
    }

    @Test
    void dirtyPagesAreSyncedThenEvicted() throws IOException {
        Path f = write(SIZE); // just written: the pages are dirty and resident
        assertTrue(PageCache.residency(f).fraction() > 0.5);
        assertTrue(PageCache.evict(f).fraction() <= PageCache.COLD_TOLERANCE);
    }

    @Test
    void emptyFileHasNoPages() throws IOException {
        Path f = write(0);
        assertEquals(0, PageCache.residency(f).totalPages());
        assertEquals(0, PageCache.evict(f).residentPages());
    }
}
