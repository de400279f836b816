package org.iolab.catalogue.read;

import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/**
 * {@code BufferedInputStream.read()} one byte per call over a {@code FileInputStream}; the stream's
 * internal buffer has the buffer size, so there is one {@code read(2)} per buffer-full.
 */
final class BufferedInputStreamByte implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("bis-byte", Kind.READ,
            "BufferedInputStream.read()",
            "reads one byte per call from a BufferedInputStream whose internal buffer has the buffer size",
            Article.NADEAU, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        try (BufferedInputStream in = new BufferedInputStream(new FileInputStream(file.toFile()), bufferSize)) {
            int b;
            while ((b = in.read()) >= 0) {
                sum.update(b);
            }
        }
        return sum.value();
    }
}
