package org.iolab.catalogue.write;

import java.io.IOException;
import java.nio.MappedByteBuffer;
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
 * Thompson's memory-mapped write: {@code FileChannel.map(READ_WRITE)} windows of at most 1 GiB (a
 * {@code MappedByteBuffer} is int-indexed), filled in place. Mapping past the end grows the file to its size.
 *
 * <p>The content is generated straight into the mapping, so there is no intermediate array and the buffer
 * size does not apply. The windows are unmapped when the garbage collector frees them.
 */
final class MappedWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("mapped-write", Kind.WRITE,
            "FileChannel.map(READ_WRITE) MappedByteBuffer",
            "maps the file in windows of up to 1 GiB and fills each mapping in place; sync forces each window",
            Article.THOMPSON, false);

    /** Largest window mapped at once. */
    static final long WINDOW = 1L << 30;

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
            for (long p = 0; p < size; ) {
                long n = Math.min(WINDOW, size - p);
                MappedByteBuffer window = ch.map(FileChannel.MapMode.READ_WRITE, p, n);
                content.fill(p, window);
                if (sync) {
                    window.force();
                }
                p += n;
            }
        }
    }
}
