package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A damaged, cut or stale FILE.idx is never trusted: the open scans instead, and every value stays right. */
@Timeout(300)
class StoreIndexFuzzTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, String> fill(Path f, StoreOptions o, int n) {
        Map<String, String> m = new HashMap<>();
        try (Store s = Store.open(f, o)) {
            churn(s, m, new SplittableRandom(3), n, n / 2, 4, "v");
        }
        return m;
    }

    /**
     * {@code ops} random puts (values {@code tag + i} and up to 60 bytes more) and deletes (one in {@code deleteOneIn})
     * of {@code keys} keys, each also done to {@code m}.
     */
    private static void churn(Store s, Map<String, String> m, SplittableRandom r, int ops, int keys, int deleteOneIn,
            String tag) {
        for (int i = 0; i < ops; i++) {
            String k = "k" + r.nextInt(keys);
            if (r.nextInt(deleteOneIn) == 0) {
                s.delete(b(k));
                m.remove(k);
            } else {
                String v = tag + i + "x".repeat(r.nextInt(60));
                s.put(b(k), b(v));
                m.put(k, v);
            }
        }
    }

    private static void check(Path f, StoreOptions o, Map<String, String> m, String what) {
        try (Store s = Store.open(f, o)) {
            assertEquals(m.size(), s.size(), what);
            for (Map.Entry<String, String> e : m.entrySet()) {
                assertArrayEquals(b(e.getValue()), s.get(b(e.getKey())), what + " " + e.getKey());
            }
            s.put(b("fresh"), b("x".repeat(30)));
            for (Map.Entry<String, String> e : m.entrySet()) {
                assertArrayEquals(b(e.getValue()), s.get(b(e.getKey())), what + " after put " + e.getKey());
            }
            s.delete(b("fresh"));
        } catch (IolabException e) {
            // typed: acceptable only if it names damage; but a damaged FILE.idx alone must not stop an open
            throw new AssertionError(what + ": " + e, e);
        }
    }

    @Test
    void bitFlipsAndCutsOfTheCheckpointAreNeverTrusted() throws Exception {
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        Path f = tmp.resolve("f.store");
        Map<String, String> m = fill(f, o, 400);
        Path idx = IndexFile.of(f);
        byte[] good = Files.readAllBytes(idx);
        byte[] data = Files.readAllBytes(f);
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < good.length; i += 1 + r.nextInt(7)) {
            byte[] bad = good.clone();
            bad[i] ^= (byte) (1 << r.nextInt(8));
            Files.write(idx, bad);
            Files.write(f, data);
            check(f, o, m, "flip at " + i);
        }
        for (int len : new int[] {0, 7, 80, 88, good.length / 2, good.length - 8, good.length - 1}) {
            Files.write(idx, java.util.Arrays.copyOf(good, len));
            Files.write(f, data);
            check(f, o, m, "cut to " + len);
        }
    }

    /** Crash after the new FILE.idx is renamed into place and before the header says clean. */
    @Test
    void aCrashBetweenTheCheckpointAndTheCleanHeader() throws Exception {
        for (Durability d : new Durability[] {Durability.NONE, Durability.BATCH}) {
            StoreOptions o = StoreOptions.defaults().withDurability(d);
            Path dir = Files.createDirectories(tmp.resolve(d.name()));
            Path f = dir.resolve("f.store");
            Map<String, String> m = fill(f, o, 300);
            Path snap = Files.createDirectories(dir.resolve("snap"));
            try (Store s = Store.open(f, o)) {
                churn(s, m, new SplittableRandom(5), 200, 200, 3, "w");
                if (d != Durability.NONE) {
                    s.awaitDurable(s.stats().lastSequence());
                }
                copyStore(dir, snap, "f.store");
            }
            // the closed store's new FILE.idx beside the data file and redo log as they were before the close
            Files.copy(IndexFile.of(f), snap.resolve("f.store.idx"), StandardCopyOption.REPLACE_EXISTING);
            check(snap.resolve("f.store"), o, m, d + " crash before the clean header");
        }
    }

    private static void copyStore(Path from, Path to, String name) throws Exception {
        Files.copy(from.resolve(name), to.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        Path wal = from.resolve(name + ".wal");
        if (Files.isDirectory(wal)) {
            Path w = Files.createDirectories(to.resolve(name + ".wal"));
            try (var st = Files.list(wal)) {
                for (Path p : st.toList()) {
                    Files.copy(p, w.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        if (Files.exists(from.resolve(name + ".idx"))) {
            Files.copy(from.resolve(name + ".idx"), to.resolve(name + ".idx"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
