package org.iolab.report.model;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;

/**
 * Writes a file whole or not at all: into a new file of a name no one has beside it (never a user's file, nor one a
 * link points at), synced, then renamed over the target and the folder synced. A full disk or a crash leaves the
 * target as it was and no temporary file; a power loss after it returns keeps the new bytes (a rename that reached
 * the disk before the bytes would leave an empty file).
 */
public final class WholeFile {
    /** What writes the bytes. */
    @FunctionalInterface
    public interface Body {
        /**
         * @param out the temporary file (closing it only flushes it)
         * @throws IOException when a write fails
         */
        void write(OutputStream out) throws IOException;
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private WholeFile() {
    }

    /**
     * @param file the target (replaced when it exists)
     * @param body writes the bytes
     * @throws IOException when a step fails (the target is then unchanged)
     */
    public static void write(Path file, Body body) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        Path tmp = null;
        FileChannel opened = null;
        while (opened == null) {
            // a new name no one has, created with the default permissions (the umask's: Files.createTempFile would
            // make it readable by its owner only, and colleagues could open the report but not compare its results)
            tmp = folder.resolve("." + file.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36)
                    + ".tmp");
            try {
                opened = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
            } catch (FileAlreadyExistsException e) {
                // taken: another name
            }
        }
        try {
            try (FileChannel ch = opened) {
                // a body may close what it is given (Jackson does): the channel stays open for the sync
                OutputStream out = new FilterOutputStream(Channels.newOutputStream(ch)) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        this.out.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush();
                    }
                };
                body.write(out);
                out.flush();
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            sync(folder);
        } finally {
            Files.deleteIfExists(tmp); // gone already when it was renamed
        }
    }

    /**
     * {@code fsync} of a file's bytes, or of a folder's entries: for a writer that stages several files and renames
     * them into place itself (the report's page and charts), each synced before its rename, the folders after.
     *
     * @param path a file or a folder
     * @throws IOException when the sync fails
     */
    public static void sync(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
