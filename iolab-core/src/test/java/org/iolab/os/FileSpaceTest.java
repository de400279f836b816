package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSpaceTest {
    @TempDir
    Path dir;

    @Test
    void fallocateReservesBlocksThatReadAsZeros() throws IOException, InterruptedException {
        Path f = dir.resolve("f");
        FileSpace.fallocate(f, 8L << 20);
        assertEquals(8L << 20, Files.size(f));
        Process stat = new ProcessBuilder("stat", "-c", "%b %B", f.toString()).start();
        String[] out = new String(stat.getInputStream().readAllBytes()).trim().split(" ");
        assertEquals(0, stat.waitFor());
        long allocated = Long.parseLong(out[0]) * Long.parseLong(out[1]);
        assertTrue(allocated >= 8L << 20, "allocated bytes " + allocated);
        byte[] bytes = Files.readAllBytes(f);
        for (byte b : bytes) {
            if (b != 0) {
                throw new AssertionError("fallocated range must read as zeros");
            }
        }
    }

    /**
     * A fallocate larger than the free space fails, and what ext4 allocated before it ran out is given back: a
     * review's 1 TiB segment reported "0 B free" with 54 GB free (without the give-back this test's file kept every
     * free block of the device), and a smaller reservation after it found no room. On a 64 MiB ext4 image mounted
     * for the test (root only: skipped elsewhere), so the machine's own disk is never filled.
     */
    @Test
    void aFallocateThatDoesNotFitGivesItsBlocksBack() throws Exception {
        Path mnt = SmallExt4.mount(dir, 64);
        try {
            long free = FileSpace.usableSpace(mnt);
            Path f = mnt.resolve("big");
            NoSpaceException e = assertThrows(NoSpaceException.class, () -> FileSpace.fallocate(f, free + (8L << 20)));
            assertTrue(!Files.exists(f) || Files.size(f) == 0, "grew to " + (Files.exists(f) ? Files.size(f) : -1));
            long after = FileSpace.usableSpace(mnt);
            assertTrue(after > free - (1L << 20), "free before " + free + ", after " + after + ": " + e.getMessage());
            Path existing = Files.write(mnt.resolve("existing"), new byte[4096]);
            assertThrows(NoSpaceException.class, () -> FileSpace.reserve(existing, 4096, free + (8L << 20)));
            assertEquals(4096, Files.size(existing), "a failed reservation leaves the file as it was");
            assertTrue(FileSpace.usableSpace(mnt) > free - (1L << 20));
            FileSpace.reserve(existing, 4096, free / 2); // what fits still does
        } finally {
            SmallExt4.unmount(mnt);
        }
    }

    /**
     * A zero fill larger than the free space is refused before it writes: a review's {@code journal append
     * --segment-size 1t --preallocation zero-fill} wrote 36 GiB of zeros in a minute, where fallocate refuses at once
     * (on a 16 MiB ext4 image, root only: before the check the fill ran into ENOSPC and left its file).
     */
    @Test
    void aZeroFillThatDoesNotFitIsRefusedBeforeItWrites() throws Exception {
        Path mnt = SmallExt4.mount(dir, 16);
        try {
            long free = FileSpace.usableSpace(mnt);
            Path f = mnt.resolve("segment");
            NoSpaceException e = assertThrows(NoSpaceException.class,
                    () -> org.iolab.catalogue.Preallocation.ZERO_FILL.prepare(f, free + (4L << 20)));
            assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("free on its device"),
                    e.getMessage());
            assertTrue(!Files.exists(f), "left " + (Files.exists(f) ? Files.size(f) : -1) + " bytes");
            org.iolab.catalogue.Preallocation.ZERO_FILL.prepare(f, free / 2); // what fits still does
            assertEquals(free / 2, Files.size(f));
        } finally {
            SmallExt4.unmount(mnt);
        }
    }

    @Test
    void requireFreeNamesTheFolderAndTheNeed() {
        long tooMuch = FileSpace.usableSpace(dir) * 2;
        IolabException e = assertThrows(IolabException.class,
                () -> FileSpace.requireFree(dir, tooMuch, "benchmark files"));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("benchmark files"),
                e.getMessage());
        FileSpace.requireFree(dir, 1 << 20, "a small file");
    }

    @Test
    void fallocateOnAMissingFolderFailsWithTheFileName() {
        Path f = dir.resolve("missing/f");
        IolabException e = assertThrows(IolabException.class, () -> FileSpace.fallocate(f, 4096));
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("No such file"),
                e.getMessage());
    }
}
