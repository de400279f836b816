package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syncing thread is interrupted (by another thread, e.g. a shutdownNow) just as its fsync starts: the sync fails
 * (ClosedByInterruptException, the fsync's result unknown), and the journal must leave journal.failed as for any
 * failed sync. The interrupt is simulated deterministically: the wrapper sets the thread's interrupt status and fails
 * the backend's force as a channel closed under it does. The note's own write then ran with the interrupt pending,
 * which closed its channel: no note, and the next open kept records whose sync had failed (a review found it).
 */
class JournalInterruptedSyncNoteTest {
    @TempDir
    Path tmp;

    private static StorageFile interruptingForces(StorageFile d, AtomicBoolean armed) {
        return (StorageFile) Proxy.newProxyInstance(StorageFile.class.getClassLoader(),
                new Class<?>[] {StorageFile.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("force") && armed.getAndSet(false)) {
                        // another thread's interrupt, arriving inside the fsync: what the backend then reports (the
                        // channel closed under the call, the fsync's result unknown, the interrupt status given back)
                        Thread.currentThread().interrupt();
                        throw new IolabException("cannot sync at offset 0 of " + d.path() + ": interrupted (simulated)",
                                new java.nio.channels.ClosedByInterruptException());
                    }
                    try {
                        return method.invoke(d, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aSyncFailedByAnInterruptLeavesTheNote() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                .withDurability(Durability.NONE).withSegmentSize(1 << 20)
                .withOpener((f, w) -> w ? interruptingForces(Backend.CHANNEL_HEAP.open(f, true), armed)
                        : Backend.CHANNEL_HEAP.open(f, false));
        Journal j = Journal.open(dir, o);
        try {
            for (int i = 0; i < 5; i++) {
                j.append(new byte[100]);
            }
            j.sync();
            for (int i = 0; i < 5; i++) {
                j.append(new byte[100]);
            }
            armed.set(true);
            IolabException e = assertThrows(IolabException.class, j::sync);
            boolean kept = Thread.interrupted();
            assertTrue(kept, "the interrupt status is kept");
            assertEquals(4, j.durableSequence(), "the interrupted sync is not reported durable");
            StringBuilder why = new StringBuilder(e.toString());
            for (Throwable s : e.getSuppressed()) {
                why.append("\n  suppressed: ").append(s);
            }
            assertTrue(Files.exists(FailedSync.of(dir)), "no journal.failed after a failed sync: " + why);
            assertEquals(5, FailedSync.read(dir));
        } finally {
            Thread.interrupted();
            try {
                j.close();
            } catch (IolabException refused) {
                // failed journal
            }
        }
    }

    /** The consequence: the next open does not cut the records whose sync failed (it cuts them after an EIO). */
    @Test
    void theNextOpenCutsTheRecordsOfASyncFailedByAnInterrupt() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                .withDurability(Durability.NONE).withSegmentSize(1 << 20)
                .withOpener((f, w) -> w ? interruptingForces(Backend.CHANNEL_HEAP.open(f, true), armed)
                        : Backend.CHANNEL_HEAP.open(f, false));
        Journal j = Journal.open(dir, o);
        for (int i = 0; i < 5; i++) {
            j.append(new byte[100]);
        }
        j.sync();
        for (int i = 0; i < 5; i++) {
            j.append(new byte[100]);
        }
        armed.set(true);
        assertThrows(IolabException.class, j::sync);
        Thread.interrupted();
        try {
            j.close();
        } catch (IolabException refused) {
            // failed journal
        }
        try (Journal r = Journal.open(dir, JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                .withSegmentSize(1 << 20))) {
            assertEquals(5, r.nextSequence(), "records 5..9 were never reported durable (their sync failed)");
        }
    }
}
