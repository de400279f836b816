package org.iolab.catalogue.read;

import java.io.IOException;
import java.lang.foreign.Arena;
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
import org.iolab.os.DirectIo;

/**
 * {@code FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)}: {@code O_DIRECT} reads that bypass the
 * page cache, into a direct buffer aligned to the file store's block size. O_DIRECT needs the buffer
 * address, its size and every file offset to be multiples of the block size, so the buffer size is rounded
 * up to a multiple of the block size; the last read at the end of the file returns a short count.
 */
final class ODirect implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("odirect", Kind.READ,
            "FileChannel.read with ExtendedOpenOption.DIRECT",
            "O_DIRECT reads bypassing the page cache into a block-aligned direct buffer of the buffer size"
                    + " rounded up to a multiple of the file system block size",
            Article.MODERN, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        int align = DirectIo.blockSize(file);
        int size = DirectIo.roundUp(bufferSize, align);
        try (Arena arena = Arena.ofConfined();
             FileChannel ch = DirectIo.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = arena.allocate(size, align).asByteBuffer();
            long fileSize = ch.size();
            long done = 0;
            while (done < fileSize) {
                int n = read(ch, buf, file);
                if (n < 0) {
                    break;
                }
                done += n;
                buf.flip();
                sum.update(buf);
                buf.clear();
            }
        }
        return sum.value();
    }

    private static int read(FileChannel ch, ByteBuffer buf, Path file) throws IOException {
        try {
            return ch.read(buf);
        } catch (IOException e) {
            if (DirectIo.isInvalidArgument(e)) {
                throw DirectIo.unsupported(file, e);
            }
            throw e;
        }
    }
}
