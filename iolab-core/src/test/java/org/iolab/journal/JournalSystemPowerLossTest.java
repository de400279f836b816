package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FaultyStorage;
import org.iolab.storage.StorageFile;
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

    /**
     * Cuts the power of every file at one instant.
     *
     * @return {@code durable}'s value read at that instant, while every file's monitor is held: no write or sync
     *         is half done then, so a journal that reports a record durable before its sync finished is caught
     */
    private static long powerOffAll(List<FaultyStorage> files, int i, Random rnd, LongSupplier durable) {
        if (i == files.size()) {
            long acked = durable.getAsLong();
            for (FaultyStorage f : files) {
                if (!f.isDead()) {
                    f.powerOff(rnd);
                }
            }
            return acked;
        }
        synchronized (files.get(i)) {
            return powerOffAll(files, i + 1, rnd, durable);
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
            // the directory: a file whose name was not there at the last sync of its folder may be gone after the
            // power loss (its data reached the device, its entry did not)
            Map<Path, Set<String>> named = new HashMap<>();
            StorageOpener faulty = new StorageOpener() {
                @Override
                public StorageFile open(Path file, boolean writable) {
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
                }

                @Override
                public void syncDirectory(Path folder) throws IOException {
                    synchronized (files) {
                        if (off.get()) {
                            throw new IOException("power is off (simulated)");
                        }
                        StorageOpener.fsync(folder);
                        named.put(folder, Set.of(folder.toFile().list()));
                    }
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
            // from the first durable record on (else a third of the rounds cut the power before any, checking nothing)
            long waitUntil = System.nanoTime() + 2_000_000_000L;
            while (j.durableSequence() < 0 && appender.isAlive() && System.nanoTime() < waitUntil) {
                Thread.sleep(0, 100_000);
            }
            Thread.sleep(1 + rnd.nextInt(15));
            List<FaultyStorage> snapshot;
            synchronized (files) {
                off.set(true);
                snapshot = List.copyOf(files);
            }
            long acked = powerOffAll(snapshot, 0, rnd, j::durableSequence);
            stop.set(true);
            appender.join();
            try {
                j.close();
            } catch (IolabException expected) {
                // the power is gone
            }
            // names the directory had not synced may be lost; applied once the journal has stopped touching the
            // folder (a failed roll deletes the segment it was making)
            Set<String> kept;
            synchronized (files) {
                kept = named.getOrDefault(dir.toAbsolutePath(), named.getOrDefault(dir, Set.of()));
            }
            for (String name : dir.toFile().list()) {
                if (!kept.contains(name) && rnd.nextBoolean()) {
                    Files.deleteIfExists(dir.resolve(name));
                }
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
