package org.iolab.storage;

import java.lang.foreign.MemorySegment;
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
     * Reads what the file holds now at {@code position}: up to {@code dst.remaining()} bytes, fewer where it ends.
     * For a reader of a file that another process writes and may shorten: a mapped backend's {@link #read} goes
     * through a mapping made when the file was longer, and a page the writer has cut since faults (SIGBUS, an
     * {@code InternalError}); this reads through the file's descriptor instead. The default reads up to
     * {@link #size()} with {@link #read}, which is that for the copying backends.
     *
     * @param position file offset
     * @param dst where the bytes go; its position advances by the count returned
     * @return the bytes read: 0 at or past the file's end
     */
    default int readPresent(long position, ByteBuffer dst) {
        long left = size() - position;
        int n = (int) Math.max(0, Math.min(dst.remaining(), left));
        if (n > 0) {
            int limit = dst.limit();
            read(position, dst.limit(dst.position() + n));
            dst.limit(limit);
        }
        return n;
    }

    /**
     * Writes all of {@code src} at {@code position}, growing the file if needed.
     *
     * @param position file offset
     * @param src the bytes; its position advances to its limit
     */
    void write(long position, ByteBuffer src);

    /**
     * Like {@link #write}, but through the file descriptor ({@code pwrite}) even when the backend maps the file:
     * the kernel copies into the page cache, so the writer takes no page fault per new page of its mapping.
     * The mapping sees the bytes at once (one page cache). For large appends into pages not yet touched.
     *
     * @param position file offset
     * @param src the bytes; its position advances to its limit
     */
    default void writeThrough(long position, ByteBuffer src) {
        write(position, src);
    }

    /**
     * Starts the device's write of {@code [position, position + length)} without waiting for it and without making
     * it durable ({@code sync_file_range(SYNC_FILE_RANGE_WRITE)}): a hint for a writer that appends far ahead of
     * its next {@link #force}, so that the device works while it appends. For bytes written with {@link #write}
     * or {@link #writeThrough}, not for pages the writer keeps storing into through a mapping. Writer only; the
     * default does nothing.
     *
     * @param position file offset
     * @param length bytes
     */
    default void writeBehind(long position, long length) {
    }

    /**
     * Makes every completed write durable ({@code fdatasync}, {@code msync} for mappings).
     *
     * @param metadata also sync file metadata such as the size ({@code fsync})
     */
    void force(boolean metadata);

    /**
     * Makes the completed writes in {@code [position, position + length)} durable; writes elsewhere in the file, and
     * a size the file grew to by writing its last byte (how the mapping backends grow a file), may stay in the page
     * cache ({@code msync} of the range for a mapping, which is {@code fdatasync} of the range). For a writer that
     * must make one part of a file durable (a header) while it goes on writing the rest: syncing the whole file
     * would also write, and for a mapping write-protect, the pages it is writing. The default syncs the whole file
     * ({@link #force force(false)}).
     *
     * @param position file offset
     * @param length bytes
     */
    default void forceRange(long position, long length) {
        force(false);
    }

    /**
     * Sets the file's size (shrinking drops the tail; growing adds zeros).
     *
     * @param size the new size
     */
    void truncate(long size);

    /**
     * Makes {@link #close()} cut the file no shorter than {@code atLeast} bytes, where a mapping backend would cut the
     * zeros it grew past the last write (it never grows the file). A journal's segments ask it with their capacity:
     * another process may have them mapped that far, and a read there past a cut end faults (SIGBUS, which kills the
     * JVM inside an intrinsic such as CRC32C); {@code Long.MAX_VALUE} cuts nothing. The default does nothing (the
     * backends that write through a descriptor never cut at close).
     *
     * @param atLeast the length close leaves at least (when the file is that long)
     */
    default void keepLengthOnClose(long atLeast) {
    }

    /**
     * For a writer that formats records in place: the file's bytes {@code [0, length)} as one writable segment of
     * mapped memory, the file first grown (allocated) to at least {@code length} bytes. Only the writer may use
     * it, and only until it next calls {@link #write} past {@code length}, {@link #truncate} or {@link #close};
     * bytes written through it count in {@link #size()} once {@link #written(long)} says so. {@link #force}
     * syncs them like any other write.
     *
     * @param length bytes the writer needs mapped
     * @return the mapping, or null when this backend does not map files (then use {@link #write})
     */
    default MemorySegment mapping(long length) {
        return null;
    }

    /**
     * Tells the file that bytes up to {@code end} were written through {@link #mapping(long)}, so
     * {@link #size()} is at least {@code end} (and {@link #close()} keeps them). Not thread-safe: call it from one
     * thread at a time.
     *
     * @param end the offset just past the last byte written
     */
    default void written(long end) {
    }

    /**
     * For readers that want neither a copy per read nor an arena's cost per access: the file's first bytes (up
     * to the backend's window, at most 2 GiB) as a read-only buffer over a mapping that the garbage collector
     * releases, so it stays valid memory for as long as it is referenced, even after {@link #close()}.
     *
     * @return a new read-only buffer (position 0, limit = capacity, big-endian) over the mapping as the file was
     *         opened or last grown, or null when this backend has no mapping of that kind (the copying backends; the
     *         FFM backend lends one to files opened read-only)
     */
    default ByteBuffer mappedBuffer() {
        return null;
    }

    /** Releases the file (and any mapping). Does not sync. */
    @Override
    void close();
}
