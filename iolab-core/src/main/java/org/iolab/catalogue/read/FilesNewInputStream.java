package org.iolab.catalogue.read;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.catalogue.MethodChecks;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/** {@code Files.newInputStream(file).read(byte[])}: the NIO.2 stream, a thin wrapper over a channel. */
final class FilesNewInputStream implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("files-newinputstream", Kind.READ,
            "Files.newInputStream().read(byte[])",
            "reads into a byte[] of the buffer size from the channel-backed stream of Files.newInputStream",
            Article.MODERN, true);

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        MethodChecks.checkBuffer(info().id(), bufferSize);
        Checksum64 sum = new Checksum64();
        byte[] buf = new byte[bufferSize];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                sum.update(buf, 0, n);
            }
        }
        return sum.value();
    }
}
