package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FaultyStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss of the whole machine (every segment file at the same instant, not only the last one) while an
 * appender thread appends across rolls: every record acknowledged as durable before the cut is there after.
 */
@Timeout(300)
class JournalSystemPowerLossTest {
    private static final int MAX = 700;

    @TempDir
    Path tmp;

    private static void powerOffAll(List<FaultyStorage> files, int i, Random rnd) {
        if (i == files.size()) {
            for (FaultyStorage f : files) {
                if (!f.isDead()) {
                    f.powerOff(rnd);
                }
            }
            return;
        }
        synchronized (files.get(i)) {
            powerOffAll(files, i + 1, rnd);
        }
    }

    @Test
    void acknowledgedRecordsSurviveAWholeMachinePowerLoss() throws Exception {
        Durability[] levels = {Durability.BATCH, Durability.ALWAYS, Durability.NONE};
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < 150; round++) {
            Random rnd = new Random(round);
            Durability level = levels[round % levels.length];
            Path dir = tmp.resolve("r" + round);
            List<FaultyStorage> files = new ArrayList<>();
            AtomicBoolean off = new AtomicBoolean();
            StorageOpener faulty = (file, writable) -> {
                if (!writable) {
                    return Backend.CHANNEL_HEAP.open(file, false);
                }
                synchronized (files) {
                    if (off.get()) {
                        throw new IolabException("power is off (simulated)");
                    }
                    FaultyStorage f = FaultyStorage.open(Backend.CHANNEL_HEAP, file);
                    files.add(f);
                    return f;
                }
            };
            JournalOptions plain = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP).withSegmentSize(4096)
                    .withDurability(level).withBatch(Duration.ofMillis(1), 1500)
                    .withPreallocation(round % 2 == 0 ? Preallocation.NONE : Preallocation.FALLOCATE);
            Journal j = Journal.open(dir, plain.withOpener(faulty));
            AtomicBoolean stop = new AtomicBoolean();
            long[] appended = {0};
            Thread appender = Thread.ofPlatform().start(() -> {
                Random r = new Random(~rnd.nextLong());
                try {
                    for (long i = 0; !stop.get(); i++) {
                        long seq = j.append(Payloads.of(i, Payloads.size(i, MAX)));
                        appended[0] = i + 1;
                        if (level == Durability.BATCH && r.nextInt(10) == 0) {
                            j.awaitDurable(seq);
                        }
                        if (level == Durability.NONE && r.nextInt(10) == 0) {
                            j.sync();
                        }
                    }
                } catch (IolabException e) {
                    // the power went
                }
            });
            Thread.sleep(1 + rnd.nextInt(15));
            long acked = j.durableSequence();
            List<FaultyStorage> snapshot;
            synchronized (files) {
                off.set(true);
                snapshot = List.copyOf(files);
            }
            powerOffAll(snapshot, 0, rnd);
            stop.set(true);
            appender.join();
            try {
                j.close();
            } catch (IolabException expected) {
                // the power is gone
            }
            long n = 0;
            try (Journal reopened = Journal.open(dir, plain); JournalReader r = reopened.reader(0)) {
                while (r.hasNext()) {
                    Record rec = r.next();
                    assertEquals(new Record(n, Payloads.of(n, Payloads.size(n, MAX))), rec, "round " + round);
                    n++;
                }
            } catch (RuntimeException e) {
                failures.add("round " + round + " (" + level + "): reopen failed: " + e);
                continue;
            }
            if (n < acked + 1) {
                failures.add("round " + round + " (" + level + "): acknowledged durable up to " + acked
                        + " but only " + n + " records survived (" + appended[0] + " appended)");
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " rounds failed: " + failures);
    }
}
