package org.iolab.storage;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.iolab.IolabException;

/**
 * The ways iolab's journal and store can do positional file I/O, each behind {@link StorageFile}.
 *
 * <p>{@link #DEFAULT} is {@link #SEGMENT}: FFM segment mapping was both the fastest read and the fastest write
 * in {@code ./iolab bench} on the development machine ({@code segment-mapped} 25.5 GB/s warm read,
 * {@code segment-mapped-write} 3.3 GB/s), and it unmaps deterministically.
 *
 * <p>Every backend: one writer (write, truncate, force, close) and any number of concurrent readers of regions
 * already written; on close the file's length is the logical {@link StorageFile#size()}. {@link #MAPPED} and
 * {@link #SEGMENT} preallocate in steps (1 MiB doubling up to 1 GiB) and trim the zero tail on close, so after a
 * crash their file may be longer than the last logical size, ending in zeros: formats on top must tolerate a
 * zero tail (the journal's and store's CRC framing does).
 *
 * <p>Interrupts: a {@code FileChannel} is closed for every thread when a thread is interrupted inside (or enters, with
 * an interrupt pending) one of its calls. Every backend's channel opens the same file again when that happens and
 * makes the call once more (a read, a write of the same bytes at the same place, a size, a map), with the caller's
 * interrupt status kept, so an interrupted reader fails neither itself nor the others. A sync goes through a
 * descriptor of its own that only the syncing thread uses; when its own interrupt stops it, whether it reached the
 * device is unknown, so it fails (the journal and the store treat that as a failed sync), and the file stays usable.
 * A file replaced by a rename since it was opened is not opened in its place: the call fails, saying to open it again.
 */
public enum Backend {
    /** {@code RandomAccessFile} seek + read/write of a byte array. */
    RANDOM_ACCESS_FILE("raf", "RandomAccessFile seek + read/write of byte arrays; every call serialized") {
        @Override
        public StorageFile open(Path file, boolean writable) {
            return new RafStorage(file, writable);
        }
    },
    /** {@code FileChannel} positional read/write with the caller's buffers, heap ones included. */
    CHANNEL_HEAP("channel-heap", "FileChannel positional read/write with the caller's (heap) buffers") {
        @Override
        public StorageFile open(Path file, boolean writable) {
            return new ChannelHeapStorage(file, writable);
        }
    },
    /** {@code FileChannel} positional read/write through reusable direct buffers. */
    CHANNEL_DIRECT("channel-direct", "FileChannel positional read/write through a reusable direct buffer") {
        @Override
        public StorageFile open(Path file, boolean writable) {
            return new ChannelDirectStorage(file, writable);
        }
    },
    /**
     * {@code MappedByteBuffer} windows of 1 GiB, growing in steps. A {@code MappedByteBuffer} is unmapped by the
     * garbage collector, not by {@code close}: a closed file stays mapped until a collection, and a deleted one keeps
     * its disk space until then ({@link #SEGMENT} unmaps at close).
     */
    MAPPED("mapped", "MappedByteBuffer windows of 1 GiB (files over 2 GiB), growing in steps") {
        @Override
        public StorageFile open(Path file, boolean writable) {
            return new MappedStorage(file, writable);
        }
    },
    /**
     * FFM {@code MemorySegment} mapping of the whole file in a shared arena, remapped when it grows, unmapped at
     * {@code close}. A file opened read-only also lends, on request ({@link StorageFile#mappedBuffer()}, which a
     * journal replay uses), a second mapping that the garbage collector releases, as {@link #MAPPED}'s are.
     */
    SEGMENT("segment", "FFM MemorySegment mapping of the whole file, remapped in steps, unmapped on close") {
        @Override
        public StorageFile open(Path file, boolean writable) {
            return new SegmentStorage(file, writable);
        }
    };

    /** The fastest backend on the development machine per {@code ./iolab bench}: {@link #SEGMENT}. */
    public static final Backend DEFAULT = SEGMENT;

    private final String label;
    private final String description;

    Backend(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** @return the short name used on command lines and in reports, e.g. {@code segment} */
    public String label() {
        return label;
    }

    /** @return a one-line description */
    public String description() {
        return description;
    }

    /**
     * Opens {@code file}.
     *
     * @param file the file
     * @param writable open for writing, creating the file when it is missing; otherwise read-only (the file
     *     must exist)
     * @return the open file; the caller closes it
     * @throws IolabException when the file cannot be opened or mapped
     */
    public abstract StorageFile open(Path file, boolean writable);

    /**
     * @param label a {@link #label()} (case-insensitive, surrounding blanks ignored)
     * @return the backend with that label
     * @throws IolabException naming the valid labels when there is none
     */
    public static Backend parse(String label) {
        String wanted = label == null ? "" : label.trim().toLowerCase(Locale.ROOT);
        for (Backend backend : values()) {
            if (backend.label.equals(wanted)) {
                return backend;
            }
        }
        throw new IolabException("unknown storage backend '" + label + "': use one of "
                + Arrays.stream(values()).map(Backend::label).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return label;
    }
}
