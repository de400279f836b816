package org.iolab.catalogue.write;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.WriteMethod;
import org.iolab.content.Content;

/** Thompson's {@code RandomAccessFile.write(byte[])} of a page-sized array, one {@code write(2)} per call. */
final class RandomAccessFileWrite implements WriteMethod {
    private static final MethodInfo INFO = new MethodInfo("raf-write", Kind.WRITE,
            "RandomAccessFile.write(byte[])",
            "fills a byte[] of the buffer size and writes it through a RandomAccessFile opened \"rw\"",
            Article.THOMPSON, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException {
        MethodChecks.checkWrite(info().id(), size, bufferSize);
        byte[] buf = new byte[bufferSize];
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            for (long p = 0; p < size; ) {
                int n = (int) Math.min(bufferSize, size - p);
                content.fill(p, buf, 0, n);
                raf.write(buf, 0, n);
                p += n;
            }
            raf.setLength(size);
            if (sync) {
                raf.getFD().sync();
            }
        }
    }
}
