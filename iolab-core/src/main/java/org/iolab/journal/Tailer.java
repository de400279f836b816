package org.iolab.journal;

import java.time.Duration;

/**
 * Follows a journal: returns each record in order, waiting for new ones to be appended (by any thread of
 * this process). Not thread-safe; close it when done.
 */
public interface Tailer extends AutoCloseable {
    /**
     * @param timeout how long to wait for the next record; zero does not wait
     * @return the next record, or null when none was appended within {@code timeout}, or at once when the journal
     *     was closed (before or while waiting) and every record it had was returned, or when the thread is
     *     interrupted while waiting (its interrupt status is kept)
     * @throws JournalCorruptedException when the next record is damaged
     * @throws org.iolab.IolabException when the tailer was closed, or the next record was deleted
     *     ({@link Journal#deleteBefore(long)}) before it was read
     */
    Record poll(Duration timeout);

    /** @return the sequence {@link #poll(Duration)} returns next */
    long nextSequence();

    /** Releases the tailer's files. */
    @Override
    void close();
}
