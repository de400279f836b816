package org.iolab.catalogue.random;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.RandomAccessMethod;
import org.iolab.checksum.Checksum64;

/**
 * {@code MemorySegment.copy} out of one long-indexed read-only mapping of the whole file, made in a confined
 * {@code Arena} and unmapped when it closes.
 */
final class SegmentRandom implements RandomAccessMethod {
    private static final MethodInfo INFO = new MethodInfo("segment-random", Kind.RANDOM_ACCESS,
            "MemorySegment mapping, MemorySegment.copy",
            "maps the whole file as one read-only MemorySegment and copies the bytes at each offset out",
            Article.MODERN, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long probe(Path file, long[] positions, int length) throws IOException {
        Checksum64 sum = new Checksum64();
        if (positions.length == 0) {
            return sum.value();
        }
        byte[] buf = new byte[length];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             Arena arena = Arena.ofConfined()) {
            MemorySegment segment = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            for (long p : positions) {
                MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, p, buf, 0, length);
                sum.update(buf, 0, length);
            }
        }
        return sum.value();
    }
}
