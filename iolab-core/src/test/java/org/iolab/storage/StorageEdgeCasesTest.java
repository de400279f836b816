package org.iolab.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.os.NoSpaceException;
import org.iolab.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Edges where the backends used to differ or fail badly: a full disk, lent buffers past the file's end, a failed
 * remap, empty writes past the end, reads of the zero tail. Each case failed before its fix for the backends its
 * comment names; the other backends run it too, as they must behave the same.
 */
class StorageEdgeCasesTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final SmallDisk.PerTest disk = new SmallDisk.PerTest();

    /** Fills the small disk with a file of its own until the device refuses. */
    private static void fill(Path dir) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("filler").toFile(), "rw")) {
            byte[] b = new byte[64 << 10];
            try {
                while (true) {
                    raf.write(b);
                }
            } catch (java.io.IOException full) {
                // the disk is full
            }
        }
    }

    /**
     * a mapped backend opened on an existing file with a hole (grown by ftruncate: another backend's truncate,
     * a sparse copy of the file, a file system without fallocate) stores into the hole through the mapping; on a
     * full disk that is SIGBUS, which surfaces as InternalError instead of NoSpaceException.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"MAPPED", "SEGMENT"})
    void aWriteIntoAHoleOfAnExistingFileOnAFullDiskIsNoSpaceNotInternalError(Backend backend) throws Exception {
        Path p = disk.path().resolve("store");
        try (StorageFile f = Backend.CHANNEL_HEAP.open(p, true)) {
            f.truncate(2L << 20); // sparse: no block allocated
        }
        fill(disk.path());
        Throwable t = assertThrows(Throwable.class, () -> {
            try (StorageFile f = backend.open(p, true)) {
                f.write(0, ByteBuffer.allocate(1 << 20));
            }
        });
        assertInstanceOf(NoSpaceException.class, t, "got " + t); // from the open or from the write
    }

    /**
     * MAPPED lends a writer its first window; the writer's close trims the zero tail under it, and the buffer,
     * promised to "stay valid memory for as long as it is referenced, even after close()", faults (SIGBUS).
     */
    @Test
    void aBufferLentByAWritableMappedFileStaysReadableAfterClose() {
        Path p = dir.resolve("lent");
        ByteBuffer lent;
        try (StorageFile f = Backend.MAPPED.open(p, true)) {
            f.write(0, ByteBuffer.allocate(100));
            lent = f.mappedBuffer();
        }
        for (int i = 0; i < lent.capacity(); i += 4096) {
            try {
                lent.get(i);
            } catch (InternalError e) {
                fail("byte " + i + " of a lent buffer of capacity " + lent.capacity() + " over a file now "
                        + p.toFile().length() + " bytes long: " + e);
            }
        }
    }

    /**
     * a reader opened while the writer's file was long asks for the lent buffer after the writer cut the tail
     * (a segment sealed under a tailer). SEGMENT stops the buffer at the file's end (tested); MAPPED lends its window
     * as mapped at open, whose pages past the new end fault.
     */
    @Test
    void aMappedReaderLendsNoPagesPastTheFilesEndAfterACut() throws Exception {
        Path cut = dir.resolve("lend-cut");
        try (StorageFile w = Backend.MAPPED.open(cut, true)) {
            w.write(0, BackendContractTest.patterned(0, 50_000, false));
        }
        try (StorageFile r = Backend.MAPPED.open(cut, false)) {
            try (RandomAccessFile raf = new RandomAccessFile(cut.toFile(), "rw")) {
                raf.setLength(20_000);
            }
            ByteBuffer lent = r.mappedBuffer();
            assertEquals(20_000, lent.capacity(), "as SEGMENT does: no further than the file's end");
        }
    }

    /**
     * SEGMENT's remap closes the old arena before it maps the new length; when the map failed (the writer was
     * interrupted, which closed the FileChannel) the file was left with no mapping but its old size, and a reader
     * of bytes written long before got a NullPointerException instead of the bytes or an IolabException. Since the
     * channel opens the file again after an interrupt ({@link ReopeningChannel}), the remap goes through.
     */
    @Test
    void anInterruptedRemapLeavesReadersTheirBytes() {
        Path p = dir.resolve("seg");
        try (StorageFile f = Backend.SEGMENT.open(p, true)) {
            f.write(0, BackendContractTest.patterned(0, 100, false));
            Thread.currentThread().interrupt();
            try {
                f.write(2L << 20, ByteBuffer.allocate(10));
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept");
            }
            try {
                BackendContractTest.assertPattern(f, 0, 100, false);
            } catch (NullPointerException e) {
                fail("a reader of written bytes after an interrupted remap: " + e);
            }
            assertEquals((2L << 20) + 10, f.size());
        }
    }

    /**
     * a zero-length write past the end is a no-op for the copying backends; the mapped ones move the logical
     * size (and the file's length on close) to its position.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aZeroLengthWritePastTheEndChangesNothing(Backend backend) throws Exception {
        Path p = dir.resolve("z");
        try (StorageFile f = backend.open(p, true)) {
            f.write(0, ByteBuffer.allocate(10));
            f.write(5000, ByteBuffer.allocate(0));
            assertEquals(10, f.size(), "size after an empty write at 5000");
        }
        assertEquals(10, Files.size(p));
    }

    /**
     * readPresent on a writable mapped file reads through the descriptor up to the preallocated length, so it
     * hands out the zero tail past size() where every other backend returns 0 ("0 at or past the file's end").
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void readPresentStopsAtTheLogicalSize(Backend backend) {
        Path p = dir.resolve("rp");
        try (StorageFile f = backend.open(p, true)) {
            f.write(0, BackendContractTest.patterned(0, 1000, false));
            assertEquals(0, f.readPresent(1000, ByteBuffer.allocate(100)), "at the end");
            assertEquals(10, f.readPresent(990, ByteBuffer.allocate(100)), "straddling the end");
        }
    }

    /**
     * disk full through the copying backends is a plain IolabException (not NoSpaceException), and the part
     * of the write that fitted stays, growing the file, where the mapped backends leave the old end.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"RANDOM_ACCESS_FILE", "CHANNEL_HEAP", "CHANNEL_DIRECT"})
    void aFullDiskIsNoSpaceExceptionForTheCopyingBackends(Backend backend) {
        Path p = disk.path().resolve("f");
        try (StorageFile f = backend.open(p, true)) {
            long at = 0;
            Throwable t = null;
            for (int i = 0; i < 100 && t == null; i++) {
                try {
                    f.write(at, ByteBuffer.allocate(100_000));
                    at += 100_000;
                } catch (Throwable e) {
                    t = e;
                }
            }
            assertInstanceOf(NoSpaceException.class, t, "got " + t);
            assertTrue(t.getMessage().contains(p.toString()) && t.getMessage().contains("offset " + at),
                    t.getMessage());
        }
    }
}
