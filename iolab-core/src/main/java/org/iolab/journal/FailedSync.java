package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.storage.SyncFailureNote;

/**
 * The note a writer leaves when a sync fails: {@code journal.failed} in the journal's folder ({@link SyncFailureNote}),
 * naming the first sequence that was never reported durable.
 *
 * <p>The next {@link Journal#open} cuts the journal before that sequence (writing the records it keeps of the last
 * segments into new files, deleting later segments) and only then deletes the note; an open that cannot apply it
 * refuses the journal and keeps the note. Nothing reported durable is cut: every record before the sequence was
 * synced.
 */
final class FailedSync {
    static final String NAME = "journal.failed";

    private FailedSync() {
    }

    /** @return the note's path in the journal folder {@code dir} */
    static Path of(Path dir) {
        return dir.resolve(NAME);
    }

    /** @return whether the note, or the temporary file of its write, is in {@code dir} */
    static boolean present(Path dir) {
        return SyncFailureNote.present(of(dir));
    }

    /** @return the note's 24 bytes for {@code firstLost} */
    static ByteBuffer encode(long firstLost) {
        return SyncFailureNote.encode(firstLost);
    }

    /** Writes the note in {@code dir} ({@link SyncFailureNote#record}). */
    static void record(Path dir, long firstLost) {
        SyncFailureNote.record(of(dir), firstLost);
    }

    /** @return the note's sequence, or -1 ({@link SyncFailureNote#read}) */
    static long read(Path dir) {
        return SyncFailureNote.read(of(dir));
    }

    /** Deletes the note, or moves aside a file that is none ({@link SyncFailureNote#clear}). */
    static void clear(Path dir, boolean valid) {
        SyncFailureNote.clear(of(dir), valid);
    }
}
