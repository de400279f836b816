package org.iolab.catalogue.read;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * {@code FileChannel.map(READ_ONLY, 0, size, Arena)}: one {@link MemorySegment} over the whole file, with no
 * 2 GiB limit, checksummed in a single pass of 8-byte little-endian loads. The buffer size is not used: there
 * is no copy to size. The mapping is released deterministically when the confined arena closes, not by
 * the garbage collector.
 */
final class SegmentMapped implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("segment-mapped", Kind.READ,
            "FileChannel.map(READ_ONLY, Arena) MemorySegment",
            "maps the whole file as one MemorySegment (no 2 GiB limit), checksums it in one pass"
                    + " and unmaps it when the arena closes",
            Article.MODERN, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             Arena arena = Arena.ofConfined()) {
            long size = ch.size();
            MemorySegment segment = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            sum.update(segment, 0, segment.byteSize());
        }
        return sum.value();
    }
}
