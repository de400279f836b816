package org.iolab.storage;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.os.WriteBehind;

/**
 * {@link RandomAccessFile}: {@code seek} then {@code read}/{@code write} of a {@code byte[]}. Heap buffers with
 * an accessible array are used directly; other buffers go through one reusable 64 KiB staging array. The file
 * pointer is shared state, so every call holds this object's monitor: readers serialize with each other and
 * with the writer (the price of this backend). Its reads and writes ignore interrupts; its data syncs go through a
 * {@link ReopeningChannel} of their own, which an interrupt during a sync does not close for good (that sync counts as
 * failed) and which never closes the file.
 */
final class RafStorage implements StorageFile {
    private static final int STAGING = 64 * 1024;

    private final Path path;
    private final boolean writable;
    private final RandomAccessFile file;
    private final WriteBehind behind;
    private final byte[] staging = new byte[STAGING];
    /**
     * For {@code fdatasync}, opened at the first (the file's own channel would close the file on an interrupt); a
     * descriptor opened after a write-back error nobody was told of yet is told of it. Guarded by this object.
     */
    private ReopeningChannel syncs;
    /** The identity of the file it opened: the syncs' descriptor must be on the same. */
    private final Object identity;

    RafStorage(Path path, boolean writable) {
        this.path = path;
        this.behind = new WriteBehind(path);
        this.writable = writable;
        try {
            this.file = new RandomAccessFile(path.toFile(), writable ? "rw" : "r");
        } catch (IOException e) {
            throw IolabException.io(writable ? "open for writing" : "open for reading", path, e);
        }
        this.identity = writable ? null : ReopeningChannel.identityOf(path); // as ReopeningChannel's
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public synchronized long size() {
        try {
            return file.length();
        } catch (IOException e) {
            throw Problems.io("get the size", path, 0, e);
        }
    }

    @Override
    public synchronized void read(long position, ByteBuffer dst) {
        int length = dst.remaining();
        Problems.checkPosition(path, position, length);
        try {
            long size = file.length();
            if (position > size - length) {
                throw Problems.pastEnd(path, position, length, size);
            }
            file.seek(position);
            if (dst.hasArray()) {
                file.readFully(dst.array(), dst.arrayOffset() + dst.position(), length);
                dst.position(dst.limit());
            } else {
                while (dst.hasRemaining()) {
                    int n = Math.min(STAGING, dst.remaining());
                    file.readFully(staging, 0, n);
                    dst.put(staging, 0, n);
                }
            }
        } catch (IOException e) {
            throw Problems.io("read " + length + " bytes", path, position, e);
        }
    }

    @Override
    public synchronized void write(long position, ByteBuffer src) {
        int length = src.remaining();
        Problems.checkPosition(path, position, length);
        if (!writable) {
            throw Problems.readOnly(path, position);
        }
        try {
            file.seek(position);
            if (src.hasArray()) {
                file.write(src.array(), src.arrayOffset() + src.position(), length);
                src.position(src.limit());
            } else {
                while (src.hasRemaining()) {
                    int n = Math.min(STAGING, src.remaining());
                    src.get(staging, 0, n);
                    file.write(staging, 0, n);
                }
            }
        } catch (IOException e) {
            throw Problems.writeFailed(path, position, length, e);
        }
    }

    @Override
    public synchronized void force(boolean metadata) {
        try {
            if (metadata) {
                file.getFD().sync();
            } else {
                if (syncs == null) {
                    syncs = ReopeningChannel.forSyncs(path, identity);
                }
                Problems.force(syncs, path, false);
            }
        } catch (IOException e) {
            throw Problems.io("sync", path, 0, e);
        }
    }

    @Override
    public synchronized void truncate(long size) {
        Problems.checkSize(path, size);
        if (!writable) {
            throw Problems.readOnly(path, size);
        }
        try {
            file.setLength(size);
        } catch (IOException e) {
            throw Problems.io("set the length to " + size, path, size, e);
        }
    }

    @Override
    public void writeBehind(long position, long length) {
        behind.start(position, length);
    }

    @Override
    public synchronized void close() {
        behind.close();
        try {
            file.close();
        } catch (IOException e) {
            throw IolabException.io("close", path, e);
        } finally {
            if (syncs != null) {
                Problems.close(syncs, path);
            }
        }
    }

    @Override
    public String toString() {
        return "raf " + path;
    }
}
