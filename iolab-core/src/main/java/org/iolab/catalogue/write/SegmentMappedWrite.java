package org.iolab.catalogue.write;

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
import org.iolab.catalogue.WriteMethod;
import org.iolab.content.Content;

/**
 * {@code FileChannel.map(READ_WRITE, 0, size, arena)}: one long-indexed {@code MemorySegment} over the whole
 * file, filled in place, unmapped deterministically when the confined arena closes.
 *
 * <p>The content is generated straight into the mapping, so the buffer size does not apply.
 */
final class SegmentMappedWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("segment-mapped-write", Kind.WRITE,
            "FileChannel.map(READ_WRITE, arena) MemorySegment",
            "maps the whole file as one MemorySegment in a confined Arena and fills it in place; closing unmaps",
            Article.MODERN, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException {
        MethodChecks.checkWrite(info().id(), size, bufferSize);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            // only shortens a longer file; [0, size) is overwritten in place through the mapping
            ch.truncate(size);
            if (size == 0) {
                return;
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment segment = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
                content.fill(0, segment, 0, size);
                if (sync) {
                    segment.force();
                }
            }
        }
    }
}
