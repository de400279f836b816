package org.iolab.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.checksum.Checksum64;
import org.iolab.content.Content;
import org.iolab.os.FileSpace;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mapping methods on a file over 2 GiB, where a {@code MappedByteBuffer} needs several windows and an
 * int offset would overflow: writes land in the right place and probes across window edges read the right
 * bytes. Tagged slow: it writes and reads back the file twice.
 */
@Tag("slow")
class LargeFileMappingTest {
    private static final long GIB = 1L << 30;
    private static final long SIZE = 2 * GIB + 3 * 4096 + 7;

    @TempDir
    Path dir;

    @Test
    void mappedWritesAndProbesPastTwoGiB() throws IOException {
        FileSpace.requireFree(dir, SIZE, "the >2 GiB mapping test");
        Path file = dir.resolve("large.dat");
        for (String writer : new String[] {"mapped-write", "segment-mapped-write"}) {
            Preallocation.NONE.prepare(file, SIZE);
            Catalogue.write(writer).write(file, SIZE, 1 << 16, Content.DEFAULT, false);
            assertEquals(SIZE, Files.size(file), writer + ": file size");
            assertEquals(Content.DEFAULT.checksum(SIZE), checksum(file), writer + ": checksum");
        }
        int length = 4096;
        // ascending, non-overlapping, straddling the 1 GiB and 2 GiB marks and ending at the last byte
        long[] positions = {0, GIB - 10, GIB + 4096, 2 * GIB - 2048, 2 * GIB + 2049, SIZE - length};
        for (RandomAccessMethod m : Catalogue.randomAccess()) {
            assertEquals(Content.DEFAULT.checksumAt(positions, length), m.probe(file, positions, length),
                    m.info().id());
        }
        Files.delete(file);
    }

    private static long checksum(Path file) throws IOException {
        Checksum64 sum = new Checksum64();
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf.clear()) >= 0) {
                sum.update(buf.flip());
            }
        }
        return sum.value();
    }
}
