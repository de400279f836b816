package org.iolab.catalogue.read;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/**
 * {@code FileInputStream.transferTo(OutputStream)} into an output stream that checksums what it is given:
 * the JDK picks the buffer (16 KiB in JDK 25) and the loop.
 */
final class TransferTo implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("transferto", Kind.READ,
            "InputStream.transferTo(OutputStream)",
            "FileInputStream.transferTo into an OutputStream that checksums each write(byte[], int, int);"
                    + " the JDK's internal buffer sets the chunk size",
            Article.MODERN, false);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            in.transferTo(new ChecksumOutputStream(sum));
        }
        return sum.value();
    }

    /** An output stream that only feeds what is written to it into a checksum. */
    private static final class ChecksumOutputStream extends OutputStream {
        private final Checksum64 sum;

        ChecksumOutputStream(Checksum64 sum) {
            this.sum = sum;
        }

        @Override
        public void write(int b) {
            sum.update(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            sum.update(b, off, len);
        }
    }
}
