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
import org.iolab.os.DirectIo;

/**
 * {@code FileChannel} opened with {@code ExtendedOpenOption.DIRECT} ({@code O_DIRECT}): writes bypass the
 * page cache. Every write's buffer address, file position and length are multiples of the filesystem block
 * size, so the buffer size is rounded up to a multiple of it and the last partial block is written padded,
 * then the file is truncated to its size through an ordinary channel.
 */
final class DirectIoWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("odirect-write", Kind.WRITE,
            "FileChannel(ExtendedOpenOption.DIRECT).write",
            "writes block-aligned direct buffers (buffer size rounded up to the block size) past the page cache",
            Article.MODERN, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException {
        MethodChecks.checkWrite(info().id(), size, bufferSize);
        try (FileChannel plain = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            int block = DirectIo.blockSize(file);
            int n = DirectIo.roundUp(bufferSize, block);
            ByteBuffer buf = ByteBuffer.allocateDirect(n + block).alignedSlice(block);
            try (FileChannel ch = DirectIo.open(file, StandardOpenOption.WRITE)) {
                long p = 0;
                while (p < size) {
                    int len = (int) Math.min(n, size - p);
                    int padded = (len + block - 1) / block * block;
                    buf.clear().limit(len);
                    content.fill(p, buf);
                    buf.limit(padded);
                    while (buf.hasRemaining()) { // pads the last partial block
                        buf.put((byte) 0);
                    }
                    buf.flip();
                    long at = p;
                    while (buf.hasRemaining()) {
                        at += ch.write(buf, at);
                    }
                    p += len;
                }
                if (sync) {
                    ch.force(false);
                }
            }
            plain.truncate(size);
            if (sync) {
                plain.force(false);
            }
        }
    }
}
