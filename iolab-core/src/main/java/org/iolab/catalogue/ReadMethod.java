package org.iolab.catalogue;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A way to read a whole file from the JVM. An implementation is one small final class that does one
 * technique exactly as its article describes, touching every byte it reads through
 * {@link org.iolab.checksum.Checksum64}.
 */
public interface ReadMethod {
    /** @return what this method is */
    MethodInfo info();

    /**
     * Reads {@code file} from its first byte to its end.
     *
     * @param file an existing regular file
     * @param bufferSize the buffer or array size in bytes (at least 1); methods whose
     *     {@link MethodInfo#usesBuffer()} is false ignore it
     * @return the {@link org.iolab.checksum.Checksum64} of every byte read, in file order
     * @throws IOException when the file cannot be read
     * @throws org.iolab.IolabException when {@code bufferSize} is below 1
     */
    long read(Path file, int bufferSize) throws IOException;
}
