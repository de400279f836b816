package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

class WriteBehindTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void startsTheWriteBackOfTheRangeAskedForAndOnlyOfIt() throws Exception {
        Path control = DirtyPages.control(dir);
        Path file = dir.resolve("f");
        byte[] data = new byte[8 * MIB];
        new Random(3).nextBytes(data);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                WriteBehind behind = new WriteBehind(file)) {
            ch.write(ByteBuffer.wrap(data), 0);
            long dirty = DirtyPages.count(file, 0, data.length);
            Assumptions.assumeTrue(dirty == data.length / 4096,
                    "needs cachestat and no write-back yet of a file just written: " + dirty + " dirty pages");
            behind.start(0, 4 * MIB);
            assertEquals(0, DirtyPages.awaitClean(file, 0, 4 * MIB, 20_000), "the range asked for is written back");
            Assumptions.assumeTrue(DirtyPages.untouched(control), "the kernel wrote pages back on its own");
            assertTrue(DirtyPages.count(file, 4 * MIB, 4 * MIB) > 0, "the rest waits for the kernel's own write-back");
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @Test
    void aFileItCannotOpenTurnsItOffWithoutAnError() {
        try (WriteBehind behind = new WriteBehind(dir.resolve("missing"))) {
            behind.start(0, MIB);
            behind.start(MIB, MIB);
            behind.start(0, 0);
        }
    }
}
