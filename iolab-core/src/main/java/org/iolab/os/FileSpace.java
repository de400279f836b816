package org.iolab.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.Sizes;

/** Disk space: preallocation through {@code fallocate(2)} and free-space checks. */
public final class FileSpace {
    private static final int ENOSPC = 28;
    private static final int ENOSYS = 38;
    private static final int EOPNOTSUPP = 95;
    private static final int EDQUOT = 122;

    private FileSpace() {
    }

    private static NoSpaceException noSpace(Path file, long size, int errno) {
        Path dir = file.toAbsolutePath().getParent();
        return new NoSpaceException("no space left to grow " + file + " to " + Sizes.format(size) + " ("
                + Sizes.format(usableSpace(dir)) + " free on its device" + (errno == EDQUOT
                ? ", or the disk quota is used up" : "") + "): free some space or move it to a larger disk;"
                + " nothing was written past its old end");
    }

    /**
     * Allocates blocks for {@code [0, size)} of {@code file} with {@code fallocate(fd, 0, 0, size)} (mode 0:
     * the file size grows to {@code size}; the new range reads as zeros without having been written).
     * Creates the file if it does not exist.
     *
     * @param file the file
     * @param size bytes to allocate; 0 does nothing but create the file
     * @throws IolabException when the filesystem refuses (e.g. no space, or no fallocate support)
     */
    public static void fallocate(Path file, long size) {
        if (!allocate(file, Libc.O_WRONLY | Libc.O_CREAT, 0, size)) {
            throw new IolabException("cannot preallocate " + Sizes.format(size) + " for " + file + ": its file"
                    + " system does not support fallocate; choose another preallocation");
        }
    }

    /**
     * Allocates the blocks of any hole in {@code [0, length)} of {@code file}, so that a store into a mapping of it
     * cannot fail for want of space (that is a SIGBUS, which the JVM turns into an {@code InternalError}). A file with
     * no hole costs an open and an {@code lseek(SEEK_HOLE)}: no {@code fallocate}, which even with nothing to allocate
     * updates the inode's times through the file system's journal.
     *
     * @param file an existing file
     * @param length its length
     * @return true when a hole was found and filled, false when there is none
     * @throws NoSpaceException when the device has no room for the holes' blocks
     */
    public static boolean fillHoles(Path file, long length) {
        if (length <= 0) {
            return false;
        }
        int fd = Libc.open(file, Libc.O_WRONLY, 0644);
        int errno = 0;
        try {
            if (Libc.firstHole(fd) >= length) {
                return false;
            }
            errno = Libc.tryFallocate(fd, 0, length);
        } finally {
            Libc.close(fd, file);
        }
        return allocated(file, 0, length, errno);
    }

    /**
     * Allocates blocks for {@code [offset, offset + length)} of the existing {@code file} (growing it to the end of
     * that range if it is shorter), so that stores through a mapping of the range cannot fault for want of space:
     * in a sparse range they raise SIGBUS on a full disk, which the JVM turns into an {@code InternalError} ("a
     * fault occurred in an unsafe memory access operation") thrown from whatever wrote.
     *
     * @param file the file
     * @param offset where the range starts
     * @param length its length (positive)
     * @return true when allocated; false when the filesystem has no {@code fallocate}: the caller grows the file
     *         sparse, as before
     * @throws NoSpaceException when the device has no space for it (naming the file, the size and what is free)
     * @throws IolabException when fallocate fails otherwise
     */
    public static boolean reserve(Path file, long offset, long length) {
        return allocate(file, Libc.O_WRONLY, offset, length);
    }

    /**
     * {@code fallocate(fd, 0, offset, length)} on {@code file} opened with {@code flags} (nothing for a length of 0).
     *
     * @return true when allocated, false when the file system has no fallocate
     * @throws NoSpaceException when the device has no room
     * @throws IolabException when fallocate fails otherwise
     */
    private static boolean allocate(Path file, int flags, long offset, long length) {
        long before = sizeOrZero(file);
        int fd = Libc.open(file, flags, 0644);
        int errno = 0;
        try {
            if (length > 0) {
                errno = Libc.tryFallocate(fd, offset, length);
            }
        } finally {
            Libc.close(fd, file);
        }
        if (errno == ENOSPC || errno == EDQUOT) {
            // ext4 keeps the blocks a failed fallocate allocated before it ran out: given back, so the free space the
            // error reports is the device's (a review's 1 TiB segment read "0 B free" with 54 GB free), and a smaller
            // reservation after it (a store's growth on a nearly full disk) finds them
            giveBack(file, before);
        }
        return allocated(file, offset, length, errno);
    }

    private static long sizeOrZero(Path file) {
        try {
            return java.nio.file.Files.size(file);
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /** Cuts {@code file} back to {@code size} bytes when it grew past it; a failure is left to the caller's error. */
    private static void giveBack(Path file, long size) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.WRITE)) {
            if (ch.size() > size) {
                ch.truncate(size);
            }
        } catch (java.io.IOException | RuntimeException e) {
            // the NoSpaceException that follows is the error to report
        }
    }

    /**
     * @param errno what {@code fallocate(fd, 0, offset, length)} on {@code file} left (0 when it succeeded)
     * @return true when allocated, false when the file system has no fallocate
     * @throws NoSpaceException when the device has no room
     * @throws IolabException when fallocate failed otherwise
     */
    private static boolean allocated(Path file, long offset, long length, int errno) {
        if (errno == ENOSPC || errno == EDQUOT) {
            throw noSpace(file, offset + length, errno);
        }
        if (errno != 0 && errno != EOPNOTSUPP && errno != ENOSYS) {
            throw new IolabException("fallocate(" + file + ", " + offset + ", " + length + ") failed with errno "
                    + errno + ": check the file system");
        }
        return errno == 0;
    }

    /**
     * For a write through a descriptor (a copying backend) that failed: the device full or the quota used up, told
     * by the system's message or, when that is localised, by the free space left.
     *
     * @param file the file written
     * @param position where the write began
     * @param length its length
     * @param cause what the write threw
     * @return a {@link NoSpaceException} naming the file, the offset and what is free, or null when {@code cause} is
     *         not a lack of space
     */
    public static NoSpaceException ifNoSpace(Path file, long position, long length, IOException cause) {
        String m = cause.getMessage();
        Path dir = file.toAbsolutePath().getParent();
        boolean full = m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"));
        long free = -1;
        try {
            free = usableSpace(dir);
        } catch (IolabException e) {
            // the message alone decides
        }
        if (!full && !(free >= 0 && free < length)) {
            return null;
        }
        return new NoSpaceException("no space left to write " + length + " bytes at offset " + position + " of "
                + file + " (" + (free >= 0 ? Sizes.format(free) : "nothing") + " free on its device"
                + (m != null && m.contains("quota") ? ", the disk quota is used up" : "")
                + "): free some space or move it to a larger disk; the bytes before the failure may have reached"
                + " the file", cause);
    }

    /**
     * @param dir a directory
     * @return bytes available to this user on {@code dir}'s filesystem
     */
    public static long usableSpace(Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            throw IolabException.io("read the free space of", dir, e);
        }
    }

    /**
     * Refuses, before anything is written, to grow {@code file} to {@code size} bytes written in full (a zero fill)
     * when its device has less than that free: {@code fallocate} refuses such a size at once, a writer of zeros would
     * fill the disk first.
     *
     * @param file the file (it may not exist yet)
     * @param size the size it would have
     * @throws NoSpaceException naming the file, the size and what is free
     */
    public static void requireRoom(Path file, long size) {
        if (usableSpace(file.toAbsolutePath().getParent()) < size) {
            throw noSpace(file, size, 0);
        }
    }

    /**
     * Refuses, before anything is written, when {@code dir} has less than {@code bytes} plus a 5% / 256 MiB
     * margin free.
     *
     * @param dir where files will be written
     * @param bytes how many bytes will be written
     * @param what what needs the space, for the message (e.g. "benchmark files")
     * @throws IolabException naming the directory, the need and what is free
     */
    public static void requireFree(Path dir, long bytes, String what) {
        long margin = Math.max(256L << 20, bytes / 20);
        long free = usableSpace(dir);
        if (free < bytes + margin) {
            throw new IolabException(String.format(
                    "not enough free space in %s for %s: need %s (plus a %s margin), only %s free;"
                            + " free some space, choose smaller --sizes, or point --dir elsewhere",
                    dir, what, Sizes.format(bytes), Sizes.format(margin), Sizes.format(free)));
        }
    }
}
