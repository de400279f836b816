package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FailingForces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syncing thread is interrupted (by another thread, e.g. a shutdownNow) inside its fsync: the sync fails
 * (ClosedByInterruptException, the fsync's result unknown), and the journal must leave journal.failed as for any
 * failed sync. Simulated deterministically ({@link FailingForces#openInterrupted}). The note's own write ran with the
 * interrupt pending, which closed its channel: no note, and the next open kept records whose sync had failed (a review
 * found it).
 */
class JournalInterruptedSyncNoteTest {
    @TempDir
    Path tmp;

    /**
     * Appends records 0-4 and syncs them, appends 5-9, and fails their sync as an interrupt does.
     *
     * @return the failed journal, still open, its thread's interrupt status cleared
     */
    private Journal interruptedSync(Path dir) {
        AtomicBoolean armed = new AtomicBoolean();
        Journal j = Journal.open(dir, JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                .withDurability(Durability.NONE).withSegmentSize(1 << 20)
                .withOpener((f, w) -> FailingForces.openInterrupted(Backend.CHANNEL_HEAP, f, w, armed)));
        for (int i = 0; i < 10; i++) {
            j.append(new byte[100]);
            if (i == 4) {
                j.sync();
            }
        }
        armed.set(true);
        IolabException e = assertThrows(IolabException.class, j::sync);
        assertTrue(Thread.interrupted(), "the interrupt status is kept");
        StringBuilder why = new StringBuilder(e.toString());
        for (Throwable s : e.getSuppressed()) {
            why.append("\n  suppressed: ").append(s);
        }
        assertTrue(Files.exists(FailedSync.of(dir)), "no journal.failed after a failed sync: " + why);
        return j;
    }

    private static void closeFailed(Journal j) {
        try {
            j.close();
        } catch (IolabException refused) {
            // a failed journal
        }
    }

    @Test
    void aSyncFailedByAnInterruptLeavesTheNote() {
        Path dir = tmp.resolve("j");
        Journal j = interruptedSync(dir);
        try {
            assertEquals(4, j.durableSequence(), "the interrupted sync is not reported durable");
            assertEquals(5, FailedSync.read(dir));
        } finally {
            closeFailed(j);
        }
    }

    /** The consequence: the next open cuts the records whose sync failed, as after an EIO. */
    @Test
    void theNextOpenCutsTheRecordsOfASyncFailedByAnInterrupt() {
        Path dir = tmp.resolve("j");
        closeFailed(interruptedSync(dir));
        try (Journal r = Journal.open(dir, JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                .withSegmentSize(1 << 20))) {
            assertEquals(5, r.nextSequence(), "records 5..9 were never reported durable (their sync failed)");
        }
    }
}
