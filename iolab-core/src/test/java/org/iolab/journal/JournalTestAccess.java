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

    /**
     * Writes a segment's synced mark, as a crash after the sync of the records below {@code offset} leaves it.
     *
     * @param segment a journal segment file
     * @param offset the offset below which its records count as synced; 64 or less: no mark
     */
    public static void setSyncedMark(Path segment, long offset) {
        SyncedMarks.set(segment, offset);
    }
}
