package org.iolab.catalogue;

import java.io.IOException;
import java.nio.file.Path;
import org.iolab.content.Content;

/**
 * A way to write a whole file from the JVM. An implementation is one small final class; it writes
 * exactly {@code size} bytes of {@link Content} from offset 0 and leaves the file exactly {@code size}
 * bytes long (truncating any preallocated tail).
 */
public interface WriteMethod {
    /** @return what this method is */
    MethodInfo info();

    /**
     * @param file the file to write; it may not exist, or exist empty or preallocated (see
     *     {@link Preallocation}); its previous content is overwritten
     * @param size bytes to write
     * @param bufferSize the buffer or array size in bytes (at least 1); ignored when
     *     {@link MethodInfo#usesBuffer()} is false
     * @param content what to write: byte {@code p} of the file is {@code content.byteAt(p)}
     * @param sync when true the method makes the data durable before returning, in its own idiom
     *     ({@code FileChannel.force}, {@code FileDescriptor.sync}, {@code MappedByteBuffer.force}, ...)
     * @throws IOException when the file cannot be written
     * @throws org.iolab.IolabException when {@code size} is negative or {@code bufferSize} below 1
     */
    void write(Path file, long size, int bufferSize, Content content, boolean sync) throws IOException;
}
