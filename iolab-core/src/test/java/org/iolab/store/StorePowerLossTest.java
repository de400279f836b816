package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * Power loss at a random moment, in the data file and in the redo log ({@link FaultyStorage} drops, reorders and
 * tears unsynced writes), also during recovery: after reopening, every operation acknowledged as durable is
 * there, the state equals the oracle's after some operation between the last durable one and the last one
 * attempted, and no value is wrong.
 */
@Timeout(300)
class StorePowerLossTest {
    private static final int KEYS = 40;

    @TempDir
    Path tmp;

    /** The oracle: the state after each prefix of the operations of one run. */
    private static final class Oracle {
        final List<Map<String, byte[]>> states = new ArrayList<>();

        Oracle(Map<String, byte[]> start) {
            states.add(new HashMap<>(start));
        }

        void apply(String key, byte[] value) {
            Map<String, byte[]> next = new HashMap<>(states.getLast());
            if (value == null) {
                next.remove(key);
            } else {
                next.put(key, value);
            }
            states.add(next);
        }

        /** @return the prefix lengths from {@code minOps} on whose state equals {@code actual} */
        List<Integer> matches(Map<String, byte[]> actual, int minOps) {
            List<Integer> out = new ArrayList<>();
            for (int p = Math.max(0, minOps); p < states.size(); p++) {
                if (same(states.get(p), actual)) {
                    out.add(p);
                }
            }
            return out;
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

    static Map<String, byte[]> contents(Store s) {
        Map<String, byte[]> out = new HashMap<>();
        s.scan((k, v) -> {
            byte[] kb = new byte[k.remaining()];
            k.get(kb);
            byte[] vb = new byte[v.remaining()];
            v.get(vb);
            out.put(new String(kb, StandardCharsets.UTF_8), vb);
        });
        for (Map.Entry<String, byte[]> e : out.entrySet()) {
            assertArrayEquals(e.getValue(), s.get(e.getKey().getBytes(StandardCharsets.UTF_8)), "get and scan differ");
        }
        assertEquals(out.size(), s.size());
        return out;
    }

    @Test
    void acknowledgedOperationsSurviveAPowerLoss() {
        assertEquals(List.of(), run(true, false), "with the index checkpoint every reopen recovers by itself");
    }

    /**
     * The same with compression: a compaction mid-cycle trains a symbol table (the power may go during it), and the
     * puts after it store compressed values.
     */
    @Test
    void acknowledgedCompressedOperationsSurviveAPowerLossAndACompaction() {
        assertEquals(List.of(), run(true, true), "with the index checkpoint every reopen recovers by itself");
    }

    /**
     * Without an index checkpoint the recovery rebuilds the index by a scan, which cannot tell a torn write that was
     * never acknowledged (into a hole the last checkpoint knew) from damage, so after a power loss at BATCH the open
     * may refuse the store (the test prints how often). Then {@link Store#repair} keeps every acknowledged operation:
     * the state is again one the operations passed through.
     */
    @Test
    void withoutAnIndexCheckpointARepairKeepsEveryAcknowledgedOperation() {
        List<String> repaired = run(false, false);
        // only BATCH leaves unacknowledged torn writes behind the redo log's last synced record, and rarely (2 and
        // 3 of 117 reopens in two runs): many more means recovery now refuses stores it used to recover
        assertTrue(repaired.stream().allMatch(r -> r.contains("(BATCH)")), repaired.toString());
        assertTrue(repaired.size() <= 8, repaired.size() + " reopens needed a repair: " + repaired);
    }

    /** @return the reopens that refused the store and needed a repair (the test fails at once with the checkpoint) */
    private List<String> run(boolean checkpoint, boolean compress) {
        int crashed = 0;
        List<String> repaired = new ArrayList<>();
        Durability[] levels = {Durability.ALWAYS, Durability.BATCH};
        for (int round = 0; round < 60; round++) {
            Random rnd = new Random(round);
            Backend backend = Backend.values()[round % Backend.values().length];
            Durability level = levels[(round / 5) % 2];
            Path file = tmp.resolve("r" + round + ".store");
            List<FaultyStorage> files = new ArrayList<>();
            int budget = 1 + rnd.nextInt(400);
            FileOpener faulty = (f, writable) -> {
                FaultyStorage fs = FaultyStorage.open(backend, f);
                fs.armPowerOff(1 + rnd.nextInt(budget), rnd);
                files.add(fs);
                return fs;
            };
            StoreOptions plain = StoreOptions.defaults().withBackend(backend).withDurability(level)
                    .withBatch(Duration.ofMillis(1), 2048).withRedoLimit(16 * 1024)
                    .withJournalTweak(j -> j.withSegmentSize(64 * 1024)).withCheckpoint(checkpoint)
                    .withCompression(compress);
            StoreOptions withFaults = plain.withOpener(faulty).withJournalTweak(j -> JournalTestAccess.withOpener(
                    j.withSegmentSize(64 * 1024), (f, writable) -> writable ? faulty.open(f, true)
                            : backend.open(f, false)));
            Map<String, byte[]> state = new HashMap<>();
            long acked = 0;
            for (int cycle = 0; cycle < 2; cycle++) {
                files.clear();
                Store s = null;
                Oracle oracle = null;
                long start = 0;
                try {
                    s = Store.open(file, withFaults);
                    Map<String, byte[]> opened = contents(s);
                    assertTrue(s.stats().lastSequence() >= acked, "round " + round + ": acknowledged " + acked
                            + " but reopened at " + s.stats().lastSequence());
                    state = opened;
                    start = s.stats().lastSequence();
                    oracle = new Oracle(state);
                    for (int i = 0; i < 150; i++) {
                        String key = "k" + rnd.nextInt(KEYS);
                        byte[] value = rnd.nextInt(5) == 0 ? null : compress && rnd.nextBoolean()
                                ? StoreCompressionTest.text(i, rnd)
                                : StoreContractTest.value(rnd.nextLong(), rnd.nextInt(300));
                        if (compress && i == 75) {
                            s.compact();
                        }
                        long seq;
                        if (value == null && !oracle.states.getLast().containsKey(key)) {
                            assertEquals(-1, s.delete(key.getBytes(StandardCharsets.UTF_8)));
                            continue;
                        }
                        oracle.apply(key, value);
                        if (value == null) {
                            seq = s.delete(key.getBytes(StandardCharsets.UTF_8));
                            assertEquals(start + oracle.states.size() - 1, seq);
                        } else {
                            seq = s.put(key.getBytes(StandardCharsets.UTF_8), value);
                        }
                        if (level == Durability.ALWAYS) {
                            // the contract, not the store's own counter: put and delete return once durable
                            acked = Math.max(acked, seq);
                        }
                        if (rnd.nextInt(15) == 0) {
                            s.awaitDurable(seq);
                            acked = Math.max(acked, seq);
                        }
                        assertTrue(s.durableSequence() >= acked, "round " + round + ": " + acked
                                + " was acknowledged but durableSequence() is " + s.durableSequence());
                        acked = Math.max(acked, s.durableSequence());
                    }
                } catch (IolabException e) {
                    if (e instanceof StoreCorruptedException) {
                        throw e;
                    }
                    crashed++;
                }
                if (s != null) {
                    acked = Math.max(acked, s.durableSequence());
                }
                for (FaultyStorage f : files) {
                    synchronized (f) {
                        if (!f.isDead()) {
                            f.powerOff(rnd);
                        }
                    }
                }
                if (s != null) {
                    s.abandon();
                }
                if (oracle != null) {
                    try {
                        Store.open(file, plain).close();
                    } catch (StoreCorruptedException damaged) {
                        repaired.add("round " + round + " (" + level + ") cycle " + cycle + ": "
                                + damaged.getMessage());
                        if (checkpoint) {
                            return repaired;
                        }
                        Store.repair(file);
                    }
                    try (Store check = Store.open(file, plain)) {
                        Map<String, byte[]> now = contents(check);
                        int minOps = (int) Math.max(0, acked - start);
                        List<Integer> m = oracle.matches(now, minOps);
                        if (m.isEmpty()) {
                            fail("round " + round + " (" + backend + ", " + level + ") cycle " + cycle
                                    + ": the recovered state is no prefix of at least " + minOps + " operations of "
                                    + (oracle.states.size() - 1) + " (acknowledged " + acked + ", start " + start
                                    + ", recovered last sequence " + check.stats().lastSequence() + ")");
                        }
                        state = now;
                        acked = Math.max(acked, check.stats().lastSequence());
                    }
                    StoreReport report = Store.verify(file);
                    assertTrue(report.ok(), "round " + round + ": " + report);
                }
            }
        }
        assertTrue(crashed > 40, "the power failed inside an operation in only " + crashed + " cycles");
        return repaired;
    }
}
