package org.iolab.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.iolab.IolabException;
import org.iolab.os.DescriptorWriter;
import org.iolab.os.WriteBehind;

/**
 * FFM mapping: one {@link MemorySegment} from {@code FileChannel.map(mode, 0, capacity, Arena.ofShared())}
 * over the whole allocated file (no 2 GiB limit), read and written with {@link MemorySegment#copy}.
 *
 * <p><b>Growth.</b> The file grows in steps that double from 1 MiB up to 1 GiB (see {@link Growth}); each step
 * maps the new length in a new shared arena and closes the old arena, which unmaps the old mapping at once.
 * {@link #size()} is the logical size (the end of the furthest write, or the last {@link #truncate}); the
 * preallocated tail beyond it reads as zeros and is cut off by {@link #close()}. After a crash the file may be
 * longer than the last logical size, with zeros at the end: readers of the file must tolerate that.
 *
 * <p><b>Concurrency.</b> One writer (write, truncate, force, close) and any number of readers of regions
 * already written. Every copy holds the read lock of a {@link ReentrantReadWriteLock}; remapping, shrinking and
 * closing take the write lock, so no thread can be inside a copy when an arena closes (which would otherwise
 * make the copy fail or, worse, touch unmapped memory).
 *
 * <p><b>Readers' second mapping.</b> A file opened read-only lends, on request, a {@link MappedByteBuffer} over its
 * first 2 GiB ({@link #mappedBuffer()}), which a journal replay checks records in place from; the garbage collector
 * unmaps it, not {@link #close()}.
 */
final class SegmentStorage implements StorageFile {
    /** The most a lent buffer maps: what a {@code ByteBuffer} can address. */
    private static final long LENT_MAX = Integer.MAX_VALUE;
    private final Path path;
    private final WriteBehind behind;
    private final boolean writable;
    private final ReopeningChannel channel;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Guarded by {@link #lock}; null while the capacity is 0. */
    private Arena arena;
    /** Guarded by {@link #lock}; null while the capacity is 0. */
    private MemorySegment segment;
    /** Mapped (and allocated) length; changed by the writer under the write lock. */
    private volatile long capacity;
    /** Logical size. */
    private volatile long size;
    /** Set under the write lock. */
    private volatile boolean closed;
    /** {@link #keepLengthOnClose}: close cuts the file no shorter than this (0: down to the logical size). */
    private volatile long keepLength;
    /** {@link #writeThrough}'s own descriptor, opened on first use; writer only. */
    private final DescriptorWriter throughFile;
    /**
     * A read-only file's {@link #mappedBuffer()}: a second mapping of its first {@link #LENT_MAX} bytes as a
     * {@link MappedByteBuffer}, made on first request; guarded by {@link #lock}.
     */
    private MappedByteBuffer lent;

    SegmentStorage(Path path, boolean writable) {
        this.path = path;
        this.behind = new WriteBehind(path);
        this.throughFile = new DescriptorWriter(path);
        this.writable = writable;
        this.channel = Problems.open(path, writable);
        try {
            long length = Problems.size(channel, path);
            for (int attempt = 1; ; attempt++) {
                try {
                    map(length);
                    break;
                } catch (IolabException e) {
                    // read-only: the writer cut the file's zero tail between the size and the map (a seal)
                    long now = Problems.size(channel, path);
                    if (writable || attempt >= 5 || now >= length) {
                        throw e;
                    }
                    length = now;
                }
            }
            this.size = length;
        } catch (RuntimeException e) {
            Problems.close(channel, path);
            throw e;
        }
    }

    /** Maps {@code [0, length)} in a new arena, closing the old one. Caller holds the write lock (or constructs). */
    private void map(long length) {
        Arena old = arena;
        MemorySegment mapped = null;
        Arena fresh = null;
        if (length > 0) {
            fresh = Arena.ofShared();
            try {
                Arena in = fresh;
                mapped = channel.call(c -> c.map(writable ? FileChannel.MapMode.READ_WRITE
                        : FileChannel.MapMode.READ_ONLY, 0, length, in));
            } catch (IOException e) {
                fresh.close();
                throw Problems.io("map " + length + " bytes", path, 0, e); // the old mapping stays
            }
        }
        arena = fresh;
        segment = mapped;
        capacity = length;
        if (old != null) {
            old.close();
        }
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
            if (length > 0) {
                MemorySegment.copy(segment, position, MemorySegment.ofBuffer(dst), 0, length);
            }
        } finally {
            lock.readLock().unlock();
        }
        dst.position(dst.limit());
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
        write(position, src, false);
    }

    /**
     * Writes through a {@link RandomAccessFile} of its own rather than the channel: an interrupt of the writing
     * thread closes a {@code FileChannel} for good (and with it this file's mapping and size), but does not stop a
     * {@code RandomAccessFile} write. Writer only.
     */
    @Override
    public void writeThrough(long position, ByteBuffer src) {
        write(position, src, true);
    }

    /** {@link #write} into the mapping, or {@link #writeThrough} the file's own descriptor. */
    private void write(long position, ByteBuffer src, boolean through) {
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
            if (length > 0 && through) {
                throughFile.write(position, src);
            } else if (length > 0) {
                try {
                    MemorySegment.copy(MemorySegment.ofBuffer(src), 0, segment, position, length);
                } catch (InternalError fault) {
                    Problems.holeFault(path, capacity, position, length, fault);
                    MemorySegment.copy(MemorySegment.ofBuffer(src), 0, segment, position, length);
                }
            }
        } catch (IOException e) {
            throw Problems.writeFailed(path, position, length, e);
        } finally {
            lock.readLock().unlock();
        }
        src.position(src.limit());
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
            map(target);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public MemorySegment mapping(long length) {
        Problems.checkSize(path, length);
        if (!writable) {
            throw Problems.readOnly(path, 0);
        }
        if (length > capacity) {
            grow(length);
        }
        lock.readLock().lock();
        try {
            if (closed) {
                throw Problems.closed(path);
            }
            return segment;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * For a file opened read-only: a {@link MappedByteBuffer} over its first bytes (up to 2 GiB), mapped once on
     * first request beside the shared-arena mapping. Checking a record through a view of the shared mapping costs an
     * acquire and a release of the arena per access; this mapping has no arena (the garbage collector unmaps it
     * once the buffers are unreachable), so a journal replay checks and hands out records in place from it. Null for
     * a writable file (its writer uses the shared mapping), an empty one, or after {@link #close()}.
     */
    @Override
    public ByteBuffer mappedBuffer() {
        if (writable) {
            return null;
        }
        lock.writeLock().lock();
        long length = 0;
        try {
            if (closed) {
                return null;
            }
            for (int attempt = 1; ; attempt++) {
                // no further than the file's end now: a writer may have cut the file's zero tail since this file was
                // opened (a read-only channel cannot map past the end)
                length = Math.min(Math.min(capacity, LENT_MAX), channel.call(FileChannel::size));
                if (length <= 0) {
                    return null;
                }
                try {
                    if (lent == null || lent.capacity() != length) {
                        long n = length;
                        lent = channel.call(c -> c.map(FileChannel.MapMode.READ_ONLY, 0, n));
                    }
                    return lent.asReadOnlyBuffer();
                } catch (IOException e) {
                    // the writer cut the tail between the size and the map (a seal): map what is left
                    if (attempt >= 5 || channel.call(FileChannel::size) >= length) {
                        throw e;
                    }
                }
            }
        } catch (IOException e) {
            throw Problems.io("map " + length + " bytes", path, 0, e);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void written(long end) {
        if (end > capacity) {
            throw new IllegalArgumentException("written up to " + end + " but only " + capacity + " bytes of "
                    + path + " are mapped");
        }
        if (end > size) {
            size = end;
        }
    }

    @Override
    public void force(boolean metadata) {
        lock.readLock().lock();
        try {
            if (closed) {
                throw Problems.closed(path);
            }
            if (segment != null && writable) {
                segment.force();
            } else if (writable && !metadata) {
                Problems.force(channel, path, false); // no mapping to msync: a cut to 0 must reach the device too
            }
        } finally {
            lock.readLock().unlock();
        }
        if (metadata) {
            Problems.force(channel, path, true);
        }
    }

    @Override
    public void forceRange(long position, long length) {
        Problems.checkPosition(path, position, length);
        lock.readLock().lock();
        try {
            if (closed) {
                throw Problems.closed(path);
            }
            if (segment != null && writable && position < capacity) {
                // the JDK aligns the msync to the pages the slice covers
                segment.asSlice(position, Math.min(capacity, position + length) - position).force();
                return;
            }
        } finally {
            lock.readLock().unlock();
        }
        force(false);
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
                Problems.setLength(channel, path, newSize);
                size = newSize;
                map(newSize);
            } finally {
                lock.writeLock().unlock();
            }
        }
    }

    @Override
    public void writeBehind(long position, long length) {
        behind.start(position, length);
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            try {
                behind.close();
                throughFile.close();
            } finally {
                // the mapping goes whatever failed above: a shared arena's mapping is never released otherwise
                map(0);
                lent = null;
            }
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
        return "segment " + path;
    }
}
