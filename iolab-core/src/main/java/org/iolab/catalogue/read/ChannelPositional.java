package org.iolab.catalogue.read;

import java.io.IOException;
import java.nio.ByteBuffer;
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
 * {@code FileChannel.read(ByteBuffer, long)} into a direct buffer of the buffer size: positional reads
 * ({@code pread(2)}) at an offset the caller tracks, never moving the channel's own position, so several
 * threads could share the channel.
 */
final class ChannelPositional implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("channel-positional", Kind.READ,
            "FileChannel.read(direct ByteBuffer, position)",
            "reads into a direct ByteBuffer of the buffer size with positional reads (pread(2)),"
                    + " never moving the channel position",
            Article.MODERN, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        ByteBuffer buf = ByteBuffer.allocateDirect(bufferSize);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long position = 0;
            int n;
            while ((n = ch.read(buf, position)) >= 0) {
                position += n;
                buf.flip();
                sum.update(buf);
                buf.clear();
            }
        }
        return sum.value();
    }
}
