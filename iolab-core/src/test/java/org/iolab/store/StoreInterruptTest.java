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

    /**
     * Reader threads interrupted at random while they get (cancelled requests) and a writer that puts and syncs: an
     * interrupt inside a file call used to close the data file's channel for every thread, failing the writer's next
     * put or sync and the other readers. Now nobody fails, every get returns a value the writer put, and the store
     * holds every put after a reopen.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void readersInterruptedDuringGetsFailNeitherTheWriterNorEachOther(Backend backend) throws Exception {
        for (Durability d : new Durability[] {Durability.NONE, Durability.BATCH}) {
            Path f = tmp.resolve(backend.label() + "-" + d + ".store");
            StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(d);
            int keys = 500;
            int rounds;
            java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures =
                    new java.util.concurrent.ConcurrentLinkedQueue<>();
            java.util.concurrent.atomic.AtomicLong kept = new java.util.concurrent.atomic.AtomicLong();
            try (Store store = Store.open(f, o)) {
                for (int i = 0; i < keys; i++) {
                    store.put(b("k" + i), value(i, 0));
                }
                java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
                java.util.List<Thread> readers = new java.util.ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    int seed = r;
                    readers.add(Thread.ofPlatform().start(() -> {
                        int i = seed;
                        while (!stop.get()) {
                            i = (i * 31 + 7) % keys;
                            try {
                                byte[] v = store.get(b("k" + i));
                                if (v == null || ByteBuffer.wrap(v).getInt(0) != i) {
                                    throw new AssertionError("k" + i + ": " + (v == null ? "absent" : "another value"));
                                }
                            } catch (Throwable t) {
                                failures.add(t);
                                return;
                            }
                            if (Thread.interrupted()) {
                                kept.incrementAndGet();
                            }
                        }
                    }));
                }
                Thread interrupter = Thread.ofPlatform().start(() -> {
                    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
                    while (!stop.get()) {
                        readers.get(rnd.nextInt(readers.size())).interrupt();
                        java.util.concurrent.locks.LockSupport.parkNanos(10_000 + rnd.nextInt(100_000));
                    }
                });
                rounds = 0;
                long until = System.nanoTime() + 700_000_000L;
                try {
                    while (System.nanoTime() < until && failures.isEmpty()) {
                        rounds++;
                        for (int i = 0; i < keys; i++) {
                            store.put(b("k" + i), value(i, rounds));
                        }
                        store.sync();
                    }
                } finally {
                    stop.set(true);
                    interrupter.join();
                    for (Thread t : readers) {
                        t.join();
                    }
                }
            }
            assertTrue(failures.isEmpty(), backend + " " + d + ": " + failures.peek());
            assertTrue(kept.get() > 0, "no get was interrupted (the test proves nothing)");
            assertFalse(Files.exists(Store.failedOf(f)), "no failed-sync note");
            try (Store again = Store.open(f, o)) {
                for (int i = 0; i < keys; i++) {
                    assertArrayEquals(value(i, rounds), again.get(b("k" + i)), "k" + i);
                }
            }
        }
    }

    private static byte[] value(int key, int round) {
        return ByteBuffer.allocate(300).putInt(0, key).putInt(4, round).array();
    }
}
