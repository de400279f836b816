package org.iolab.storage;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.iolab.os.WriteBehind;

/**
 * {@link FileChannel} positional I/O through reusable direct buffers: heap bytes are copied into one direct
 * buffer (256 KiB, large writes in chunks) so the JDK never allocates its own temporary one; direct buffers
 * from the caller go straight to the channel. The writer's buffer and the readers' buffer are separate, each
 * under its own lock, so readers do not wait for the writer (only for each other when they pass heap buffers).
 *
 * <p>A thread interrupted inside a {@code FileChannel} operation closes the channel for every thread: the file is then
 * opened again and the call made once more ({@link ReopeningChannel}).
 */
final class ChannelDirectStorage implements StorageFile {
    static final int CHUNK = 256 * 1024;

    private final Path path;
    private final boolean writable;
    private final ReopeningChannel channel;
    private final WriteBehind behind;
    private final ByteBuffer writeBuffer;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(CHUNK);

    ChannelDirectStorage(Path path, boolean writable) {
        this.path = path;
        this.behind = new WriteBehind(path);
        this.writable = writable;
        this.channel = Problems.open(path, writable);
        this.writeBuffer = writable ? ByteBuffer.allocateDirect(CHUNK) : null;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public long size() {
        return Problems.size(channel, path);
    }

    @Override
    public void read(long position, ByteBuffer dst) {
        int length = dst.remaining();
        Problems.checkPosition(path, position, length);
        if (dst.isDirect()) {
            Problems.readFully(channel, path, position, dst);
            return;
        }
        long size = size();
        if (position > size - length) {
            throw Problems.pastEnd(path, position, length, size);
        }
        synchronized (readBuffer) {
            long at = position;
            while (dst.hasRemaining()) {
                int n = Math.min(CHUNK, dst.remaining());
                readBuffer.clear().limit(n);
                Problems.readFully(channel, path, at, readBuffer);
                readBuffer.flip();
                dst.put(readBuffer);
                at += n;
            }
        }
    }

    @Override
    public void write(long position, ByteBuffer src) {
        Problems.checkPosition(path, position, src.remaining());
        if (!writable) {
            throw Problems.readOnly(path, position);
        }
        if (src.isDirect()) {
            Problems.writeFully(channel, path, position, src);
            return;
        }
        synchronized (writeBuffer) {
            long at = position;
            while (src.hasRemaining()) {
                int n = Math.min(CHUNK, src.remaining());
                writeBuffer.clear();
                writeBuffer.put(writeBuffer.position(), src, src.position(), n).limit(n);
                src.position(src.position() + n);
                Problems.writeFully(channel, path, at, writeBuffer);
                at += n;
            }
        }
    }

    @Override
    public void force(boolean metadata) {
        Problems.force(channel, path, metadata);
    }

    @Override
    public void truncate(long size) {
        Problems.checkSize(path, size);
        if (!writable) {
            throw Problems.readOnly(path, size);
        }
        Problems.setLength(channel, path, size);
    }

    @Override
    public void writeBehind(long position, long length) {
        behind.start(position, length);
    }

    @Override
    public void close() {
        behind.close();
        Problems.close(channel, path);
    }

    @Override
    public String toString() {
        return "channel-direct " + path;
    }
}
