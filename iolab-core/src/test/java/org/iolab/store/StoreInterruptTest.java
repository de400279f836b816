package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread whose interrupt status is set (a cancelled task that kept it) calls the store: the call works, the status
 * is kept, and the store stays usable for every thread. A review of the library's API found that such a call closed
 * the data file's channel: a sync failed the store for good, a reader thread's get on a channel backend broke the
 * writer's next put, and close threw.
 */
class StoreInterruptTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Runs {@code r} with the interrupt status set, and checks that the status is still set after it. */
    private static void interrupted(Runnable r) {
        Thread.currentThread().interrupt();
        try {
            r.run();
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt status is kept (and cleared here)");
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void callsWithAnInterruptPendingWorkAndKeepIt(Backend backend) throws Exception {
        for (Durability d : Durability.values()) {
            Path f = tmp.resolve(backend.label() + "-" + d + ".store");
            StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(d);
            Store[] s = new Store[1];
            interrupted(() -> s[0] = Store.open(f, o));
            Store store = s[0];
            try {
                interrupted(() -> {
                    for (int i = 0; i < 2000; i++) {
                        store.put(b("k" + i), new byte[600]); // grows the file: remaps, new pages
                    }
                });
                interrupted(store::sync);
                interrupted(() -> assertArrayEquals(new byte[600], store.get(b("k7"))));
                interrupted(() -> assertTrue(store.contains(b("k8"))));
                interrupted(() -> assertEquals(2000, store.scan((k, v) -> { })));
                interrupted(() -> store.get(ByteBuffer.wrap(b("k9")), v -> assertEquals(600, v.remaining())));
                interrupted(() -> store.delete(b("k1")));
                // a reader thread with its interrupt status set
                AtomicReference<Throwable> failed = new AtomicReference<>();
                Thread reader = Thread.ofPlatform().start(() -> {
                    Thread.currentThread().interrupt();
                    try {
                        assertArrayEquals(new byte[600], store.get(b("k5")));
                        assertTrue(Thread.currentThread().isInterrupted());
                    } catch (Throwable t) {
                        failed.set(t);
                    }
                });
                reader.join();
                assertEquals(null, failed.get());
                store.put(b("after"), b("reader")); // the writer goes on
                interrupted(store::compact);
            } finally {
                interrupted(store::close);
            }
            assertFalse(Files.exists(Store.failedOf(f)), "no failed-sync note");
            try (Store again = Store.open(f, o)) {
                assertEquals(2000, again.size());
                assertArrayEquals(b("reader"), again.get(b("after")));
            }
            interrupted(() -> assertTrue(Store.verify(f).ok()));
        }
    }
}
