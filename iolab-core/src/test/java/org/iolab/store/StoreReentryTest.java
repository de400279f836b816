package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Calls into a store from inside one of its visitors, and an index checkpoint turned off after one was written (both
 * found by a review; each failed before its fix: a nested get overwrote the bytes the outer visitor was reading, a
 * put from a visitor waited forever for the read lock the visitor held, and a store opened without checkpoints
 * deleted the FILE.idx its loaded index still read from).
 */
@Timeout(60)
class StoreReentryTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(ByteBuffer v) {
        return StandardCharsets.UTF_8.decode(v.duplicate()).toString();
    }

    /** Writes keys k0..k1999 with values v0..v1999 and closes the store, which checkpoints it (FILE.idx). */
    private static void fill(Path f) {
        try (Store s = Store.open(f, StoreOptions.defaults())) {
            for (int i = 0; i < 2000; i++) {
                s.put(b("k" + i), b("v" + i));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aVisitorThatCallsItsStoreIsRefusedAndTheViewItReadsIsUntouched(Backend backend) {
        try (Store s = Store.open(tmp.resolve("r.store"), StoreOptions.defaults().withBackend(backend))) {
            s.put(b("ka"), b("AAAAAAAA"));
            s.put(b("kb"), b("BBBBBBBB"));
            List<Consumer<Store>> calls = List.of(st -> st.get(b("kb")), st -> st.contains(b("kb")),
                    st -> st.get(ByteBuffer.wrap(b("kb")), v -> { }), st -> st.put(b("kc"), b("C")),
                    st -> st.delete(b("kb")), st -> st.scan((k, v) -> { }), Store::size, Store::stats, Store::sync,
                    Store::compact, Store::close);
            for (Consumer<Store> call : calls) {
                List<String> seen = new ArrayList<>();
                s.get(ByteBuffer.wrap(b("ka")), v -> {
                    IolabException e = assertThrows(IolabException.class, () -> call.accept(s));
                    assertTrue(e.getMessage().contains("inside one of its visitors"), e.getMessage());
                    seen.add(s(v));
                });
                assertEquals(List.of("AAAAAAAA"), seen, "the outer view after a refused call");
                long[] n = {0};
                s.scan((k, v) -> {
                    assertThrows(IolabException.class, () -> call.accept(s));
                    n[0]++;
                });
                assertEquals(2, n[0]);
            }
            assertArrayEquals(b("BBBBBBBB"), s.get(b("kb")), "the store works after the refusals");
            assertEquals(2, s.size());
            s.put(b("kc"), b("C"));
            assertEquals(3, s.size());
        }
    }

    @Test
    void aStoreOpenedWithoutCheckpointsAfterOneWasWrittenStillFindsEveryKeyAfterItsOwnCheckpoint() {
        Path f = tmp.resolve("a.store");
        fill(f);
        StoreOptions off = StoreOptions.defaults().withDurability(Durability.NONE).withCheckpoint(false);
        try (Store s = Store.open(f, off)) {
            s.put(b("new"), b("x"));
            s.sync(); // at NONE a checkpoint, which (without checkpoints) deletes FILE.idx
            for (int i = 0; i < 2000; i++) {
                assertArrayEquals(b("v" + i), s.get(b("k" + i)), "k" + i);
            }
            assertArrayEquals(b("x"), s.get(b("new")));
        }
        try (Store s = Store.open(f, StoreOptions.defaults())) {
            assertEquals(2001, s.size());
            assertArrayEquals(b("v1999"), s.get(b("k1999")));
        }
    }

    @Test
    void aRecoveryWithoutCheckpointsLeavesAnIndexThatFindsEveryKey() {
        Path f = tmp.resolve("c.store");
        fill(f);
        Store crashed = Store.open(f, StoreOptions.defaults().withDurability(Durability.ALWAYS));
        crashed.put(b("new"), b("x"));
        crashed.abandon(); // the process dies: the redo log holds the put, the header says open
        try (Store s = Store.open(f, StoreOptions.defaults().withCheckpoint(false))) {
            assertArrayEquals(b("x"), s.get(b("new")));
            for (int i = 0; i < 2000; i++) {
                assertArrayEquals(b("v" + i), s.get(b("k" + i)), "k" + i);
            }
        }
    }
}
