package org.iolab.os;

import java.nio.file.Path;

/**
 * Starts the kernel's write-back of a file's dirty pages behind a writer ({@code sync_file_range} with
 * {@code SYNC_FILE_RANGE_WRITE}), so that the device writes while the writer goes on and a later
 * {@code fdatasync} finds little left to do. A hint: it makes nothing durable, and where the call fails (a file
 * system without it, a descriptor that cannot be opened) it turns itself off and the later sync does the work.
 *
 * <p>It opens its own read-only descriptor of the file on first use. One writer thread; not for pages of a
 * shared mapping that the writer keeps storing into (cleaning them write-protects each page: a TLB shootdown).
 */
public final class WriteBehind implements AutoCloseable {
    private final Path path;
    private int fd = -1;
    private boolean off;

    /** @param path the file whose pages it writes back */
    public WriteBehind(Path path) {
        this.path = path;
    }

    /**
     * Starts writing back {@code [offset, offset + length)}.
     *
     * @param offset first byte
     * @param length bytes; nothing happens when not positive
     */
    public void start(long offset, long length) {
        if (off || length <= 0) {
            return;
        }
        try {
            if (fd < 0) {
                fd = Libc.open(path, Libc.O_RDONLY, 0);
            }
            if (Libc.syncFileRangeWrite(fd, offset, length) != 0) {
                close();
            }
        } catch (RuntimeException | LinkageError e) {
            // a hint only: without it, the writer's next sync writes the pages
            off = true;
        }
    }

    /** Closes its descriptor, if it opened one; later calls of {@link #start} do nothing. */
    @Override
    public void close() {
        off = true;
        if (fd >= 0) {
            Libc.closeQuietly(fd, path); // read-only: nothing to lose
            fd = -1;
        }
    }
}
