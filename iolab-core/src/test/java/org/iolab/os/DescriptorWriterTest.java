package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.iolab.IolabException;
import org.iolab.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class DescriptorWriterTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final SmallDisk.PerTest disk = new SmallDisk.PerTest();

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void writesHeapDirectReadOnlyAndMappedSourcesAtTheirPositionsAndLeavesThemUnmoved() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        byte[] a = random(5000, 1);
        byte[] b = random(70_000, 2);
        byte[] c = random(333, 3);
        byte[] d = random(4096, 4);
        try (DescriptorWriter w = new DescriptorWriter(file); Arena arena = Arena.ofConfined()) {
            ByteBuffer heap = ByteBuffer.wrap(a, 100, 4000);
            w.write(10, heap);
            assertEquals(100, heap.position(), "the source's position is left where it was");
            ByteBuffer direct = ByteBuffer.allocateDirect(b.length).put(b).flip();
            w.write(4010, direct);
            assertEquals(0, direct.position());
            w.write(74_010, ByteBuffer.wrap(c).asReadOnlyBuffer());
            MemorySegment native_ = arena.allocate(d.length);
            MemorySegment.copy(d, 0, native_, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, d.length);
            w.write(80_000, native_.asByteBuffer());
            w.write(90_000, ByteBuffer.allocate(0));
        }
        byte[] got = Files.readAllBytes(file);
        assertEquals(84_096, got.length, "the file grows to the last byte written; an empty write adds nothing");
        assertArrayEquals(new byte[10], Arrays.copyOfRange(got, 0, 10), "the gap before the first write reads zero");
        assertArrayEquals(Arrays.copyOfRange(a, 100, 4100), Arrays.copyOfRange(got, 10, 4010));
        assertArrayEquals(b, Arrays.copyOfRange(got, 4010, 74_010));
        assertArrayEquals(c, Arrays.copyOfRange(got, 74_010, 74_343));
        assertArrayEquals(d, Arrays.copyOfRange(got, 80_000, 84_096));
    }

    @Test
    void aWriteLargerThanOneCallIsWrittenWholeFromHeapAndFromDirectMemory() throws IOException {
        Path file = Files.createFile(dir.resolve("big"));
        int n = 2 * DescriptorWriter.CHUNK + 12_345;
        byte[] data = random(n, 5);
        try (DescriptorWriter w = new DescriptorWriter(file)) {
            w.write(0, ByteBuffer.wrap(data));
            w.write(n, ByteBuffer.allocateDirect(n).put(data).flip());
        }
        byte[] got = Files.readAllBytes(file);
        assertEquals(2L * n, got.length);
        assertArrayEquals(data, Arrays.copyOfRange(got, 0, n));
        assertArrayEquals(data, Arrays.copyOfRange(got, n, 2 * n));
    }

    @Test
    void anInterruptedWriterStillWritesAndStaysOpen() throws IOException {
        Path file = Files.createFile(dir.resolve("i"));
        try (DescriptorWriter w = new DescriptorWriter(file)) {
            Thread.currentThread().interrupt();
            try {
                w.write(0, ByteBuffer.wrap(new byte[] {1, 2, 3}));
                w.write(3, ByteBuffer.wrap(new byte[] {4}));
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt is left for the caller");
            }
        }
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Files.readAllBytes(file));
    }

    @Test
    void aMissingFileIsNamedAndAClosedWriterRefuses() throws IOException {
        Path missing = dir.resolve("missing");
        DescriptorWriter w = new DescriptorWriter(missing);
        IolabException e = assertThrows(IolabException.class, () -> w.write(0, ByteBuffer.wrap(new byte[1])));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        assertTrue(Files.notExists(missing), "nothing is created");
        w.close();
        assertThrows(ClosedChannelException.class, () -> w.write(0, ByteBuffer.wrap(new byte[1])));
        w.close();
    }

    @Test
    void aFullDiskIsTheSystemsReasonAndTheBytesBeforeItStayWritten() throws IOException {
        Path file = Files.createFile(disk.path().resolve("full"));
        byte[] data = random(DescriptorWriter.CHUNK, 6);
        long written = 0;
        try (DescriptorWriter w = new DescriptorWriter(file)) {
            IOException e = assertThrows(IOException.class, () -> {
                for (long at = 0; at < 8L * DescriptorWriter.CHUNK; at += data.length) {
                    w.write(at, ByteBuffer.wrap(data));
                }
            });
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            written = Files.size(file);
        }
        assertTrue(written >= DescriptorWriter.CHUNK, written + " bytes written before the disk filled");
        byte[] got = Files.readAllBytes(file);
        assertArrayEquals(data, Arrays.copyOfRange(got, 0, data.length), "the first write reads back whole");
    }
}
