package org.iolab.catalogue.read;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/**
 * {@code FileChannel.map(READ_ONLY)} and {@code MappedByteBuffer.get()} one byte at a time. A
 * {@code MappedByteBuffer} holds at most 2 GiB - 1 bytes, so larger files are mapped in windows of
 * {@link #WINDOW} bytes; the mappings are released when the buffers are garbage collected.
 */
final class MappedByte implements ReadMethod {
    /** The largest region mapped at once for files over 2 GiB - 1 bytes: 1 GiB. */
    static final long WINDOW = 1L << 30;

    private static final MethodInfo INFO = new MethodInfo("mapped-byte", Kind.READ,
            "MappedByteBuffer.get()",
            "maps the file read-only (windows of 1 GiB for files over 2 GiB) and calls get() per byte",
            Article.NADEAU, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long window = size <= Integer.MAX_VALUE ? Math.max(size, 1) : WINDOW;
            for (long p = 0; p < size; p += window) {
                MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, p, Math.min(window, size - p));
                while (map.hasRemaining()) {
                    sum.update(map.get());
                }
            }
        }
        return sum.value();
    }
}
