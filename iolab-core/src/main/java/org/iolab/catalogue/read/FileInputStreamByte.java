package org.iolab.catalogue.read;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/** {@code FileInputStream.read()} one byte per call: one {@code read(2)} system call per byte. */
final class FileInputStreamByte implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("fis-byte", Kind.READ,
            "FileInputStream.read()",
            "reads one byte per call with no buffer, one read(2) system call per byte",
            Article.NADEAU, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            int b;
            while ((b = in.read()) >= 0) {
                sum.update(b);
            }
        }
        return sum.value();
    }
}
