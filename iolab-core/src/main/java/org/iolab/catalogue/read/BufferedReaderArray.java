package org.iolab.catalogue.read;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/**
 * {@code BufferedReader.read(char[])} over an ISO-8859-1 {@code FileReader}, with a reader buffer and an
 * array both of the buffer size. When a call asks for at least the reader's buffer size the JDK reads
 * straight into the array, so with equal sizes most chars bypass the reader's buffer.
 */
final class BufferedReaderArray implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("bufferedreader", Kind.READ_CHARS,
            "BufferedReader.read(char[])",
            "decodes ISO-8859-1 through a BufferedReader of the buffer size into a char[] of the same size"
                    + " and checksums each char",
            Article.NADEAU, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        char[] buf = new char[bufferSize];
        try (BufferedReader in = new BufferedReader(
                new FileReader(file.toFile(), StandardCharsets.ISO_8859_1), bufferSize)) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                for (int i = 0; i < n; i++) {
                    sum.update(buf[i]);
                }
            }
        }
        return sum.value();
    }
}
