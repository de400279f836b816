package org.iolab.catalogue.random;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.RandomAccessMethod;

/** {@code FileInputStream.skip} (an {@code lseek(2)}) forward to each offset, then a read there. */
final class FileInputStreamSkip implements RandomAccessMethod {
    private static final MethodInfo INFO = new MethodInfo("fis-skip", Kind.RANDOM_ACCESS,
            "FileInputStream.skip + readNBytes",
            "skips an unbuffered FileInputStream (an lseek) forward to each offset and reads the bytes there",
            Article.FISHER, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long probe(Path file, long[] positions, int length) throws IOException {
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            return StreamSkip.probe(in, file, positions, length);
        }
    }
}
