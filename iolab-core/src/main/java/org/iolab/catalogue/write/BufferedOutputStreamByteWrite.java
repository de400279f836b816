package org.iolab.catalogue.write;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.WriteMethod;
import org.iolab.content.Content;

/**
 * Thompson's {@code BufferedOutputStream.write(int)}: one method call per byte, the stream's buffer of the
 * buffer size batching them into {@code write(2)} calls.
 *
 * <p>The {@code FileOutputStream} wraps the descriptor of a {@code RandomAccessFile} opened "rw", so the file
 * is not truncated on open and a preallocated file is overwritten in place (the
 * {@code FileOutputStream(File)} constructor would truncate it and throw the preallocation away).
 */
final class BufferedOutputStreamByteWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("bos-byte-write", Kind.WRITE,
            "BufferedOutputStream.write(int)",
            "writes one byte per call into a BufferedOutputStream of the buffer size over a FileOutputStream",
            Article.THOMPSON, true);

    /** Bytes of content produced at a time; independent of the stream's buffer size. */
    private static final int CHUNK = 64 << 10;

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException {
        MethodChecks.checkWrite(info().id(), size, bufferSize);
        byte[] chunk = new byte[(int) Math.min(CHUNK, Math.max(1, size))];
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
             FileOutputStream fos = new FileOutputStream(raf.getFD());
             BufferedOutputStream out = new BufferedOutputStream(fos, bufferSize)) {
            for (long p = 0; p < size; ) {
                int n = (int) Math.min(chunk.length, size - p);
                content.fill(p, chunk, 0, n);
                for (int i = 0; i < n; i++) {
                    out.write(chunk[i]);
                }
                p += n;
            }
            out.flush();
            raf.setLength(size);
            if (sync) {
                fos.getFD().sync();
            }
        }
    }
}
