package org.iolab.catalogue.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.WriteMethod;
import org.iolab.content.Content;

/** {@code FileChannel.write(ByteBuffer)} from a direct buffer: no copy to a temporary native buffer. */
final class ChannelDirectWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("channel-direct-write", Kind.WRITE,
            "FileChannel.write(direct ByteBuffer)",
            "fills a direct ByteBuffer of the buffer size and writes it; the kernel copies straight from it",
            Article.THOMPSON, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException {
        MethodChecks.checkWrite(info().id(), size, bufferSize);
        ByteBuffer buf = ByteBuffer.allocateDirect(bufferSize);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long p = 0;
            while (p < size) {
                buf.clear().limit((int) Math.min(bufferSize, size - p));
                content.fill(p, buf);
                buf.flip();
                while (buf.hasRemaining()) {
                    p += ch.write(buf);
                }
            }
            ch.truncate(size);
            if (sync) {
                ch.force(false);
            }
        }
    }
}
