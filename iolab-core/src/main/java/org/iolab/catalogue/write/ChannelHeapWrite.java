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

/** {@code FileChannel.write(ByteBuffer)} from a heap buffer (the JDK copies it to a native buffer). */
final class ChannelHeapWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("channel-heap-write", Kind.WRITE,
            "FileChannel.write(heap ByteBuffer)",
            "fills a heap ByteBuffer of the buffer size and writes it; the JDK copies it to a temporary direct buffer",
            Article.THOMPSON, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException {
        MethodChecks.checkWrite(info().id(), size, bufferSize);
        ByteBuffer buf = ByteBuffer.allocate(bufferSize);
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
