package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that is closed, or whose open failed, is not kept reachable by the threads that used it. Found by
 * {@code StoreCorruptionProperties}: each thread's read context (which refers to its store) stayed in the thread's
 * thread-local map, keyed by the store's own thread-local, so neither was ever collected; its ~400 stores held
 * 475 MiB of direct buffers after the class, and the next test class ran out of direct memory.
 */
@Timeout(60)
class StoreReleaseTest {
    @TempDir
    Path tmp;

    /** Collects garbage for up to a second until {@code ref} is cleared; fails with {@code message} if it is not. */
    private static void assertCollected(WeakReference<?> ref, String message) throws InterruptedException {
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(50);
        }
        assertNull(ref.get(), message);
    }

    @Test
    void aClosedStoreIsCollectedAfterTheThreadThatReadItMovesOn() throws InterruptedException {
        Path file = tmp.resolve("closed.store");
        Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE));
        s.put("key".getBytes(StandardCharsets.UTF_8), new byte[100]);
        s.get("key".getBytes(StandardCharsets.UTF_8));
        s.close();
        WeakReference<Store> ref = new WeakReference<>(s);
        s = null;
        assertCollected(ref, "the closed store is still reachable");
    }

    @Test
    void aClosedStoreIsCollectedWhileAnotherThreadThatReadItLivesOn() throws Exception {
        Path file = tmp.resolve("read-elsewhere.store");
        Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE));
        s.put("key".getBytes(StandardCharsets.UTF_8), new byte[100]);
        java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            // the reader thread keeps running (and keeps its thread-local map) after the store is closed elsewhere
            readOn(reader, s);
            s.close();
            WeakReference<Store> ref = new WeakReference<>(s);
            s = null;
            assertCollected(ref, "a thread that read the store keeps the closed store reachable");
        } finally {
            reader.shutdownNow();
        }
    }

    private static void readOn(java.util.concurrent.ExecutorService thread, Store s) throws Exception {
        thread.submit(() -> s.get("key".getBytes(StandardCharsets.UTF_8))).get();
    }

    @Test
    void failedOpensLeaveNoDirectBuffersBehind() throws IOException, InterruptedException {
        Path file = tmp.resolve("damaged.store");
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            for (int i = 0; i < 50; i++) {
                s.put(("key" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
            }
        }
        // a garbage slot length in the middle: the rebuilding scan of every open throws
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(Slots.DATA_START + 10L * Slots.needed(4, 100));
            raf.writeInt(-1);
        }
        IndexFile.delete(file);
        long before = directBytesAfterGc();
        // 200 failed opens through the channel-direct backend: 512 KiB of direct buffers each
        for (int i = 0; i < 200; i++) {
            assertThrows(StoreCorruptedException.class, () -> Store.open(file,
                    StoreOptions.defaults().withBackend(Backend.CHANNEL_DIRECT)).close());
        }
        long after = directBytesAfterGc();
        assertTrue(after - before < 32 << 20, "200 failed opens left " + ((after - before) >> 20)
                + " MiB of direct buffers reachable");
    }

    private static long directBytesAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                if (b.getName().equals("direct")) {
                    used = Math.min(used, b.getMemoryUsed());
                }
            }
        }
        return used;
    }
}
