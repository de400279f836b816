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
 * {@code FileChannel.map(READ_ONLY)} and {@code MappedByteBuffer.get(byte[])} into an array of the buffer
 * size, which is checksummed. Files over 2 GiB - 1 bytes are mapped in windows of 1 GiB; the mappings are
 * released when the buffers are garbage collected.
 */
final class MappedArray implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("mapped-array", Kind.READ,
            "MappedByteBuffer.get(byte[])",
            "maps the file read-only (windows of 1 GiB for files over 2 GiB) and copies it into a byte[]"
                    + " of the buffer size with get(byte[])",
            Article.NADEAU, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        byte[] array = new byte[bufferSize];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long window = size <= Integer.MAX_VALUE ? Math.max(size, 1) : MappedByte.WINDOW;
            for (long p = 0; p < size; p += window) {
                MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, p, Math.min(window, size - p));
                while (map.hasRemaining()) {
                    int n = Math.min(bufferSize, map.remaining());
                    map.get(array, 0, n);
                    sum.update(array, 0, n);
                }
            }
        }
        return sum.value();
    }
}
