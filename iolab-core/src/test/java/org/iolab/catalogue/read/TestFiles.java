package org.iolab.catalogue.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.content.Content;

/** Writes test files of {@link Content#DEFAULT}. */
final class TestFiles {
    private TestFiles() {
    }

    /**
     * Writes {@code size} bytes of the default content to {@code file}, replacing it.
     *
     * @param file the file
     * @param size its size
     * @param chunk the direct buffer size to write with
     * @return {@code file}
     * @throws IOException when it cannot be written
     */
    static Path write(Path file, long size, int chunk) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(chunk);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long p = 0;
            while (p < size) {
                buf.clear().limit((int) Math.min(chunk, size - p));
                Content.DEFAULT.fill(p, buf);
                buf.flip();
                while (buf.hasRemaining()) {
                    p += ch.write(buf);
                }
            }
        }
        return file;
    }
}
