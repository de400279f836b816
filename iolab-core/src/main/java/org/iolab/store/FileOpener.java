package org.iolab.store;

import java.nio.file.Path;
import org.iolab.storage.StorageFile;

/** Opens the data file; a backend in production, a fault-injecting wrapper in tests. */
@FunctionalInterface
interface FileOpener {
    /**
     * @param file the file
     * @param writable open for writing (creating it if missing) rather than read-only
     * @return the open file
     */
    StorageFile open(Path file, boolean writable);
}
