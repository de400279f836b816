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
 * {@code FileReader.read()} one char per call, decoding ISO-8859-1 so each byte is one char 0..255. The
 * reader's decoder reads the file in its own byte buffer, so this is not one system call per char.
 */
final class FileReaderChar implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("filereader-char", Kind.READ_CHARS,
            "FileReader.read()",
            "decodes ISO-8859-1 one char per call (the reader's decoder has its own byte buffer)"
                    + " and checksums each char",
            Article.NADEAU, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        try (FileReader in = new FileReader(file.toFile(), StandardCharsets.ISO_8859_1)) {
            int c;
            while ((c = in.read()) >= 0) {
                sum.update(c);
            }
        }
        return sum.value();
    }
}
