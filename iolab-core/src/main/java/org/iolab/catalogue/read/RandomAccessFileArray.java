package org.iolab.catalogue.read;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/** {@code RandomAccessFile.read(byte[])} into an array of the buffer size: one {@code read(2)} per call. */
final class RandomAccessFileArray implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("raf-array", Kind.READ,
            "RandomAccessFile.read(byte[])",
            "reads into a byte[] of the buffer size, one read(2) system call per array",
            Article.NADEAU, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        byte[] buf = new byte[bufferSize];
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                sum.update(buf, 0, n);
            }
        }
        return sum.value();
    }
}
