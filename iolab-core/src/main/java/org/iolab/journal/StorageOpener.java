package org.iolab.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.storage.StorageFile;

/**
 * Opens segment files and syncs the directory that names them; a backend and {@code fsync} in production, a
 * fault-injecting wrapper in tests (which may lose the names of files created since the last directory sync).
 */
@FunctionalInterface
interface StorageOpener {
    /**
     * @param file the file
     * @param writable open for writing (creating it if missing) rather than read-only
     * @return the open file
     */
    StorageFile open(Path file, boolean writable);

    /**
     * Makes the entries of {@code folder} durable: files created or deleted in it before the call are named (or gone)
     * after a power loss.
     *
     * @param folder a folder
     * @throws IOException when the sync fails
     */
    default void syncDirectory(Path folder) throws IOException {
        fsync(folder);
    }

    /**
     * {@code fsync} of a folder.
     *
     * @param folder a folder
     * @throws IOException when the sync fails
     */
    static void fsync(Path folder) throws IOException {
        try (FileChannel ch = FileChannel.open(folder, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
