package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * At NONE, awaitDurable(seq) syncs; when a close() runs meanwhile, close's own sync makes the record durable, and
 * awaitDurable returns (it threw "journal ... is closed", and recorded that as the journal's failure).
 */
@Timeout(120)
class JournalAwaitDurableCloseRaceTest {
    @TempDir
    Path tmp;

    @Test
    void awaitDurableAtNoneRacingCloseReportsADurableRecordAsFailed() throws Exception {
        int rounds = 30;
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                    .withDurability(Durability.NONE).withSegmentSize(64 << 20);
            Journal j = Journal.open(tmp.resolve("r" + round), o);
            long last = -1;
            for (int i = 0; i < 2048; i++) {
                last = j.append(new byte[4000]); // 8 MiB unsynced: close's sync takes a while
            }
            long seq = last;
            CountDownLatch closing = new CountDownLatch(1);
            Thread closer = Thread.ofPlatform().start(() -> {
                closing.countDown();
                j.close();
            });
            closing.await();
            Thread.sleep(1); // close is inside its sync now
            AtomicReference<RuntimeException> thrown = new AtomicReference<>();
            try {
                j.awaitDurable(seq);
            } catch (RuntimeException e) {
                thrown.set(e);
            }
            closer.join();
            if (thrown.get() != null) {
                failures.add("round " + round + ": awaitDurable(" + seq + ") threw " + thrown.get()
                        + " although durableSequence() is " + j.durableSequence());
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + rounds + " rounds: " + failures.getFirst());
    }
}
