package org.iolab.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.iolab.IolabException;

/**
 * {@link MappedByteBuffer} windows: window {@code i} maps {@code [i * W, min((i + 1) * W, capacity))} with
 * {@code W} a power of two (1 GiB by default), so files over 2 GiB work; a read or write that crosses a
 * window boundary is split. Copies use the absolute bulk methods, so a window's position is never touched and
 * concurrent readers need no per-window state.
 *
 * <p><b>Growth.</b> The file grows in steps that double from 1 MiB up to 1 GiB ({@link Growth}); a step
 * remaps only the last, partial window and adds new ones, never per page. {@link #size()} is the logical size;
 * the zero tail beyond it is cut off by {@link #close()} (after a crash the file may keep it). Shrinking
 * truncates the file and remaps. {@link #force} runs {@code MappedByteBuffer.force()} on windows written since
 * the last force.
 *
 * <p><b>Concurrency.</b> One writer (write, truncate, force, close) and readers of already-written regions.
 * Copies hold the read lock; remapping, shrinking and closing hold the write lock. Old windows are never unmapped
 * explicitly (the JDK offers no way without internals): the garbage collector releases them, which is why the
 * default backend is {@link Backend#SEGMENT}.
 */
final class MappedStorage implements StorageFile {
    /** The default window: 1 GiB. */
    static final int DEFAULT_WINDOW_SHIFT = 30;

    private final Path path;
    private final boolean writable;
    private final ReopeningChannel channel;
    private final int shift;
    private final long window;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Guarded by {@link #lock}. */
    private MappedByteBuffer[] windows = new MappedByteBuffer[0];
    /**
     * Per window, whether it was written since its last {@code msync}: set by the writer after each store, cleared by
     * {@link #force} before its {@code msync} (both under the read lock, so they overlap): a store that lands while
     * an {@code msync} runs leaves its window marked for the next one. Replaced only under the write lock.
     */
    private AtomicIntegerArray dirty = new AtomicIntegerArray(0);
    private volatile long capacity;
    private volatile long size;
    private volatile boolean closed;
    /** {@link #keepLengthOnClose}: close cuts the file no shorter than this (0: down to the logical size). */
    private volatile long keepLength;
    /**
     * The file was cut since the last force: the new length reaches the device only through a sync of the file, which
     * the windows' msyncs do not make when none of them is dirty (then a power loss brings the cut bytes back).
     */
    private volatile boolean cut;

    MappedStorage(Path path, boolean writable) {
        this(path, writable, DEFAULT_WINDOW_SHIFT);
    }

    /**
     * @param windowShift log2 of the window size, 12 (4 KiB, for tests) to 30 (1 GiB)
     */
    MappedStorage(Path path, boolean writable, int windowShift) {
        if (windowShift < 12 || windowShift > 30) {
            throw new IolabException("bad window shift " + windowShift + " for " + path + ": use 12 to 30");
        }
        this.path = path;
        this.writable = writable;
        this.shift = windowShift;
        this.window = 1L << windowShift;
        this.channel = Problems.open(path, writable);
        try {
            long length = Problems.size(channel, path);
            remap(length);
            this.size = length;
        } catch (RuntimeException e) {
            Problems.close(channel, path);
            throw e;
        }
    }

    /** Maps windows up to {@code length}, keeping the full windows that are already mapped. Holds the write lock. */
    private void remap(long length) {
        int count = (int) ((length + window - 1) >>> shift);
        int keep = (int) Math.min(capacity >>> shift, count);
        MappedByteBuffer[] next = Arrays.copyOf(windows, count);
        AtomicIntegerArray nextDirty = new AtomicIntegerArray(count);
        FileChannel.MapMode mode = writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY;
        for (int i = keep; i < count; i++) {
            long start = (long) i << shift;
            long len = Math.min(window, length - start);
            try {
                next[i] = channel.call(c -> c.map(mode, start, len));
            } catch (IOException e) {
                throw Problems.io("map " + len + " bytes", path, start, e);
            }
        }
        for (int i = 0; i < Math.min(count, dirty.length()); i++) {
            nextDirty.set(i, dirty.get(i));
        }
        windows = next;
        dirty = nextDirty;
        capacity = length;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void read(long position, ByteBuffer dst) {
        int length = dst.remaining();
        Problems.checkPosition(path, position, length);
        lock.readLock().lock();
        try {
            if (closed) {
                throw Problems.closed(path);
            }
            long end = size;
            if (position > end - length) {
                throw Problems.pastEnd(path, position, length, end);
            }
            MappedByteBuffer[] ws = windows;
            long at = position;
            while (dst.hasRemaining()) {
                int offset = (int) (at & (window - 1));
                int n = (int) Math.min(dst.remaining(), window - offset);
                dst.put(dst.position(), ws[(int) (at >>> shift)], offset, n);
                dst.position(dst.position() + n);
                at += n;
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public ByteBuffer mappedBuffer() {
        lock.readLock().lock();
        try {
            if (closed || windows.length == 0) {
                return null;
            }
            // no page past the file's end: a writer's close trims its zero tail to size, and a reader's file may
            // have been cut since it was opened; a page the file no longer has faults (SIGBUS, InternalError)
            long now = writable ? size : Problems.size(channel, path);
            ByteBuffer first = windows[0].asReadOnlyBuffer();
            return now >= first.capacity() ? first : now <= 0 ? null : first.slice(0, (int) now);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Through the descriptor, not the mapping: another process may have cut the file below this mapping's end. */
    @Override
    public int readPresent(long position, ByteBuffer dst) {
        if (writable) {
            return StorageFile.super.readPresent(position, dst); // the file's own writer: not its zero tail
        }
        return Problems.readPresent(channel, path, position, dst);
    }

    @Override
    public void write(long position, ByteBuffer src) {
        int length = src.remaining();
        Problems.checkPosition(path, position, length);
        if (!writable) {
            throw Problems.readOnly(path, position);
        }
        if (length == 0) {
            if (closed) {
                throw Problems.closed(path);
            }
            return;
        }
        long end = position + length;
        if (end > capacity) {
            grow(end);
        }
        lock.readLock().lock();
        try {
            if (closed) {
                throw Problems.closed(path);
            }
            MappedByteBuffer[] ws = windows;
            long at = position;
            while (src.hasRemaining()) {
                int index = (int) (at >>> shift);
                int offset = (int) (at & (window - 1));
                int n = (int) Math.min(src.remaining(), window - offset);
                try {
                    ws[index].put(offset, src, src.position(), n);
                } catch (InternalError fault) {
                    Problems.holeFault(path, capacity, at, n, fault);
                    ws[index].put(offset, src, src.position(), n); // the holes are filled now
                }
                src.position(src.position() + n);
                dirty.set(index, 1);
                at += n;
            }
        } finally {
            lock.readLock().unlock();
        }
        if (end > size) {
            size = end;
        }
    }

    private void grow(long needed) {
        lock.writeLock().lock();
        try {
            if (closed) {
                throw Problems.closed(path);
            }
            // allocated, not sparse: a store into a sparse page on a full disk faults (InternalError); this
            // throws NoSpaceException here instead, naming the file and the space free
            long target = Growth.grow(channel, path, capacity, needed);
            remap(target);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void force(boolean metadata) {
        lock.readLock().lock();
        try {
            if (closed) {
                throw Problems.closed(path);
            }
            for (int i = 0; i < windows.length; i++) {
                // cleared first: a store made while the msync runs marks the window again, and the next force
                // syncs it (cleared after, it would be lost for good, its record reported durable)
                if (dirty.getAndSet(i, 0) != 0) {
                    try {
                        windows[i].force();
                    } catch (RuntimeException | Error e) {
                        dirty.set(i, 1); // not synced: a retried force must try again
                        throw e;
                    }
                }
            }
        } finally {
            lock.readLock().unlock();
        }
        boolean wasCut = cut;
        if (metadata || wasCut) {
            cut = false;
            try {
                Problems.force(channel, path, metadata);
            } catch (RuntimeException e) {
                cut = wasCut;
                throw e;
            }
        }
    }

    @Override
    public void keepLengthOnClose(long atLeast) {
        keepLength = Math.max(0, atLeast);
    }

    @Override
    public void truncate(long newSize) {
        Problems.checkSize(path, newSize);
        if (!writable) {
            throw Problems.readOnly(path, newSize);
        }
        if (newSize > capacity) {
            grow(newSize);
            size = newSize;
        } else if (newSize >= size) {
            // [size, capacity) is always zeros: only extended, never written
            size = newSize;
        } else {
            lock.writeLock().lock();
            try {
                if (closed) {
                    throw Problems.closed(path);
                }
                // dirty pages below newSize are synced by the next force (msync of the file range)
                boolean anyDirty = false;
                for (int i = 0; i < dirty.length(); i++) {
                    anyDirty |= dirty.get(i) != 0;
                }
                size = newSize;
                windows = new MappedByteBuffer[0];
                dirty = new AtomicIntegerArray(0);
                capacity = 0;
                cut = true;
                Problems.setLength(channel, path, newSize);
                remap(newSize);
                if (anyDirty) {
                    for (int i = 0; i < dirty.length(); i++) {
                        dirty.set(i, 1);
                    }
                }
            } finally {
                lock.writeLock().unlock();
            }
        }
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            windows = new MappedByteBuffer[0];
            dirty = new AtomicIntegerArray(0);
            if (writable) {
                Problems.setLengthAtClose(channel, path, size, keepLength);
            }
        } finally {
            lock.writeLock().unlock();
            Problems.close(channel, path);
        }
    }

    @Override
    public String toString() {
        return "mapped " + path;
    }
}
