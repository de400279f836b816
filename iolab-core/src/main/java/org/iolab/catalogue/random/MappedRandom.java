package org.iolab.catalogue.random;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.RandomAccessMethod;
import org.iolab.checksum.Checksum64;

/**
 * Absolute {@code get(index, byte[])} from a read-only {@code MappedByteBuffer}. A buffer is int-indexed, so
 * the file is mapped in windows of at most 1 GiB, each starting at the first offset it serves; as the
 * offsets ascend a new window is mapped only when an offset's bytes fall outside the current one.
 */
final class MappedRandom implements RandomAccessMethod {
    private static final MethodInfo INFO = new MethodInfo("mapped-random", Kind.RANDOM_ACCESS,
            "MappedByteBuffer.get(index, byte[])",
            "maps the file read-only in windows of up to 1 GiB and copies the bytes at each offset out",
            Article.MODERN, false);

    /** Largest window mapped at once. */
    static final long WINDOW = 1L << 30;

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long probe(Path file, long[] positions, int length) throws IOException {
        if (length > WINDOW) {
            throw new IllegalArgumentException("length " + length + " exceeds the 1 GiB mapping window");
        }
        Checksum64 sum = new Checksum64();
        byte[] buf = new byte[length];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            MappedByteBuffer window = null;
            long start = 0;
            for (long p : positions) {
                if (window == null || p < start || p + length > start + window.capacity()) {
                    if (p + length > size) {
                        throw new IllegalArgumentException("offset " + p + " + " + length
                                + " lies past the end of " + file + " (" + size + " bytes)");
                    }
                    start = p;
                    window = ch.map(FileChannel.MapMode.READ_ONLY, start, Math.min(WINDOW, size - start));
                }
                window.get((int) (p - start), buf, 0, length);
                sum.update(buf, 0, length);
            }
        }
        return sum.value();
    }
}
