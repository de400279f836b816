package org.iolab.storage;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.iolab.os.WriteBehind;

/**
 * {@link FileChannel} positional {@code read}/{@code write} with the caller's buffers as given (heap buffers
 * included: the JDK then copies through its own temporary direct buffer). Positional I/O is thread-safe, so
 * readers run concurrently with the writer without a lock.
 *
 * <p>A thread interrupted inside a {@code FileChannel} operation closes the channel for every thread: the file is then
 * opened again and the call made once more ({@link ReopeningChannel}).
 */
final class ChannelHeapStorage implements StorageFile {
    private final Path path;
    private final boolean writable;
    private final ReopeningChannel channel;
    private final WriteBehind behind;

    ChannelHeapStorage(Path path, boolean writable) {
        this.path = path;
        this.behind = new WriteBehind(path);
        this.writable = writable;
        this.channel = Problems.open(path, writable);
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
        Problems.checkPosition(path, position, dst.remaining());
        Problems.readFully(channel, path, position, dst);
    }

    @Override
    public void write(long position, ByteBuffer src) {
        Problems.checkPosition(path, position, src.remaining());
        if (!writable) {
            throw Problems.readOnly(path, position);
        }
        Problems.writeFully(channel, path, position, src);
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
        return "channel-heap " + path;
    }
}
