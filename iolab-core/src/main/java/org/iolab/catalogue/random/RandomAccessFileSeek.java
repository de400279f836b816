package org.iolab.catalogue.random;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.RandomAccessMethod;
import org.iolab.checksum.Checksum64;

/** Fisher's winner: {@code RandomAccessFile.seek(p)} then {@code read(byte[])} at each offset. */
final class RandomAccessFileSeek implements RandomAccessMethod {
    private static final MethodInfo INFO = new MethodInfo("raf-seek", Kind.RANDOM_ACCESS,
            "RandomAccessFile.seek + read",
            "moves the file pointer with seek(p) and reads the bytes there",
            Article.FISHER, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long probe(Path file, long[] positions, int length) throws IOException {
        Checksum64 sum = new Checksum64();
        byte[] buf = new byte[length];
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            for (long p : positions) {
                raf.seek(p);
                raf.readFully(buf);
                sum.update(buf, 0, length);
            }
        }
        return sum.value();
    }
}
