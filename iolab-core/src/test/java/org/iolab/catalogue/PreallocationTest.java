package org.iolab.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What each {@link Preallocation} leaves on disk before a write. */
class PreallocationTest {
    private static final long SIZE = (1 << 20) + 123;

    @TempDir
    Path dir;

    @Test
    void noneCreatesAnEmptyFile() throws IOException {
        Path file = dir.resolve("none.dat");
        Preallocation.NONE.prepare(file, SIZE);
        assertEquals(0, Files.size(file));
    }

    @Test
    void zeroFillWritesZeros() throws IOException {
        Path file = dir.resolve("zero.dat");
        Preallocation.ZERO_FILL.prepare(file, SIZE);
        assertZeros(file, SIZE);
        assertTrue(allocatedBytes(file) >= SIZE, "zero-filled blocks are allocated");
    }

    @Test
    void fallocateReservesBlocksThatReadAsZeros() throws IOException {
        Path file = dir.resolve("fallocate.dat");
        Preallocation.FALLOCATE.prepare(file, SIZE);
        assertZeros(file, SIZE);
        long allocated = allocatedBytes(file);
        assertTrue(allocated >= SIZE, "fallocate allocated only " + allocated + " of " + SIZE + " bytes");
    }

    @ParameterizedTest
    @EnumSource(Preallocation.class)
    void zeroSize(Preallocation pre) throws IOException {
        Path file = dir.resolve(pre + "-empty.dat");
        pre.prepare(file, 0);
        assertEquals(0, Files.size(file));
    }

    @ParameterizedTest
    @EnumSource(Preallocation.class)
    void replacesAnExistingFile(Preallocation pre) throws IOException {
        Path file = dir.resolve(pre + ".dat");
        byte[] old = new byte[(int) SIZE * 2];
        new Random(1).nextBytes(old);
        Files.write(file, old);
        pre.prepare(file, SIZE);
        if (pre == Preallocation.NONE) {
            assertEquals(0, Files.size(file));
        } else {
            assertZeros(file, SIZE);
        }
    }

    private static void assertZeros(Path file, long size) throws IOException {
        assertEquals(size, Files.size(file), "file size");
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                throw new AssertionError("byte " + i + " is " + bytes[i] + ", not 0");
            }
        }
    }

    /** {@code stat -c %b} (512-byte blocks allocated), as {@code du} counts them. */
    private static long allocatedBytes(Path file) throws IOException {
        Process stat = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        String out = new String(stat.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            assertEquals(0, stat.waitFor(), "stat failed: " + out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for stat", e);
        }
        return Long.parseLong(out) * 512;
    }
}
