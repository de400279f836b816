package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.iolab.journal.JournalTestAccess;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A redo log that lost acknowledged operations (its last segment cut after they were synced: damage, not a crash,
 * which never loses a synced record) while the data file holds them: the index the checkpoint and the rest of the
 * log give points at slots those operations freed or reused. Verify reports it, open refuses it before it writes
 * anything (replaying the rest of the log and cutting the file at its data end would destroy what the log lost), and
 * repair rebuilds the index from the data file and keeps every operation.
 */
@Timeout(60)
class StoreRedoLossTest {
    private static final int KEYS = 40;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"SEGMENT", "CHANNEL_HEAP"})
    void aRedoLogCutAfterAcknowledgedOperationsIsFoundByVerifyAndOpenAndRepairKeepsThem(Backend backend)
            throws IOException {
        cutRedoLog(backend, false);
    }

    /**
     * The same cut below the redo segment's synced mark: the journal itself sees that records it had synced are gone,
     * and the store reports it with its own advice (its repair, which keeps what the data file holds).
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"SEGMENT", "CHANNEL_HEAP"})
    void aRedoLogCutBelowItsSyncedMarkIsRefusedAndRepairKeepsEveryOperation(Backend backend) throws IOException {
        cutRedoLog(backend, true);
    }

    /** @param marked the redo segment's synced mark covers the records cut (else it has none) */
    private void cutRedoLog(Backend backend, boolean marked) throws IOException {
        Path file = tmp.resolve("lost.store");
        Path wal = file.resolveSibling("lost.store.wal");
        StoreOptions options = StoreOptions.defaults().withBackend(backend).withDurability(Durability.ALWAYS)
                .withJournalTweak(j -> j.withSegmentSize(64 * 1024));
        Map<String, byte[]> state = new HashMap<>();
        try (Store s = Store.open(file, options)) {
            for (int i = 0; i < KEYS; i++) {
                put(s, state, "key" + i, value(i, 0, 100 + i));
            }
        }
        Store s = Store.open(file, options);
        // kept by the log: updates and deletes after the checkpoint
        for (int i = 0; i < KEYS; i += 4) {
            put(s, state, "key" + i, value(i, 1, 100 + i));
        }
        long kept = delete(s, state, "key1");
        // lost with the cut: updates of checkpointed records (their old slots get free headers and are reused by the
        // next puts), a delete, new keys, and one last put that marks the frees before it on disk
        for (int i = 2; i < KEYS; i += 4) {
            put(s, state, "key" + i, value(i, 2, 100 + i));
        }
        delete(s, state, "key3");
        for (int i = 0; i < 6; i++) {
            put(s, state, "new" + i, value(100 + i, 2, 60));
        }
        put(s, state, "last", value(200, 2, 10));
        s.abandon();
        Path segment = onlySegment(wal);
        long dataEnd = dataEnd(segment);
        long cut = cutAfter(segment, kept);
        // a crash before any mark, or after one covering the records cut (the last sync's: the end of the data)
        JournalTestAccess.setSyncedMark(segment, marked ? dataEnd : 0);
        byte[] dataBefore = Files.readAllBytes(file);

        StoreReport verified = Store.verify(file);
        assertFalse(verified.ok(), verified.toString());
        StoreReport.Problem lost = verified.problems().stream().filter(p -> !p.recoverable()).findFirst().orElseThrow();
        StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                () -> Store.open(file, options).close());
        assertEquals(lost.offset(), e.offset());
        assertTrue(e.getMessage().contains("offset " + e.offset())
                && e.getMessage().contains("'iolab store repair " + file + "'"), e.getMessage());
        if (marked) {
            assertEquals(segment, lost.file(), lost.toString());
            assertEquals(cut, lost.offset(), lost.toString());
            assertTrue(lost.what().contains("redo log") && lost.what().contains("synced mark"), lost.toString());
            assertEquals(segment, e.file());
            assertTrue(e.getMessage().contains("synced mark")
                    && !e.getMessage().contains("'iolab journal repair " + wal), e.getMessage());
        } else {
            assertEquals(file, lost.file(), lost.toString());
            assertTrue(lost.what().contains("lost operations") && lost.what().contains(wal.toString()),
                    lost.toString());
            assertEquals(1, verified.problems().stream().filter(p -> !p.recoverable()).count(), verified.toString());
            assertEquals(file, e.file());
            assertTrue(e.getMessage().contains(wal.toString()) && e.getMessage().contains("lost operations"),
                    e.getMessage());
        }
        assertArrayEquals(dataBefore, Files.readAllBytes(file), "the refused open changed the data file");

        StoreReport repaired = Store.repair(file);
        assertFalse(repaired.ok(), repaired.toString());
        assertTrue(repaired.problems().stream().anyMatch(p -> p.what().contains("rebuilt from the data file")),
                repaired.toString());
        StoreReport after = Store.verify(file);
        assertTrue(after.ok(), after.toString());
        try (Store r = Store.open(file, options)) {
            // every acknowledged operation, the lost ones too: the data file held them
            Map<String, byte[]> scanned = new HashMap<>();
            r.scan((k, v) -> scanned.put(StandardCharsets.UTF_8.decode(k).toString(), bytes(v)));
            assertEquals(state.keySet(), scanned.keySet());
            for (Map.Entry<String, byte[]> en : state.entrySet()) {
                assertArrayEquals(en.getValue(), r.get(key(en.getKey())), en.getKey());
                assertArrayEquals(en.getValue(), scanned.get(en.getKey()), en.getKey());
            }
            assertNotNull(r.get(key("key2")));
            assertEquals(null, r.get(key("key3")));
            r.put(key("after"), value(300, 3, 20));
        }
        assertTrue(Store.verify(file).ok());
    }

    private static long put(Store s, Map<String, byte[]> state, String key, byte[] value) {
        state.put(key, value);
        return s.put(key(key), value);
    }

    private static long delete(Store s, Map<String, byte[]> state, String key) {
        state.remove(key);
        long seq = s.delete(key(key));
        assertTrue(seq > 0, key);
        return seq;
    }

    private static byte[] key(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int key, int version, int length) {
        byte[] v = StoreContractTest.value(key * 7 + version, length);
        v[0] = (byte) version;
        return v;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static Path onlySegment(Path wal) throws IOException {
        List<Path> segments;
        try (Stream<Path> list = Files.list(wal)) {
            segments = new ArrayList<>(list.filter(p -> p.toString().endsWith(".seg")).sorted().toList());
        }
        assertEquals(1, segments.size(), segments.toString());
        return segments.getFirst();
    }

    /**
     * Cuts a redo segment after the record of store operation {@code seq}: walks the journal's frames (length at 0,
     * store sequence at 8 of the payload, which starts at 16) from the segment header (64 bytes).
     */
    private static long cutAfter(Path segment, long seq) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 64;
        while (pos + 16 <= b.limit() && b.getInt(pos) != 0) {
            long storeSeq = b.getLong(pos + 16 + 8);
            if (storeSeq > seq) {
                try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
                    ch.truncate(pos);
                }
                return pos;
            }
            pos += (b.getInt(pos) + 7) & ~7;
        }
        throw new AssertionError("no record after operation " + seq + " in " + segment);
    }

    /** @return where the frames of a redo segment end */
    private static long dataEnd(Path segment) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 64;
        while (pos + 16 <= b.limit() && b.getInt(pos) != 0) {
            pos += (b.getInt(pos) + 7) & ~7;
        }
        return pos;
    }
}
