package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FailingForces;
import org.iolab.storage.SyncFailureNote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thread syncing the data file is interrupted (by another thread) as its fsync starts: the sync fails, and the
 * store must leave FILE.failed as for any failed data sync ({@code noteFailedSync}: "an I/O error, or an interrupt or
 * close during it"). Simulated deterministically ({@link FailingForces#openInterrupted}); the note's own write then
 * closed on the pending interrupt (a review found it).
 */
class StoreInterruptedSyncNoteTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDataSyncFailedByAnInterruptLeavesTheNote() {
        AtomicBoolean armed = new AtomicBoolean();
        Path file = tmp.resolve("s");
        StoreOptions o = StoreOptions.defaults().withBackend(Backend.CHANNEL_HEAP).withDurability(Durability.NONE)
                .withOpener((f, w) -> FailingForces.openInterrupted(Backend.CHANNEL_HEAP, f, w, armed));
        Store s = Store.open(file, o);
        try {
            for (int i = 0; i < 50; i++) {
                s.put(b("k" + i), b("v" + i));
            }
            s.sync();
            for (int i = 50; i < 70; i++) {
                s.put(b("k" + i), b("v" + i));
            }
            armed.set(true);
            IolabException e = assertThrows(IolabException.class, s::sync);
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
            StringBuilder why = new StringBuilder(e.toString());
            for (Throwable x : e.getSuppressed()) {
                why.append("\n  suppressed: ").append(x);
            }
            assertTrue(SyncFailureNote.present(Store.failedOf(file)), "no FILE.failed after a failed data sync: "
                    + why);
            assertEquals(51, SyncFailureNote.read(Store.failedOf(file)));
        } finally {
            Thread.interrupted();
            try {
                s.close();
            } catch (IolabException refused) {
                // failed store
            }
        }
    }
}
