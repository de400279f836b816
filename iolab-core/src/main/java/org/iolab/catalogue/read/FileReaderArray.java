package org.iolab.catalogue.read;

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
 * {@code FileReader.read(char[])} into an array of the buffer size, decoding ISO-8859-1 so each byte is one
 * char 0..255 and the checksum of the chars equals the checksum of the bytes.
 */
final class FileReaderArray implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("filereader", Kind.READ_CHARS,
            "FileReader.read(char[])",
            "decodes ISO-8859-1 into a char[] of the buffer size (the reader's decoder has its own byte buffer)"
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
        try (FileReader in = new FileReader(file.toFile(), StandardCharsets.ISO_8859_1)) {
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
