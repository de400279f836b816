package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The store's public API at its edges: writers among busy readers, batch bounds, the compaction's sizes, null
 * arguments, calls after close, and the Employee example's codec on short records.
 */
@Timeout(120)
class StoreApiContractTest {
    @TempDir
    Path tmp;

    private Path file() {
        return tmp.resolve("data.store");
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // D1: writers starve behind overlapping readers
    @Test
    void writersAreNotStarvedByReaders() throws Exception {
        Store s = Store.open(file(), StoreOptions.defaults());
        for (int i = 0; i < 100; i++) {
            s.put(b("k" + i), new byte[20_000]);
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Thread th = new Thread(() -> {
                int i = 0;
                while (!stop.get()) {
                    try {
                        if (i++ % 2 == 0) {
                            s.get(b("k" + (i % 100)));
                        } else {
                            s.scan((k, v) -> { });
                        }
                    } catch (IolabException closed) {
                        return;
                    }
                }
            });
            th.start();
            readers.add(th);
        }
        Thread.sleep(200);
        long worstPut = 0;
        for (int i = 0; i < 20; i++) {
            long t0 = System.nanoTime();
            s.put(b("w" + i), b("x"));
            worstPut = Math.max(worstPut, System.nanoTime() - t0);
        }
        long t0 = System.nanoTime();
        s.close();
        long closeNanos = System.nanoTime() - t0;
        stop.set(true);
        for (Thread th : readers) {
            th.join();
        }
        assertTrue(worstPut < 2_000_000_000L && closeNanos < 2_000_000_000L,
                "with 3 reading threads, the slowest put took " + worstPut / 1_000_000 + " ms and close "
                        + closeNanos / 1_000_000 + " ms");
    }

    // D2: StoreOptions.withBatch accepts what the redo log refuses; the first put then poisons the store
    @Test
    void aBatchIntervalTheRedoLogRefusesIsRefusedByTheOptions() {
        assertThrows(IolabException.class, () -> StoreOptions.defaults().withBatch(Duration.ofDays(2), 1));
    }

    @Test
    void anAcceptedBatchIntervalDoesNotPoisonTheFirstPut() {
        StoreOptions o;
        try {
            o = StoreOptions.defaults().withBatch(Duration.ofDays(2), 1);
        } catch (IolabException refused) {
            return; // fixed the right way
        }
        try (Store s = Store.open(file(), o)) {
            assertDoesNotThrow(() -> s.put(b("k"), b("v")));
            assertDoesNotThrow(() -> s.put(b("k2"), b("v"))); // today: "failed earlier and can no longer write"
        }
    }

    @Test
    void aHugeBatchIntervalGetsTheLibrarysErrorNotArithmeticException() {
        assertThrows(IolabException.class,
                () -> StoreOptions.defaults().withBatch(Duration.ofSeconds(Long.MAX_VALUE), 1));
    }

    // D3: CompactResult.sizeBefore is measured after compact()'s own checkpoint
    @Test
    void compactResultSizeBeforeIsTheFileSizeBeforeTheCompaction() {
        try (Store s = Store.open(file(), StoreOptions.defaults().withDurability(Durability.NONE))) {
            s.put(b("a"), new byte[100]);
            s.put(b("b"), new byte[10_000]);
            s.delete(b("b")); // a hole at the end of the data
            long before = s.stats().fileSize(); // 14240
            CompactResult r = s.compact();
            assertEquals(before, r.sizeBefore(), r.toString()); // today: sizeBefore=4216, sizeAfter=4216
        }
    }

    // D4
    @ParameterizedTest
    @EnumSource(Backend.class)
    void statsFileSizeIsTheLogicalSizeTheFileHasOnceClosed(Backend backend) throws Exception {
        long logical;
        try (Store s = Store.open(file(), StoreOptions.defaults().withBackend(backend))) {
            s.put(b("a"), new byte[100]);
            logical = s.stats().fileSize();
            assertTrue(Files.size(file()) >= logical, "a mapping backend's file is longer while open, never shorter");
        }
        assertEquals(Files.size(file()), logical, backend.toString());
    }

    // D5: null arguments give bare NullPointerExceptions
    @Test
    void getWithANullVisitorGetsAClearError() {
        try (Store s = Store.open(file(), StoreOptions.defaults())) {
            s.put(b("k"), b("v"));
            IolabException e = assertThrows(IolabException.class, () -> s.get(ByteBuffer.wrap(b("k")), null));
            assertTrue(e.getMessage().contains("visitor"), e.getMessage());
        }
    }

    @Test
    void scanWithANullVisitorGetsAClearError() {
        try (Store s = Store.open(file(), StoreOptions.defaults())) {
            s.put(b("k"), b("v"));
            IolabException e = assertThrows(IolabException.class, () -> s.scan(null));
            assertTrue(e.getMessage().contains("visitor"), e.getMessage());
        }
    }

    @Test
    void openWithNullOptionsGetsAClearErrorAndReleasesTheLock() {
        IolabException e = assertThrows(IolabException.class, () -> Store.open(file(), null));
        assertTrue(e.getMessage().contains("options"), e.getMessage());
        assertDoesNotThrow(() -> Store.open(file(), StoreOptions.defaults()).close());
    }

    @Test
    void nullBackendOrDurabilityIsRefusedWithTheLibrarysType() {
        assertThrows(IolabException.class, () -> StoreOptions.defaults().withBackend(null));
        assertThrows(IolabException.class, () -> StoreOptions.defaults().withDurability(null));
    }

    @Test
    void typedStoreRefusesNullCodecsWhenBuilt() {
        try (Store s = Store.open(file(), StoreOptions.defaults())) {
            assertThrows(IolabException.class, () -> new TypedStore<String, String>(s, null, TypedStore.utf8()));
            assertThrows(IolabException.class, () -> new TypedStore<String, String>(s, TypedStore.utf8(), null));
        }
    }

    @Test
    void typedStoreGetOfAKeyCodecReturningNullGetsTheSameErrorAsPut() {
        Codec<String> nullKeys = new Codec<>() {
            @Override
            public byte[] encode(String value) {
                return null;
            }

            @Override
            public String decode(ByteBuffer bytes) {
                return "";
            }
        };
        try (TypedStore<String, String> t = new TypedStore<>(Store.open(file(), StoreOptions.defaults()), nullKeys,
                TypedStore.utf8())) {
            IolabException put = assertThrows(IolabException.class, () -> t.put("a", "b"));
            assertTrue(put.getMessage().contains("null key"), put.getMessage());
            IolabException get = assertThrows(IolabException.class, () -> t.get("a")); // NPE in ByteBuffer.wrap
            assertTrue(get.getMessage().contains("null key"), get.getMessage());
        }
    }

    // D6: size() and stats() answer after close(); contains/get/scan/put say "closed"
    @Test
    void sizeAndStatsAfterCloseSayTheStoreIsClosed() {
        Store s = Store.open(file(), StoreOptions.defaults());
        s.put(b("k"), b("v"));
        s.close();
        assertThrows(IolabException.class, () -> s.contains(b("k")));
        IolabException size = assertThrows(IolabException.class, s::size); // today: returns 1
        assertTrue(size.getMessage().contains("closed"), size.getMessage());
        IolabException stats = assertThrows(IolabException.class, s::stats); // today: fileSize 0, the rest stale
        assertTrue(stats.getMessage().contains("closed"), stats.getMessage());
    }

    // D7: the Employee example's codec throws BufferUnderflowException on a short value
    @Test
    void employeeDecodeOfATruncatedValueGetsAClearError() {
        byte[] full = Employee.VALUE.encode(Employee.of(1));
        for (int n = 0; n < full.length; n++) {
            int len = n;
            assertThrows(IllegalArgumentException.class, () -> Employee.VALUE.decode(ByteBuffer.wrap(full, 0, len)),
                    len + " bytes");
        }
    }
}
