package org.iolab.catalogue;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A way to read bytes at chosen offsets of a file (Fisher's seek versus skip). An implementation is one
 * small final class.
 */
public interface RandomAccessMethod {
    /** @return what this method is */
    MethodInfo info();

    /**
     * Reads {@code length} bytes at each of {@code positions}, in the given order.
     *
     * @param file an existing regular file
     * @param positions offsets in ascending order (stream methods can only skip forward), each with
     *     {@code position + length <= file size}
     * @param length bytes to read at each offset, at least 1
     * @return the {@link org.iolab.checksum.Checksum64} of all bytes read, in order
     * @throws IOException when the file cannot be read
     */
    long probe(Path file, long[] positions, int length) throws IOException;
}
