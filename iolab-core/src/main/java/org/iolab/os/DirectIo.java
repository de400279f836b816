package org.iolab.os;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;
import org.iolab.IolabException;

/**
 * Opens files with {@code O_DIRECT} ({@code com.sun.nio.file.ExtendedOpenOption.DIRECT}), which bypasses the
 * page cache: buffer addresses, file positions and lengths must then be multiples of {@link #blockSize}.
 *
 * <p>The option is found by name among the enum's constants rather than named in source: javac reports any
 * use of {@code jdk.unsupported} types with an "internal proprietary API" warning that no
 * {@code @SuppressWarnings} silences, and the build treats warnings as errors. The type is public and
 * exported; nothing here reaches into JDK internals.
 */
public final class DirectIo {
    private static final OpenOption DIRECT = lookUp();

    private DirectIo() {
    }

    private static OpenOption lookUp() {
        try {
            Class<?> type = Class.forName("com.sun.nio.file.ExtendedOpenOption");
            return Arrays.stream(type.getEnumConstants())
                    .filter(c -> ((Enum<?>) c).name().equals("DIRECT"))
                    .map(OpenOption.class::cast)
                    .findFirst().orElse(null);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /**
     * @param file a file (or a new file's path) on the filesystem of interest
     * @return the filesystem's block size, the alignment O_DIRECT needs
     * @throws IOException when the filesystem cannot be queried
     */
    public static int blockSize(Path file) throws IOException {
        Path existing = Files.exists(file) ? file : file.toAbsolutePath().getParent();
        return Math.toIntExact(Files.getFileStore(existing).getBlockSize());
    }

    /**
     * @param bufferSize a requested buffer size
     * @param block the block size
     * @return {@code bufferSize} rounded up to a multiple of {@code block}
     * @throws IolabException when that is 2 GiB or more, or {@code bufferSize} is below 1
     */
    public static int roundUp(int bufferSize, int block) {
        if (bufferSize < 1) {
            throw new IolabException("bad buffer size " + bufferSize + ": must be at least 1 byte");
        }
        long n = Math.ceilDiv((long) bufferSize, block) * block;
        if (n > Integer.MAX_VALUE - block) {
            throw new IolabException("buffer size " + bufferSize + " rounded up to the block size " + block
                    + " is 2 GiB or more; choose a smaller buffer");
        }
        return (int) n;
    }

    /**
     * Opens {@code file} with the given options plus {@code O_DIRECT}.
     *
     * @param file the file
     * @param options the usual open options (READ, WRITE, ...)
     * @return the channel
     * @throws IolabException when this JDK or the file's filesystem does not support O_DIRECT
     * @throws IOException for other failures to open
     */
    public static FileChannel open(Path file, OpenOption... options) throws IOException {
        if (DIRECT == null) {
            throw new IolabException("this JDK has no com.sun.nio.file.ExtendedOpenOption.DIRECT, so " + file
                    + " cannot be opened with O_DIRECT; run iolab on a JDK with the jdk.unsupported module");
        }
        OpenOption[] all = Arrays.copyOf(options, options.length + 1);
        all[options.length] = DIRECT;
        try {
            return FileChannel.open(file, all);
        } catch (UnsupportedOperationException e) {
            throw unsupported(file, e);
        } catch (IOException e) {
            if (isInvalidArgument(e)) {
                throw unsupported(file, e);
            }
            throw e;
        }
    }

    /**
     * @param e an I/O failure on an O_DIRECT channel
     * @return whether it is the kernel's EINVAL, which O_DIRECT gives for unsupported filesystems or
     *     misaligned requests
     */
    public static boolean isInvalidArgument(IOException e) {
        String message = e.getMessage();
        return message != null && (message.contains("Invalid argument") || message.contains("EINVAL"));
    }

    /**
     * @param file the file
     * @param cause what the JDK or kernel said
     * @return an exception saying O_DIRECT is not supported there and what to do
     */
    public static IolabException unsupported(Path file, Exception cause) {
        return new IolabException("O_DIRECT is not supported on the file system of " + file + " ("
                + cause.getMessage() + "); use --dir on a disk file system (e.g. ext4 or xfs, not tmpfs)", cause);
    }
}
