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

/** {@code FileChannel.read} into {@code ByteBuffer.wrap(byte[])}; the backing array is checksummed with no copy. */
final class ChannelWrapped implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("channel-wrapped", Kind.READ,
            "FileChannel.read(ByteBuffer.wrap(byte[]))",
            "reads into a ByteBuffer wrapping a byte[] of the buffer size and checksums the backing array directly",
            Article.NADEAU, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        byte[] array = new byte[bufferSize];
        ByteBuffer buf = ByteBuffer.wrap(array);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                buf.flip();
                sum.update(array, 0, buf.limit());
                buf.clear();
            }
        }
        return sum.value();
    }
}
