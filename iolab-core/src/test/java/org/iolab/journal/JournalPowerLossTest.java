package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FaultyStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss at a random moment ({@link FaultyStorage} drops, reorders and tears unsynced writes): after
 * reopening, every record acknowledged as durable is present and intact, and nothing else is corrupted.
 */
class JournalPowerLossTest {
    private static final int MAX = 500;
    private static final Durability[] LEVELS = {Durability.ALWAYS, Durability.BATCH, Durability.NONE};

    @TempDir
    Path tmp;

    /** Record {@code i} as cycle {@code cycle} appends it: the same size in each cycle, not the same bytes. */
    private static byte[] payload(int cycle, long i) {
        return Payloads.of(i + ((long) cycle << 40), Payloads.size(i, MAX));
    }

    @Test
    void acknowledgedRecordsSurviveAPowerLoss() {
        int crashed = 0;
        for (int round = 0; round < 150; round++) {
            Random rnd = new Random(round);
            Backend backend = Backend.values()[round % Backend.values().length];
            Durability level = LEVELS[round % LEVELS.length];
            Path dir = tmp.resolve("r" + round);
            List<FaultyStorage> files = new ArrayList<>();
            StorageOpener faulty = (file, writable) -> {
                if (!writable) {
                    return backend.open(file, false);
                }
                FaultyStorage f = FaultyStorage.open(backend, file);
                f.armPowerOff(1 + rnd.nextInt(120), rnd);
                files.add(f);
                return f;
            };
            JournalOptions plain = JournalOptions.defaults().withBackend(backend).withSegmentSize(4096)
                    .withDurability(level).withBatch(Duration.ofMillis(1), 1500)
                    .withPreallocation(round % 2 == 0 ? Preallocation.NONE : Preallocation.FALLOCATE);
            long acked = -1;
            long appended = 0;
            long[] cycleStart = {0, Long.MAX_VALUE}; // cycle c appended the records from cycleStart[c] on
            for (int cycle = 0; cycle < 2; cycle++) {
                files.clear();
                Journal j = null;
                try {
                    j = Journal.open(dir, plain.withOpener(faulty));
                    long start = j.nextSequence();
                    assertTrue(start >= acked + 1, "round " + round + ": acknowledged " + acked + " but reopened at "
                            + start);
                    cycleStart[cycle] = start;
                    for (long i = start; i < start + 200; i++) {
                        long seq = j.append(payload(cycle, i));
                        appended = Math.max(appended, i + 1);
                        assertEquals(i, seq);
                        if (level == Durability.ALWAYS) {
                            // the contract, not the journal's own counter: append returns once the record is synced
                            acked = Math.max(acked, seq);
                        }
                        if (level == Durability.BATCH && rnd.nextInt(20) == 0) {
                            j.awaitDurable(seq);
                            acked = Math.max(acked, seq);
                        }
                        if (level == Durability.NONE && rnd.nextInt(10) == 0) {
                            j.sync();
                            acked = Math.max(acked, seq);
                        }
                        assertTrue(j.durableSequence() >= acked, "round " + round + ": " + acked
                                + " was acknowledged but durableSequence() is " + j.durableSequence());
                        acked = Math.max(acked, j.durableSequence());
                    }
                } catch (IolabException e) {
                    crashed++;
                }
                if (j != null) {
                    acked = Math.max(acked, j.durableSequence());
                }
                if (!files.isEmpty()) {
                    FaultyStorage activeFile = files.getLast();
                    synchronized (activeFile) {
                        if (!activeFile.isDead()) {
                            activeFile.powerOff(rnd);
                        }
                    }
                }
                try {
                    if (j != null) {
                        j.close();
                    }
                } catch (IolabException expected) {
                    // the power is gone
                }
            }
            long n = 0;
            try (Journal reopened = Journal.open(dir, plain); JournalReader r = reopened.reader(0)) {
                for (; r.hasNext(); n++) {
                    // the cycle that wrote it: a record of cycle 0 past cycle 1's start is stale data revived
                    assertEquals(new Record(n, payload(n >= cycleStart[1] ? 1 : 0, n)), r.next(),
                            "round " + round + " record " + n);
                }
                assertEquals(n, reopened.nextSequence(), "round " + round);
            }
            assertTrue(n >= acked + 1, "round " + round + " (" + backend + ", " + level + "): acknowledged "
                    + acked + " but only " + n + " records survived of " + appended);
            assertTrue(n <= appended + 1);
            try (Journal reopened = Journal.open(dir, plain)) {
                assertEquals(n, reopened.append(new byte[] {1, 2, 3}));
            }
            assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).problems().toString());
        }
        assertTrue(crashed > 100, "the power failed inside an operation in " + crashed + " rounds");
    }
}
