package org.iolab.journal;

import java.util.Iterator;

/**
 * Iterates over the records from a starting sequence up to the last one appended when {@link #hasNext()} is
 * called (a later {@code hasNext()} sees records appended meanwhile). Not thread-safe; close it when done.
 */
public interface JournalReader extends Iterator<Record>, AutoCloseable {
    /**
     * @return the next record (a copy)
     * @throws java.util.NoSuchElementException when {@link #hasNext()} is false
     * @throws JournalCorruptedException when the next record is damaged
     */
    @Override
    Record next();

    /** Releases the reader's files. */
    @Override
    void close();
}
