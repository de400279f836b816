package org.iolab.journal;

import java.nio.file.Path;
import java.util.function.BiFunction;
import org.iolab.storage.StorageFile;

/** Lets tests in other packages (the store's) open journal segments through a fault-injecting opener. */
public final class JournalTestAccess {
    private JournalTestAccess() {
    }

    /**
     * @param options journal options
     * @param opener opens a segment file (path, writable)
     * @return a copy of {@code options} that opens its files through {@code opener}
     */
    public static JournalOptions withOpener(JournalOptions options, BiFunction<Path, Boolean, StorageFile> opener) {
        return options.withOpener(opener::apply);
    }
}
