package org.iolab.journal;

import java.time.Duration;

/**
 * Follows a journal: returns each record in order, waiting for new ones to be appended (by any thread of this
 * process, or, for a tailer of {@link Journal#openReadOnly}, by the writer of another process). Not thread-safe; close
 * it when done.
 *
 * <p>Interrupts: a pending interrupt makes {@link #poll} return null at once, its status kept. An interrupt that
 * arrives while the tailer is inside a file operation (opening or reading a segment) closes that file's channel, as
 * {@code FileChannel} does: with the {@code channel-heap}, {@code channel-direct} and {@code raf} backends the tailer
 * then fails with an {@link org.iolab.IolabException} until a new one is made; the mapped backends ({@code segment},
 * {@code mapped}) read through a mapping and are not affected after the open. Stop a tailer by closing it, or by
 * polling with a short timeout and checking a flag, rather than by interrupting its thread.
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
