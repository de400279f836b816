package org.iolab.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Positional I/O on one file, the only way the journal and the store touch their files, so that every
 * backend ({@link Backend}) and the fault-injecting test channel are interchangeable.
 *
 * <p>Single writer; reads may come from other threads concurrently with writes to other regions. Methods
 * throw {@link org.iolab.IolabException} (naming the file and offset) instead of {@code IOException}.
 */
public interface StorageFile extends AutoCloseable {
    /** @return the file */
    Path path();

    /** @return the file's size in bytes (for mapped backends: the logical size, not the mapping) */
    long size();

    /**
     * Reads exactly {@code dst.remaining()} bytes at {@code position}.
     *
     * @param position file offset
     * @param dst where the bytes go; its position advances to its limit
     * @throws org.iolab.IolabException when the file ends first (naming file, offset and length)
     */
    void read(long position, ByteBuffer dst);

    /**
     * Writes all of {@code src} at {@code position}, growing the file if needed.
     *
     * @param position file offset
     * @param src the bytes; its position advances to its limit
     */
    void write(long position, ByteBuffer src);

    /**
     * Makes every completed write durable ({@code fdatasync}, {@code msync} for mappings).
     *
     * @param metadata also sync file metadata such as the size ({@code fsync})
     */
    void force(boolean metadata);

    /**
     * Sets the file's size (shrinking drops the tail; growing adds zeros).
     *
     * @param size the new size
     */
    void truncate(long size);

    /** Releases the file (and any mapping). Does not sync. */
    @Override
    void close();
}
