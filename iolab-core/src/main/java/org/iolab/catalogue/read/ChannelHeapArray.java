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

/** {@code FileChannel.read} into a heap {@code ByteBuffer}, then {@code get(byte[])} into an array that is checksummed. */
final class ChannelHeapArray implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("channel-heap-array", Kind.READ,
            "FileChannel.read(heap ByteBuffer) + get(byte[])",
            "reads into a heap ByteBuffer of the buffer size, copies it into a byte[] with get(byte[]) and checksums the array",
            Article.NADEAU, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        ByteBuffer buf = ByteBuffer.allocate(bufferSize);
        byte[] array = new byte[bufferSize];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                buf.flip();
                int n = buf.remaining();
                buf.get(array, 0, n);
                sum.update(array, 0, n);
                buf.clear();
            }
        }
        return sum.value();
    }
}
