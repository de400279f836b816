package org.iolab.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.IolabException;
import org.iolab.os.FileSpace;
import org.iolab.os.NoSpaceException;

/** The storage layer's error messages (file, offset, what to do) and the channel plumbing shared by backends. */
final class Problems {
    private Problems() {
    }

    static IolabException pastEnd(Path file, long position, long length, long size) {
        return new IolabException("cannot read " + length + " bytes at offset " + position + " of " + file
                + ": the file is only " + size + " bytes long; read below the size (a corrupt length or offset?)");
    }

    static IolabException readOnly(Path file, long position) {
        return new IolabException("cannot write at offset " + position + " of " + file
                + ": it was opened read-only; open it writable to change it");
    }

    static IolabException closed(Path file) {
        return new IolabException("cannot use " + file + ": it is closed; open it again");
    }

    static IolabException io(String what, Path file, long position, IOException cause) {
        if (cause instanceof ClosedChannelException) {
            return new IolabException("cannot " + what + " at offset " + position + " of " + file
                    + ": its channel is closed (closed, replaced, or a thread was interrupted during a sync); open it"
                    + " again",
                    cause);
        }
        String hint = IolabException.hint(cause);
        return new IolabException("cannot " + what + " at offset " + position + " of " + file + ": "
                + IolabException.reason(cause, file) + "; "
                + (hint != null ? hint : "check the disk, its free space and the file's permissions"), cause);
    }

    static void checkPosition(Path file, long position, long length) {
        if (position < 0 || position + length < position) {
            throw new IolabException("bad offset " + position + " (length " + length + ") for " + file
                    + ": offsets must be zero or more and the range must fit in a long");
        }
    }

    static void checkSize(Path file, long size) {
        if (size < 0) {
            throw new IolabException("bad size " + size + " for " + file + ": a file size cannot be negative");
        }
    }

    static ReopeningChannel open(Path file, boolean writable) {
        return new ReopeningChannel(file, writable);
    }

    static FileChannel openChannel(Path file, boolean writable) {
        try {
            return writable
                    ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                            StandardOpenOption.WRITE)
                    : FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw IolabException.io(writable ? "open for writing" : "open for reading", file, e);
        }
    }

    /** Positional read of all of {@code dst}; fails (without a partial result) when the file is too short. */
    static void readFully(ReopeningChannel channel, Path file, long position, ByteBuffer dst) {
        int length = dst.remaining();
        long size = size(channel, file);
        if (position > size - length) {
            throw pastEnd(file, position, length, size);
        }
        if (readPresent(channel, file, position, dst) < length) {
            throw pastEnd(file, position, length, size(channel, file)); // cut meanwhile
        }
    }

    /** {@link StorageFile#readPresent}: reads until {@code dst} is full or the file ends. */
    static int readPresent(ReopeningChannel channel, Path file, long position, ByteBuffer dst) {
        checkPosition(file, position, dst.remaining());
        int total = 0;
        try {
            while (dst.hasRemaining()) {
                // made again after an interrupt: from where this read began (the interrupted one may have moved it)
                int from = dst.position();
                long at = position + total;
                int n = channel.call(c -> c.read(dst.position(from), at));
                if (n < 0) {
                    break;
                }
                total += n;
            }
        } catch (IOException e) {
            throw io("read " + dst.remaining() + " bytes", file, position + total, e);
        }
        return total;
    }

    static void writeFully(ReopeningChannel channel, Path file, long position, ByteBuffer src) {
        int length = src.remaining();
        try {
            long at = position;
            while (src.hasRemaining()) {
                // made again after an interrupt: the same bytes at the same place
                int from = src.position();
                long to = at;
                at += channel.call(c -> c.write(src.position(from), to));
            }
        } catch (IOException e) {
            throw writeFailed(file, position, length, e);
        }
    }

    /**
     * After a store into a mapping faulted: the file has holes (made sparse by another program, or grown by a
     * copying backend's truncate) and the device had no block for one. Allocates the holes' blocks so the store can
     * be retried, or throws. (Checked here, on the failure, rather than at every open: the check costs an open, an
     * lseek and a close through FFM, about 0.2 ms of a cold store's reopen.)
     *
     * @throws NoSpaceException naming the file when the device has no room for them
     * @throws IolabException when the file has no hole, so the fault was something else
     */
    static void holeFault(Path file, long capacity, long position, long length, InternalError fault) {
        try {
            if (!FileSpace.fillHoles(file, capacity)) {
                throw new IolabException("cannot write " + length + " bytes at offset " + position + " of " + file
                        + ": the mapping faulted (" + fault.getMessage() + "); check the disk and the file's length",
                        fault);
            }
        } catch (NoSpaceException e) {
            e.addSuppressed(fault);
            throw e;
        }
    }

    /** @return the error for a write that failed: {@link NoSpaceException} for a full device, else as {@link #io} */
    static IolabException writeFailed(Path file, long position, long length, IOException cause) {
        NoSpaceException full = cause instanceof ClosedChannelException ? null
                : FileSpace.ifNoSpace(file, position, length, cause);
        return full != null ? full : io("write " + length + " bytes", file, position, cause);
    }

    static void force(ReopeningChannel channel, Path file, boolean metadata) {
        try {
            channel.force(metadata);
        } catch (IOException e) {
            throw io("sync", file, 0, e);
        }
    }

    static long size(ReopeningChannel channel, Path file) {
        try {
            return channel.call(FileChannel::size);
        } catch (IOException e) {
            throw io("get the size", file, 0, e);
        }
    }

    /**
     * A mapping backend's close: sets the file's length to its logical {@code size}, or, when the file asked to keep
     * its length ({@link StorageFile#keepLengthOnClose}), cuts it no shorter than {@code keepAtLeast} and never makes
     * it longer.
     *
     * @param keepAtLeast 0, or what {@link StorageFile#keepLengthOnClose} asked
     */
    static void setLengthAtClose(ReopeningChannel channel, Path file, long size, long keepAtLeast) {
        if (keepAtLeast == 0) {
            setLength(channel, file, size);
            return;
        }
        long to = Math.max(size, keepAtLeast);
        try {
            channel.call(c -> {
                if (to < c.size()) {
                    c.truncate(to);
                }
                return null;
            });
        } catch (IOException e) {
            throw IolabException.io("cut the file to " + to + " bytes", file, e);
        }
    }

    static void setLength(ReopeningChannel channel, Path file, long size) {
        try {
            channel.call(c -> {
                long current = c.size();
                if (size < current) {
                    c.truncate(size);
                } else if (size > current) {
                    ByteBuffer zero = ByteBuffer.allocate(1);
                    while (zero.hasRemaining()) {
                        c.write(zero, size - 1);
                    }
                }
                return null;
            });
        } catch (IOException e) {
            throw io("set the length to " + size, file, size, e);
        }
    }

    static void close(ReopeningChannel channel, Path file) {
        try {
            channel.close();
        } catch (IOException e) {
            throw IolabException.io("close", file, e);
        }
    }
}
