package org.iolab.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;

/**
 * Writes at a position through a file's own descriptor with {@code pwrite(2)}: one system call per write of up to
 * {@value #CHUNK} bytes, no {@code lseek}, and no copy of an off-heap source (a direct buffer or a mapped one); a heap
 * source is copied once into a staging buffer kept between writes. {@code RandomAccessFile.write} copies every write
 * over 8 KiB into a {@code malloc}ed buffer freed after it, and seeks first; a {@code FileChannel} is closed for good
 * when a thread writing through it is interrupted. This writer is neither.
 *
 * <p>It opens its descriptor (write-only, the file must exist) on the first write. One writer thread at a time;
 * {@link #close} may come from another thread once the writer is done.
 */
public final class DescriptorWriter implements AutoCloseable {
    /** Most bytes handed to one {@code pwrite}, and the staging buffer's largest size. */
    static final int CHUNK = 1 << 20;
    private static final int EINTR = 4;

    private final Path path;
    private Arena arena;
    private MemorySegment state;
    private MemorySegment staging;
    private int fd = -1;
    private boolean closed;

    /** @param path the file to write (it must exist by the first write) */
    public DescriptorWriter(Path path) {
        this.path = path;
    }

    /**
     * Writes {@code src}'s remaining bytes at {@code position}; {@code src}'s position does not change.
     *
     * @param position file offset of the first byte
     * @param src the bytes, from its position to its limit (heap, direct or mapped; read-only is fine)
     * @throws IOException with the system's reason ({@code strerror}) when a {@code pwrite} fails, e.g. "No space left
     *         on device"; a {@link ClosedChannelException} after {@link #close}
     * @throws org.iolab.IolabException naming the file when its descriptor cannot be opened
     */
    public void write(long position, ByteBuffer src) throws IOException {
        int length = src.remaining();
        if (closed) {
            throw new ClosedChannelException();
        }
        if (length == 0) {
            return;
        }
        if (fd < 0) {
            open();
        }
        MemorySegment source = MemorySegment.ofBuffer(src);
        boolean direct = src.isDirect();
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(CHUNK, length - done);
            MemorySegment from;
            if (direct) {
                from = source.asSlice(done, n);
            } else {
                from = staging(n);
                MemorySegment.copy(source, done, from, 0, n);
            }
            long written = 0;
            while (written < n) {
                long w = Libc.pwrite(state, fd, from.asSlice(written), n - written, position + done + written);
                if (w < 0) {
                    int errno = Libc.errno(state);
                    if (errno == EINTR) {
                        continue;
                    }
                    throw new IOException(Libc.strerror(errno));
                }
                if (w == 0) {
                    throw new IOException("pwrite wrote nothing at offset " + (position + done + written));
                }
                written += w;
            }
            done += n;
        }
    }

    private void open() {
        Arena a = Arena.ofShared();
        try {
            state = a.allocate(Libc.captureLayout());
            fd = Libc.open(path, Libc.O_WRONLY, 0);
        } catch (RuntimeException | Error e) {
            a.close();
            state = null;
            throw e;
        }
        arena = a;
    }

    private MemorySegment staging(int n) {
        if (staging == null || staging.byteSize() < n) {
            staging = arena.allocate(Math.max(n, 64 << 10), 4096);
        }
        return staging.asSlice(0, n);
    }

    /** Closes its descriptor, if it opened one, and frees its buffers; later writes throw. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (fd >= 0) {
            Libc.closeQuietly(fd, path); // a pwrite leaves nothing in the descriptor: its bytes are in the page cache
            fd = -1;
        }
        if (arena != null) {
            arena.close();
            arena = null;
            staging = null;
            state = null;
        }
    }
}
