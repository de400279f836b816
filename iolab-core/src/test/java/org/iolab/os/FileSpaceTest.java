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
