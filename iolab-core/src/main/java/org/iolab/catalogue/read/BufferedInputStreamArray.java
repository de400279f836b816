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
 * {@code BufferedInputStream.read(byte[])} into an array of the buffer size, over a stream with the JDK's
 * default 8 KiB internal buffer. When the array is at least 8 KiB the JDK bypasses the internal buffer and
 * reads straight into the array; smaller arrays are copied out of it.
 */
final class BufferedInputStreamArray implements ReadMethod {
    /** The JDK's default {@code BufferedInputStream} buffer size, stated so it cannot drift. */
    private static final int INTERNAL_BUFFER = 8192;

    private static final MethodInfo INFO = new MethodInfo("bis-array", Kind.READ,
            "BufferedInputStream.read(byte[])",
            "reads into a byte[] of the buffer size from a BufferedInputStream with the default 8 KiB"
                    + " internal buffer (arrays of 8 KiB or more bypass it)",
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
        try (BufferedInputStream in =
                     new BufferedInputStream(new FileInputStream(file.toFile()), INTERNAL_BUFFER)) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                sum.update(buf, 0, n);
            }
        }
        return sum.value();
    }
}
