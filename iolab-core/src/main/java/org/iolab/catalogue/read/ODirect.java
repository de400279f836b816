package org.iolab.catalogue.read;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.IolabException;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.checksum.Checksum64;

/**
 * {@code FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)}: {@code O_DIRECT} reads that bypass the
 * page cache, into a direct buffer aligned to the file store's block size. O_DIRECT needs the buffer
 * address, its size and every file offset to be multiples of the block size, so the buffer size is rounded
 * up to a multiple of the block size; the last read at the end of the file returns a short count.
 *
 * <p>{@code com.sun.nio.file.ExtendedOpenOption} lives in {@code jdk.unsupported}, and naming it in source
 * makes javac warn "internal proprietary API" (which {@code @SuppressWarnings} cannot silence under
 * {@code -Werror}), so the option is looked up by name once, when the class loads.
 */
final class ODirect implements ReadMethod {
    private static final MethodInfo INFO = new MethodInfo("odirect", Kind.READ,
            "FileChannel.read with ExtendedOpenOption.DIRECT",
            "O_DIRECT reads bypassing the page cache into a block-aligned direct buffer of the buffer size"
                    + " rounded up to a multiple of the file system block size",
            Article.MODERN, true);

    /** {@code ExtendedOpenOption.DIRECT}, or null when this JDK has no such option. */
    private static final OpenOption DIRECT = directOption();

    @Override
    public MethodInfo info() {
        return INFO;
    }

    @Override
    public long read(Path file, int bufferSize) throws IOException {
        Checksum64 sum = new Checksum64();
        long align = Files.getFileStore(file).getBlockSize();
        long size = Math.ceilDiv((long) bufferSize, align) * align;
        if (size > Integer.MAX_VALUE) {
            throw new IolabException("buffer size " + bufferSize + " rounded up to the block size " + align
                    + " is over 2 GiB; use a smaller --buffer");
        }
        try (Arena arena = Arena.ofConfined();
             FileChannel ch = open(file)) {
            ByteBuffer buf = arena.allocate(size, align).asByteBuffer();
            long fileSize = ch.size();
            long done = 0;
            while (done < fileSize) {
                int n = read(ch, buf, file);
                if (n < 0) {
                    break;
                }
                done += n;
                buf.flip();
                sum.update(buf);
                buf.clear();
            }
        }
        return sum.value();
    }

    private static OpenOption directOption() {
        try {
            Class<?> type = Class.forName("com.sun.nio.file.ExtendedOpenOption");
            for (Object constant : type.getEnumConstants()) {
                if (((Enum<?>) constant).name().equals("DIRECT")) {
                    return (OpenOption) constant;
                }
            }
            return null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static FileChannel open(Path file) throws IOException {
        if (DIRECT == null) {
            throw new IolabException("this JDK has no com.sun.nio.file.ExtendedOpenOption.DIRECT, so " + file
                    + " cannot be opened with O_DIRECT; run iolab on a JDK that has the jdk.unsupported module");
        }
        try {
            return FileChannel.open(file, StandardOpenOption.READ, DIRECT);
        } catch (UnsupportedOperationException e) {
            throw unsupported(file, e);
        } catch (IOException e) {
            if (invalidArgument(e)) {
                throw unsupported(file, e);
            }
            throw e;
        }
    }

    private static int read(FileChannel ch, ByteBuffer buf, Path file) throws IOException {
        try {
            return ch.read(buf);
        } catch (IOException e) {
            if (invalidArgument(e)) {
                throw unsupported(file, e);
            }
            throw e;
        }
    }

    private static boolean invalidArgument(IOException e) {
        String message = e.getMessage();
        return message != null && (message.contains("Invalid argument") || message.contains("EINVAL"));
    }

    private static IolabException unsupported(Path file, Exception cause) {
        return new IolabException("O_DIRECT is not supported on the file system of " + file + " ("
                + cause.getMessage() + "); use --dir on a disk file system (e.g. ext4 or xfs, not tmpfs)", cause);
    }
}
