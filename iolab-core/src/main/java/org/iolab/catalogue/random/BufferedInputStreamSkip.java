package org.iolab.catalogue.random;

import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.RandomAccessMethod;

/** Fisher's stream approach: one {@code BufferedInputStream} (8 KiB) skipped forward to each offset. */
final class BufferedInputStreamSkip implements RandomAccessMethod {
    private static final MethodInfo INFO = new MethodInfo("bis-skip", Kind.RANDOM_ACCESS,
            "BufferedInputStream.skip + readNBytes",
            "skips a BufferedInputStream (8 KiB buffer) forward to each offset and reads the bytes there",
            Article.FISHER, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long probe(Path file, long[] positions, int length) throws IOException {
        try (BufferedInputStream in = new BufferedInputStream(new FileInputStream(file.toFile()))) {
            return StreamSkip.probe(in, file, positions, length);
        }
    }
}
