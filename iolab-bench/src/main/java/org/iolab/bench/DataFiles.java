package org.iolab.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.iolab.IolabException;
import org.iolab.checksum.Checksum64;
import org.iolab.content.Content;
import org.iolab.os.FileSpace;

/** Creating, finding and checking the files of {@link Content#DEFAULT} bytes the benchmarks use. */
final class DataFiles {
    /** Size of the direct buffer used to write and read back whole files. */
    static final int IO_BUFFER = 4 << 20;

    private DataFiles() {
    }

    /**
     * @param size file size in bytes
     * @return {@code read-<size>.dat}
     */
    static String readFileName(long size) {
        return "read-" + size + ".dat";
    }

    /**
     * Finds the read data file of {@code size} bytes in {@code home}, creating it (and recording it as
     * created, so it is deleted at the end of the trial) when it is missing.
     *
     * @param home the trial's folder
     * @param size file size in bytes
     * @return the file, exactly {@code size} bytes of {@link Content#DEFAULT}
     * @throws IolabException when a file of that name exists with another size
     */
    static Path ensureReadFile(FileHome home, long size) {
        Path file = home.file(readFileName(size));
        if (Files.exists(file)) {
            long actual = sizeOf(file);
            if (actual == size) {
                return file;
            }
            throw new IolabException("data file " + file + " is " + Params.bytes(actual) + " long, expected "
                    + Params.bytes(size) + "; delete it (iolab recreates it) or choose another dir");
        }
        home.created(file);
        home.file(partName(file)); // in a workspace, a killed fork's half-written file goes with it
        write(file, size);
        return file;
    }

    /**
     * Writes a new file of {@code size} bytes of {@link Content#DEFAULT} through a {@link FileChannel} with a
     * 4 MiB direct buffer, and syncs it. It is written under a temporary name and renamed, so a file of the
     * final name is always complete.
     *
     * @param file the file; it must not exist
     * @param size bytes to write
     * @throws IolabException when the file exists, space is short or the write fails
     */
    static void write(Path file, long size) {
        Path abs = file.toAbsolutePath();
        if (Files.exists(abs)) {
            throw new IolabException("will not overwrite " + abs + ": it already exists");
        }
        Path dir = abs.getParent();
        FileSpace.requireFree(dir, size, "the data file " + abs.getFileName());
        Path part = dir.resolve(partName(abs));
        try {
            ByteBuffer buf = ByteBuffer.allocateDirect(IO_BUFFER);
            try (FileChannel ch = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                long p = 0;
                while (p < size) {
                    buf.clear().limit((int) Math.min(IO_BUFFER, size - p));
                    Content.DEFAULT.fill(p, buf);
                    buf.flip();
                    while (buf.hasRemaining()) {
                        p += ch.write(buf, p);
                    }
                }
                ch.force(true);
            }
            Files.move(part, abs, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(part);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw IolabException.io("write the data file", abs, e);
        }
    }

    /**
     * @param file a data file
     * @return the name it has while being written: {@code <name>.part}
     */
    static String partName(Path file) {
        return file.getFileName() + ".part";
    }

    /**
     * @param file a file
     * @return its {@link Checksum64}, read through a {@link FileChannel} with a 4 MiB direct buffer
     */
    static long checksum(Path file) {
        try {
            return Checksum64.of(file);
        } catch (IOException e) {
            throw IolabException.io("read back", file, e);
        }
    }

    /**
     * Checks that a write left exactly {@code size} bytes of {@link Content#DEFAULT} in {@code file}.
     *
     * @param file the written file
     * @param size the size written
     * @param what the method and parameters, for the message
     * @throws IllegalStateException naming {@code what} when the size or the checksum is wrong
     */
    static void verifyWritten(Path file, long size, String what) {
        long actual = sizeOf(file);
        if (actual != size) {
            throw new IllegalStateException("wrong file size after write: " + what + " file=" + file
                    + ": expected " + size + " bytes, found " + actual);
        }
        requireChecksum(Content.DEFAULT.checksum(size), checksum(file), "after write: " + what, file);
    }

    /**
     * The one check every pass ends with: a wrong checksum fails the run, naming the method and parameters.
     *
     * @param expected the checksum the content formula predicts
     * @param got the checksum the pass computed
     * @param what the method and parameters, for the message
     * @param file the file
     * @return {@code got}
     * @throws IllegalStateException when they differ
     */
    static long requireChecksum(long expected, long got, String what, Path file) {
        if (got != expected) {
            throw new IllegalStateException(String.format("checksum mismatch: %s file=%s: expected %016x, got %016x",
                    what, file, expected, got));
        }
        return got;
    }

    /**
     * @param file a file
     * @return its size
     */
    static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw IolabException.io("read the size of", file, e);
        }
    }
}
