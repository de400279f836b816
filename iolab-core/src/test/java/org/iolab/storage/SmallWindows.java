package org.iolab.storage;

import java.nio.file.Path;

/** Lets tests in other packages open {@link MappedStorage} with small windows, so files span several of them. */
public final class SmallWindows {
    private SmallWindows() {
    }

    /**
     * @param path the file
     * @param writable whether to open it for writing
     * @param windowShift log2 of the window size, 12 to 30
     * @return the file, mapped in windows of {@code 1 << windowShift} bytes
     */
    public static StorageFile mapped(Path path, boolean writable, int windowShift) {
        return new MappedStorage(path, writable, windowShift);
    }
}
