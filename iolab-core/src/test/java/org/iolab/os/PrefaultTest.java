package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.iolab.testing.DirtyPages;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrefaultTest {
    @TempDir
    Path dir;

    @Test
    void populatingAMappingKeepsItsBytesAndMakesThePagesResident() throws Exception {
        Path file = dir.resolve("f");
        byte[] data = new byte[3 << 20];
        new Random(7).nextBytes(data);
        Files.write(file, data);
        PageCache.evict(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofConfined()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, data.length, arena);
            assertTrue(PageCache.residency(file).fraction() < 0.1, "evicted before");
            assertTrue(Prefault.populateWrite(m.asSlice(4096, data.length - 4096)), "kernel 5.14+ expected here");
            assertTrue(PageCache.residency(file).fraction() > 0.9, "resident after populating");
            assertArrayEquals(data, m.toArray(ValueLayout.JAVA_BYTE));
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @Test
    void releasingAWritersPagesKeepsTheirBytesAndLeavesThemDirty() throws Exception {
        Path control = DirtyPages.control(dir);
        Path file = dir.resolve("r");
        byte[] data = new byte[2 << 20];
        new Random(11).nextBytes(data);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, data.length, arena);
            MemorySegment.copy(data, 0, m, ValueLayout.JAVA_BYTE, 0, data.length);
            long dirty = DirtyPages.count(file, 0, data.length);
            Assumptions.assumeTrue(dirty == data.length / 4096, "needs cachestat: " + dirty + " dirty pages");
            assertTrue(Prefault.release(m));
            long after = DirtyPages.count(file, 0, data.length);
            Assumptions.assumeTrue(DirtyPages.untouched(control), "the kernel wrote pages back on its own");
            assertEquals(dirty, after, "still dirty: written by the next sync");
            ByteBuffer back = ByteBuffer.allocate(data.length);
            ch.read(back, 0);
            assertArrayEquals(data, back.array());
            assertArrayEquals(data, m.toArray(ValueLayout.JAVA_BYTE), "the mapping faults them in again");
            m.set(ValueLayout.JAVA_BYTE, 5, (byte) 1);
            data[5] = 1;
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }
}
