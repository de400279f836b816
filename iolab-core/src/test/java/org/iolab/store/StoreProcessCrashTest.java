package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.iolab.IolabException;
import org.iolab.journal.JournalTestAccess;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FaultyStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process crash (kill -9) at any write, at every durability level, NONE included: the page cache keeps every
 * completed write, so after reopening every completed operation is there (and the one in flight is either
 * complete or absent), and no value is wrong.
 */
@Timeout(300)
class StoreProcessCrashTest {
    @TempDir
    Path tmp;

    @Test
    void everyCompletedOperationSurvivesAProcessCrash() {
        int crashed = 0;
        for (int round = 0; round < 90; round++) {
            Random rnd = new Random(1000 + round);
            Backend backend = Backend.values()[round % Backend.values().length];
            Durability level = Durability.values()[(round / 5) % 3];
            Path file = tmp.resolve("p" + round + ".store");
            List<FaultyStorage> files = new ArrayList<>();
            int budget = 1 + rnd.nextInt(500);
            FileOpener faulty = (f, writable) -> {
                FaultyStorage fs = FaultyStorage.open(backend, f);
                fs.armProcessCrash(1 + rnd.nextInt(budget), rnd);
                files.add(fs);
                return fs;
            };
            StoreOptions plain = StoreOptions.defaults().withBackend(backend).withDurability(level)
                    .withBatch(Duration.ofMillis(1), 2048).withRedoLimit(16 * 1024)
                    .withJournalTweak(j -> j.withSegmentSize(64 * 1024));
            StoreOptions withFaults = plain.withOpener(faulty).withJournalTweak(j -> JournalTestAccess.withOpener(
                    j.withSegmentSize(64 * 1024), (f, writable) -> writable ? faulty.open(f, true)
                            : backend.open(f, false)));
            Map<String, byte[]> expected = new HashMap<>();
            for (int cycle = 0; cycle < 2; cycle++) {
                files.clear();
                Store s = null;
                String inFlightKey = null;
                byte[] inFlightValue = null;
                boolean inFlight = false;
                try {
                    s = Store.open(file, withFaults);
                    for (int i = 0; i < 150; i++) {
                        String key = "k" + rnd.nextInt(30);
                        byte[] value = rnd.nextInt(4) == 0 ? null
                                : StoreContractTest.value(rnd.nextLong(), rnd.nextInt(200));
                        inFlightKey = key;
                        inFlightValue = value;
                        inFlight = true;
                        if (value == null) {
                            s.delete(key.getBytes(StandardCharsets.UTF_8));
                            expected.remove(key);
                        } else {
                            s.put(key.getBytes(StandardCharsets.UTF_8), value);
                            expected.put(key, value);
                        }
                        inFlight = false;
                        if (level == Durability.NONE && rnd.nextInt(40) == 0) {
                            s.sync();
                        }
                    }
                } catch (IolabException e) {
                    if (e instanceof StoreCorruptedException) {
                        throw e;
                    }
                    crashed++;
                }
                for (FaultyStorage f : files) {
                    f.close();
                }
                if (s != null) {
                    s.abandon();
                }
                try (Store check = Store.open(file, plain)) {
                    Map<String, byte[]> now = StorePowerLossTest.contents(check);
                    if (!same(expected, now)) {
                        Map<String, byte[]> withInFlight = new HashMap<>(expected);
                        if (inFlight && inFlightValue == null) {
                            withInFlight.remove(inFlightKey);
                        } else if (inFlight) {
                            withInFlight.put(inFlightKey, inFlightValue);
                        }
                        if (!same(withInFlight, now)) {
                            fail("round " + round + " (" + backend + ", " + level + ") cycle " + cycle
                                    + ": a completed operation was lost or a value is wrong; expected "
                                    + expected.keySet() + ", found " + now.keySet());
                        }
                        expected = withInFlight;
                    }
                }
                StoreReport report = Store.verify(file);
                assertTrue(report.ok(), "round " + round + ": " + report);
                assertEquals(expected.size(), report.liveRecords());
            }
        }
        assertTrue(crashed > 60, "the process died inside an operation in only " + crashed + " cycles");
    }

    private static boolean same(Map<String, byte[]> a, Map<String, byte[]> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<String, byte[]> e : a.entrySet()) {
            if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
