package org.iolab.catalogue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.IolabException;
import org.iolab.os.FileSpace;

/** How a file is prepared before a write method writes it. */
public enum Preallocation {
    /** The file is created empty; the write method grows it. */
    NONE,
    /** The file is first written full of zeros and synced, as Thompson's benchmark does. */
    ZERO_FILL,
    /** Blocks are reserved with {@code fallocate(2)} (through FFM); nothing is written. */
    FALLOCATE;

    /**
     * Prepares {@code file} for a write of {@code size} bytes, replacing any previous content.
     *
     * @param file the file to prepare
     * @param size the size the write will have
     */
    public void prepare(Path file, long size) {
        try {
            Files.deleteIfExists(file);
            switch (this) {
                case NONE -> Files.createFile(file);
                case ZERO_FILL -> zeroFill(file, size);
                case FALLOCATE -> FileSpace.fallocate(file, size);
                default -> throw new AssertionError(this);
            }
        } catch (IOException e) {
            throw IolabException.io("preallocate (" + name().toLowerCase(java.util.Locale.ROOT) + ")", file, e);
        }
    }

    private static void zeroFill(Path file, long size) throws IOException {
        FileSpace.requireRoom(file, size);
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long p = 0; p < size; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - p));
                p += ch.write(zeros, p);
            }
            ch.force(true);
        }
    }

    /**
     * @param text {@code none}, {@code zero-fill}/{@code zero} or {@code fallocate}
     * @return the matching preallocation
     */
    public static Preallocation parse(String text) {
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> NONE;
            case "zero", "zero-fill", "zerofill", "zero_fill" -> ZERO_FILL;
            case "fallocate" -> FALLOCATE;
            default -> throw new IolabException("bad preallocation '" + text
                    + "': expected none, zero-fill or fallocate");
        };
    }

    /** @return the command-line spelling */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
