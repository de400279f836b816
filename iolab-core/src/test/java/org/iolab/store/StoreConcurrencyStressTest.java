package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One writer (put, delete, sync, compact, growth by large values) and several readers (get, get with a
 * visitor, contains, scan, size, stats) at once. Each value names its key and version and is derived from them, so a
 * reader checks every byte; per key the writer publishes, after each operation returns, what the key holds, and a
 * reader whose read lies between two equal snapshots of that state must see exactly it.
 */
@Timeout(600)
class StoreConcurrencyStressTest {
    static final int KEYS = 300;
    static final long IN_PROGRESS = Long.MIN_VALUE;
    /** What a reader that finds no value reports; a key's state is this before its first put, below it once deleted. */
    static final long DELETED = -1;

    @TempDir
    Path tmp;

    static byte[] key(int k) {
        return ("key-" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A value: key id, version, length, then bytes derived from them. */
    static byte[] value(int k, long version, int length) {
        int n = Math.max(16, length);
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(k).putLong(version).putInt(n);
        long x = (k * 31L + version) * 0x9E3779B97F4A7C15L + 1;
        while (b.hasRemaining()) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b.put((byte) x);
        }
        return b.array();
    }

    /** @return the version the value holds, after checking every byte of it; fails on a torn or foreign value */
    static long check(int k, ByteBuffer v, String where) {
        ByteBuffer b = v.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int n = b.remaining();
        if (n < 16) {
            throw new AssertionError(where + ": value of key " + k + " is " + n + " bytes long");
        }
        int p = b.position();
        int kk = b.getInt(p);
        long version = b.getLong(p + 4);
        int len = b.getInt(p + 12);
        if (kk != k || len != n) {
            throw new AssertionError(where + ": value of key " + k + " names key " + kk + ", length " + len
                    + " (has " + n + ")");
        }
        byte[] expect = value(k, version, n);
        byte[] got = new byte[n];
        b.get(got);
        if (!Arrays.equals(expect, got)) {
            throw new AssertionError(where + ": value of key " + k + " version " + version + " is torn or wrong");
        }
        return version;
    }

    static int length(Random rnd) {
        int r = rnd.nextInt(100);
        if (r < 60) {
            return 16 + rnd.nextInt(100);
        }
        if (r < 90) {
            return 16 + rnd.nextInt(1500);
        }
        if (r < 99) {
            return 4096 + rnd.nextInt(60_000);
        }
        return rnd.nextInt(4) == 0 ? 200_000 + rnd.nextInt(1_500_000) : 16 + rnd.nextInt(100); // growth: remaps
    }

    @ParameterizedTest
    @MethodSource("org.iolab.store.StoreContractTest#configs")
    void readersSeeExactlyWhatTheWriterPublished(Backend backend, Durability durability) throws Exception {
        Path file = tmp.resolve("s.store");
        StoreOptions options = StoreOptions.defaults().withBackend(backend).withDurability(durability)
                .withBatch(Duration.ofMillis(2), 64 << 10).withRedoLimit(512 << 10);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(durability == Durability.ALWAYS ? 1500 : 1000);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (Store s = Store.open(file, options)) {
            AtomicLongArray state = new AtomicLongArray(KEYS);
            for (int k = 0; k < KEYS; k++) {
                state.set(k, DELETED);
            }
            AtomicBoolean stop = new AtomicBoolean();
            int readers = 3;
            CountDownLatch started = new CountDownLatch(readers);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < readers; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    Random rnd = new Random(id);
                    started.countDown();
                    try {
                        long n = 0;
                        while (!stop.get()) {
                            int k = rnd.nextInt(KEYS);
                            long before = state.get(k);
                            int how = rnd.nextInt(400) == 0 ? 19 : rnd.nextInt(19);
                            long seen;
                            if (how < 12) {
                                byte[] v = s.get(key(k));
                                seen = v == null ? DELETED : check(k, ByteBuffer.wrap(v), "get");
                            } else if (how < 17) {
                                long[] out = {DELETED};
                                boolean found = s.get(ByteBuffer.wrap(key(k)), v -> out[0] = check(k, v, "visit"));
                                seen = found ? out[0] : DELETED;
                            } else if (how < 19) {
                                seen = s.contains(key(k)) ? Long.MAX_VALUE : DELETED;
                            } else {
                                boolean[] dup = new boolean[KEYS];
                                s.scan((kb, vb) -> {
                                    byte[] kk = new byte[kb.remaining()];
                                    kb.get(kk);
                                    int id2 = Integer.parseInt(new String(kk).substring(4));
                                    if (dup[id2]) {
                                        throw new AssertionError("scan visited key " + id2 + " twice");
                                    }
                                    dup[id2] = true;
                                    check(id2, vb, "scan");
                                });
                                s.size();
                                s.stats();
                                continue;
                            }
                            long after = state.get(k);
                            // every published state is unique (a delete's too), so an unchanged state means no
                            // write landed in between: with one "deleted" value, a put then a delete inside the
                            // read left it equal, and a value read in between failed the test for nothing
                            if (before == after && before != IN_PROGRESS) {
                                boolean deleted = before <= DELETED;
                                if (seen == Long.MAX_VALUE) {
                                    if (deleted) {
                                        throw new AssertionError("contains found deleted key " + k);
                                    }
                                } else if (deleted ? seen != DELETED : seen != before) {
                                    throw new AssertionError("key " + k + ": published " + before + ", read " + seen
                                            + " (how " + how + ")");
                                }
                            }
                            n++;
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "reader-" + t);
                threads.add(th);
                th.start();
            }
            assertTrue(started.await(30, TimeUnit.SECONDS));
            Random rnd = new Random(42);
            long version = 0;
            while (System.nanoTime() < deadline && errors.isEmpty()) {
                int k = rnd.nextInt(KEYS);
                int r = rnd.nextInt(1000);
                state.set(k, IN_PROGRESS);
                if (r < 250) {
                    s.delete(key(k));
                    state.set(k, DELETED - ++version); // below DELETED, and never published before
                } else {
                    long v = ++version;
                    long seq = s.put(key(k), value(k, v, length(rnd)));
                    state.set(k, v);
                    if (durability != Durability.NONE && rnd.nextInt(50) == 0) {
                        s.awaitDurable(seq);
                        assertTrue(s.durableSequence() >= seq);
                    }
                }
                if (r == 999 && rnd.nextInt(4) == 0) {
                    s.compact();
                } else if (r >= 990) {
                    s.sync();
                }
            }
            stop.set(true);
            for (Thread th : threads) {
                th.join(60_000);
            }
        }
        if (!errors.isEmpty()) {
            Throwable first = errors.peek();
            first.printStackTrace();
            fail("reader failed (" + errors.size() + " errors): " + first, first);
        }
        StoreReport report = Store.verify(file);
        assertTrue(report.ok(), report.toString());
    }
}
