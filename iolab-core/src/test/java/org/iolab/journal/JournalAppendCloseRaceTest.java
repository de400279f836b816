package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * At BATCH an appender that finds a backlog syncs itself after it released the append lock; a close() that takes the
 * lock in between syncs the record and closes. The append returns: it used to throw "closed" for a record written
 * and made durable (a caller that retried it made a duplicate). A second, narrower window (1 of 150 rounds in one CI
 * run): that sync took the sync lock after the close's sync and before the close set its flag, and read the flag
 * twice, false then true; the flag is now set under the sync lock.
 */
@Timeout(120)
class JournalAppendCloseRaceTest {
    @TempDir
    Path tmp;

    @Test
    void anAppendThatThrowsClosedLeftItsRecordDurableInTheJournal() throws Exception {
        int rounds = 150;
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                    .withDurability(Durability.BATCH).withSegmentSize(1 << 20).withBatch(Duration.ofSeconds(10), 1);
            Path dir = tmp.resolve("r" + round);
            Journal j = Journal.open(dir, o);
            AtomicLong acknowledged = new AtomicLong();
            AtomicReference<IolabException> thrown = new AtomicReference<>();
            Thread appender = Thread.ofPlatform().start(() -> {
                try {
                    for (;;) {
                        j.append(new byte[32]);
                        acknowledged.incrementAndGet();
                    }
                } catch (IolabException e) {
                    thrown.set(e);
                }
            });
            // a tailer waiting for records: each append then wakes it after releasing the append lock, which
            // widens the window between that release and the appender's own sync
            Thread tailer = Thread.ofPlatform().start(() -> {
                try (Tailer t = j.tailer(0)) {
                    while (!j.isClosed()) {
                        t.poll(Duration.ofSeconds(1));
                    }
                } catch (RuntimeException ignored) {
                    // closed under it
                }
            });
            Thread.sleep(5);
            j.close();
            appender.join();
            tailer.join();
            long inJournal;
            try (Journal r = Journal.open(dir, o)) {
                inJournal = r.nextSequence();
            }
            if (inJournal != acknowledged.get()) {
                failures.add("round " + round + ": " + acknowledged.get() + " appends returned, the last one threw '"
                        + thrown.get().getMessage() + "', yet the reopened journal holds " + inJournal + " records");
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + rounds + " rounds: " + failures.getFirst());
    }
}
