package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Store#openReadOnly}: reads a closed store without writing a byte of it, shares the lock with other readers
 * and keeps writers out, refuses a store that needs recovery, and works where nothing can be written.
 */
class StoreReadOnlyTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** @return every file of the store in {@code dir}, name to bytes (the lock file's too) */
    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> all = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                all.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return all;
    }

    private static void assertSameFiles(Map<String, byte[]> before, Map<String, byte[]> after) {
        assertEquals(before.keySet(), after.keySet());
        for (String name : before.keySet()) {
            assertArrayEquals(before.get(name), after.get(name), name + " changed");
        }
    }

    /** Writes a store of 3,000 records, a third deleted, some updated, closed cleanly; returns the live state. */
    private static Map<String, String> written(Path file, StoreOptions o) {
        Map<String, String> model = new HashMap<>();
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < 3000; i++) {
                String v = "value-" + i + "-" + "x".repeat(i % 97);
                s.put(b("k" + i), b(v));
                model.put("k" + i, v);
            }
            for (int i = 0; i < 3000; i += 3) {
                s.delete(b("k" + i));
                model.remove("k" + i);
            }
            for (int i = 1; i < 3000; i += 7) {
                s.put(b("k" + i), b("updated " + i));
                model.put("k" + i, "updated " + i);
            }
        }
        return model;
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void readsEveryRecordAndWritesNothing(Backend backend) throws IOException {
        for (Durability d : Durability.values()) {
            Path dir = Files.createDirectories(tmp.resolve(backend + "-" + d));
            Path file = dir.resolve("s.iolab");
            StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(d);
            Map<String, String> model = written(file, o);
            Map<String, byte[]> before = files(dir);
            try (Store s = Store.openReadOnly(file, o)) {
                assertEquals(model.size(), s.size());
                for (int i = 0; i < 3000; i++) {
                    String want = model.get("k" + i);
                    byte[] got = s.get(b("k" + i));
                    assertEquals(want, got == null ? null : new String(got, StandardCharsets.UTF_8), "k" + i);
                    assertEquals(want != null, s.contains(b("k" + i)));
                }
                Map<String, String> seen = new HashMap<>();
                s.scan((k, v) -> seen.put(StandardCharsets.UTF_8.decode(k).toString(),
                        StandardCharsets.UTF_8.decode(v).toString()));
                assertEquals(model, seen);
                assertEquals(model.size(), s.stats().liveRecords());
                for (Runnable write : new Runnable[] {() -> s.put(b("new"), b("v")), () -> s.delete(b("k1")),
                        s::sync, s::compact}) {
                    IolabException e = assertThrows(IolabException.class, write::run);
                    assertTrue(e.getMessage().contains("read-only"), e.getMessage());
                }
                assertNull(s.get(b("new")));
            }
            assertSameFiles(before, files(dir));
            try (Store s = Store.open(file, o)) { // and it is still a store its writer opens as it left it
                assertEquals(model.size(), s.size());
            }
        }
    }

    @Test
    void readersShareTheLockAndKeepWritersOut() throws IOException {
        Path file = tmp.resolve("s.iolab");
        StoreOptions o = StoreOptions.defaults();
        written(file, o);
        try (Store a = Store.openReadOnly(file, o)) {
            try (Store b = Store.openReadOnly(file, o)) {
                assertEquals(a.size(), b.size());
                assertThrows(StoreLockedException.class, () -> Store.open(file, o));
            }
            assertThrows(StoreLockedException.class, () -> Store.open(file, o)); // a still reads
            assertArrayEquals(b("updated 1"), a.get(b("k1")));
        }
        try (Store w = Store.open(file, o)) {
            w.put(b("after"), b("readers"));
            assertThrows(StoreLockedException.class, () -> Store.openReadOnly(file, o));
        }
        try (Store r = Store.openReadOnly(file, o)) {
            assertArrayEquals(b("readers"), r.get(b("after")));
        }
    }

    /**
     * Refused opens and verifies in the writer's own process leave its lock in place for other processes (closing
     * any descriptor of the lock file used to release the process's POSIX lock: a second writer then got in).
     */
    @Test
    void refusedOpensBesideAWriterLeaveItsLockForOtherProcesses() throws Exception {
        Path file = tmp.resolve("s.iolab");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        try (Store w = Store.open(file, o)) {
            w.put(b("a"), b("1"));
            assertThrows(StoreLockedException.class, () -> Store.verify(file));
            assertThrows(StoreLockedException.class, () -> Store.openReadOnly(file, o));
            assertThrows(StoreLockedException.class, () -> Store.open(file, o));
            assertEquals("refused", org.iolab.storage.LockFileProbe.inChild("exclusive", tmp.resolve("s.iolab.lock")),
                    "another process could take the writer's lock");
            w.put(b("b"), b("2"));
        }
        try (Store r = Store.openReadOnly(file, o)) {
            assertArrayEquals(b("2"), r.get(b("b")));
        }
    }

    @Test
    void aStoreThatNeedsRecoveryIsRefusedUntouchedAndReadableOnceAWriterRecoveredIt() throws IOException {
        Path file = tmp.resolve("s.iolab");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.ALWAYS);
        written(file, o);
        Store w = Store.open(file, o);
        w.put(b("late"), b("acknowledged"));
        w.abandon(); // a crash: the put is only in the redo log and the page cache
        Map<String, byte[]> before = files(tmp);
        StoreRecoveryNeededException e = assertThrows(StoreRecoveryNeededException.class,
                () -> Store.openReadOnly(file, o));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("open it for writing"), e.getMessage());
        assertSameFiles(before, files(tmp));
        Store.open(file, o).close();
        try (Store r = Store.openReadOnly(file, o)) {
            assertArrayEquals(b("acknowledged"), r.get(b("late")));
        }
    }

    @Test
    void badFilesAreRefusedAndNoLockFileIsLeftBehind() throws IOException {
        Path text = tmp.resolve("notes.txt");
        Files.writeString(text, "root:x:0:0:root:/root:/bin/bash\n");
        StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                () -> Store.openReadOnly(text, StoreOptions.defaults()));
        assertTrue(e.getMessage().contains("not an iolab store"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("notes.txt.lock")), "a lock file was left next to a foreign file");
        assertEquals("root:x:0:0:root:/root:/bin/bash\n", Files.readString(text));
        IolabException missing = assertThrows(IolabException.class,
                () -> Store.openReadOnly(tmp.resolve("missing.iolab"), StoreOptions.defaults()));
        assertTrue(missing.getMessage().contains("no store file"), missing.getMessage());
        assertFalse(Files.exists(tmp.resolve("missing.iolab")));
        assertFalse(Files.exists(tmp.resolve("missing.iolab.lock")));
        IolabException folder = assertThrows(IolabException.class,
                () -> Store.openReadOnly(tmp, StoreOptions.defaults()));
        assertTrue(folder.getMessage().contains("is a directory"), folder.getMessage());
        Path zeros = tmp.resolve("zeros.iolab");
        Files.write(zeros, new byte[8192]); // an interrupted creation: only a writer's open finishes it
        assertThrows(StoreRecoveryNeededException.class, () -> Store.openReadOnly(zeros, StoreOptions.defaults()));
        assertArrayEquals(new byte[8192], Files.readAllBytes(zeros));
    }

    /** On a read-only file system, with no lock file (a copied store): the writer's open fails, a reader's works. */
    @Test
    void readsAStoreOnAReadOnlyFileSystem() throws Exception {
        try (SmallDisk disk = SmallDisk.mountIn(tmp)) {
            Path file = disk.path().resolve("s.iolab");
            StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
            Map<String, String> model = new HashMap<>();
            try (Store s = Store.open(file, o)) {
                for (int i = 0; i < 500; i++) {
                    s.put(b("k" + i), b("v" + i));
                    model.put("k" + i, "v" + i);
                }
            }
            Files.delete(disk.path().resolve("s.iolab.lock"));
            disk.makeReadOnly();
            assertThrows(IolabException.class, () -> Store.open(file, o));
            for (Backend backend : Backend.values()) {
                try (Store r = Store.openReadOnly(file, o.withBackend(backend))) {
                    assertEquals(500, r.size());
                    for (Map.Entry<String, String> en : model.entrySet()) {
                        assertArrayEquals(b(en.getValue()), r.get(b(en.getKey())), backend + " " + en.getKey());
                    }
                }
            }
        }
    }
}
