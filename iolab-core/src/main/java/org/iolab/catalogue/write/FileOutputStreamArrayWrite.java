package org.iolab.catalogue.write;

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
 * {@code FileOutputStream.write(byte[])} of an array of the buffer size, one {@code write(2)} per call.
 *
 * <p>The stream wraps the descriptor of a {@code RandomAccessFile} opened "rw", so the file is not truncated
 * on open and a preallocated file is overwritten in place (the {@code FileOutputStream(File)} constructor
 * would truncate it and throw the preallocation away).
 */
final class FileOutputStreamArrayWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("fos-array-write", Kind.WRITE,
            "FileOutputStream.write(byte[])",
            "fills a byte[] of the buffer size and writes it with FileOutputStream, one write(2) per array",
            Article.JAVA_IO_BENCHMARK, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException {
        MethodChecks.checkWrite(info().id(), size, bufferSize);
        byte[] buf = new byte[bufferSize];
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
             FileOutputStream out = new FileOutputStream(raf.getFD())) {
            for (long p = 0; p < size; ) {
                int n = (int) Math.min(bufferSize, size - p);
                content.fill(p, buf, 0, n);
                out.write(buf, 0, n);
                p += n;
            }
            raf.setLength(size);
            if (sync) {
                out.getFD().sync();
            }
        }
    }
}
