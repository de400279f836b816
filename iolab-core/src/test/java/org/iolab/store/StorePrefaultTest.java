package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.testing.MappedRss;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A store that writes into a mapping has a background thread fault in the pages past its data end; it follows the
 * mapping through growths and compactions (the records read back) and is gone once the store is closed.
 */
class StorePrefaultTest {
    @TempDir
    Path dir;

    private boolean prefaulting(Path file) {
        String name = "iolab-store-prefault " + file;
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[100 + i % 200];
        for (int j = 0; j < v.length; j++) {
            v[j] = (byte) (i * 31 + j);
        }
        return v;
    }

    @Test
    void pagesPastTheDataEndAreFaultedInWithoutTheWriterTouchingThem() throws Exception {
        Path file = dir.resolve("s.iolab");
        try (Store s = Store.open(file, StoreOptions.defaults().withBackend(Backend.SEGMENT)
                .withDurability(Durability.NONE))) {
            for (int i = 0; i < 200; i++) {
                s.put(key(i), value(i));
            }
            long size = Files.size(file);
            long written = s.stats().dataEnd();
            assertTrue(size >= 1 << 20 && written < 64 << 10,
                    "the file is allocated a step ahead of its data: " + size + " vs " + written);
            // the writer touched the pages of its ~40 KiB; the rest of the allocated MiB is only ever touched by the
            // prefaulter
            long deadline = System.nanoTime() + 20_000_000_000L;
            long rss;
            while ((rss = MappedRss.of(file)) < size - (64 << 10) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Assumptions.assumeTrue(rss >= 0, "the mapping shows in /proc/self/smaps");
            assertTrue(rss >= size - (64 << 10), "mapped pages: " + rss + " of " + size);
        }
        assertFalse(prefaulting(file), "no prefaulter after close");
    }

    @Test
    void aPutIntoAHoleDoesNotFaultInThePagesBetweenItAndTheDataEnd() throws Exception {
        Path file = dir.resolve("h.iolab");
        StoreOptions o = StoreOptions.defaults().withBackend(Backend.SEGMENT).withDurability(Durability.NONE);
        int n = 30_000; // about 7 MiB of slots
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < n; i++) {
                s.put(key(i), value(i));
            }
            for (int i = 0; i < 50; i++) {
                s.delete(key(i)); // holes at the start of the file
            }
        }
        try (Store s = Store.open(file, o)) {
            long end = s.stats().dataEnd();
            s.put(key(0), value(0)); // fits the first hole exactly
            assertTrue(s.stats().dataEnd() == end, "the put reused a hole");
            Thread.sleep(300); // the prefaulter's time to do whatever it was asked
            long rss = MappedRss.of(file);
            Assumptions.assumeTrue(rss >= 0, "the mapping shows in /proc/self/smaps");
            assertTrue(rss < end / 4, "mapped " + rss + " of a data end at " + end
                    + ": the prefaulter went over the pages between the hole and the data end");
            assertArrayEquals(value(0), s.get(key(0)));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void recordsWrittenAcrossGrowthsAndACompactionReadBack(Backend backend) {
        Path file = dir.resolve("g-" + backend.label() + ".iolab");
        StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(Durability.NONE);
        int n = 40_000; // about 9 MiB of slots: growths of 1, 2, 4 and 8 MiB remap the file
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < n; i++) {
                s.put(key(i), value(i));
            }
            for (int i = 0; i < n; i += 2) {
                s.delete(key(i));
            }
            s.compact();
            for (int i = n; i < n + 5_000; i++) {
                s.put(key(i), value(i));
            }
            if (backend != Backend.SEGMENT) {
                // only the segment backend hands the store a mapping to write into (a prefaulter over the whole
                // mapping ends once it has faulted in all of it, so its absence proves nothing there)
                assertFalse(prefaulting(file), "a prefaulter runs only over a mapping");
            }
        }
        assertFalse(prefaulting(file), "no prefaulter after close");
        try (Store s = Store.open(file, o)) {
            assertEquals(n / 2 + 5_000, s.size());
            for (int i = 0; i < n + 5_000; i++) {
                byte[] v = s.get(key(i));
                if (i < n && i % 2 == 0) {
                    assertEquals(null, v, "deleted " + i);
                } else {
                    assertArrayEquals(value(i), v, "record " + i);
                }
            }
        }
    }
}
