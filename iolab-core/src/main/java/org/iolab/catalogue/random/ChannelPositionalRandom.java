package org.iolab.catalogue.random;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.RandomAccessMethod;
import org.iolab.checksum.Checksum64;

/** {@code FileChannel.read(ByteBuffer, position)}: one {@code pread(2)} per offset, no seek, one direct buffer. */
final class ChannelPositionalRandom implements RandomAccessMethod {
    private static final MethodInfo INFO = new MethodInfo("channel-positional-random", Kind.RANDOM_ACCESS,
            "FileChannel.read(ByteBuffer, position)",
            "reads each offset with a positional read (pread) into one reused direct ByteBuffer",
            Article.MODERN, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long probe(Path file, long[] positions, int length) throws IOException {
        Checksum64 sum = new Checksum64();
        ByteBuffer buf = ByteBuffer.allocateDirect(length);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (long p : positions) {
                buf.clear();
                while (buf.hasRemaining()) {
                    if (ch.read(buf, p + buf.position()) < 0) {
                        throw new EOFException(file + " ends at " + (p + buf.position()) + ", before "
                                + length + " bytes could be read at offset " + p);
                    }
                }
                buf.flip();
                sum.update(buf);
            }
        }
        return sum.value();
    }
}
