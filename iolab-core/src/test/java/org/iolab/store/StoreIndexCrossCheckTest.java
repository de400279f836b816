package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Store#verify} compares the index checkpoint with the data file. A review wrote FILE.idx files that pass the
 * checkpoint's own checks (incarnation, sequence, data end, CRC) but say something else than the data file: verify
 * called the store fine, and an open trusted them (a key read as absent, a put overwrote a live record, a get returned
 * bytes from inside another record). Only a bug or an edit makes such a file; verify now finds it, and repair, which
 * rebuilds the index from the data file, mends it.
 */
class StoreIndexCrossCheckTest {
    private static final StoreOptions NONE = StoreOptions.defaults().withDurability(Durability.NONE);
    private static final int ENTRIES = IndexFile.FIXED + 8 * KeyIndex.SHARDS;

    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteBuffer readIdx(Path f) throws Exception {
        return ByteBuffer.wrap(Files.readAllBytes(IndexFile.of(f))).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes FILE.idx with its CRC made right again: only its contents are wrong. */
    private static void writeResealed(Path f, ByteBuffer idx) throws Exception {
        CRC32C crc = new CRC32C();
        crc.update(idx.array(), 0, idx.capacity() - 8);
        idx.putInt(idx.capacity() - 8, (int) crc.getValue());
        Files.write(IndexFile.of(f), idx.array());
    }

    private Path twoKeys(byte[] a) {
        Path f = tmp.resolve("s.store");
        try (Store s = Store.open(f, NONE)) {
            s.put(b("a"), a); // its slot at 4096
            s.put(b("b"), b("good"));
        }
        assertTrue(Store.verify(f).ok(), Store.verify(f).problems().toString());
        return f;
    }

    /** Moves the entry that does not point at 4096 (b's) to {@code offset}, its fingerprint kept or not. */
    private static void moveEntry(ByteBuffer idx, long offset, boolean keepFingerprint, long otherFingerprint) {
        for (int i = 0; i < idx.getLong(48); i++) {
            long e = idx.getLong(ENTRIES + 8 * i);
            if (KeyIndex.offsetOf(e) != 4096) {
                long fp = keepFingerprint ? e >>> KeyIndex.FINGERPRINT_SHIFT : otherFingerprint;
                idx.putLong(ENTRIES + 8 * i, fp << KeyIndex.FINGERPRINT_SHIFT | offset >>> 3);
            }
        }
    }

    private static void assertCaughtAndRepaired(Path f, String expected) {
        StoreReport verify = Store.verify(f);
        assertFalse(verify.ok(), "verify called a forged checkpoint fine");
        StoreReport.Problem p = verify.problems().getLast();
        assertEquals(IndexFile.of(f), p.file());
        assertTrue(p.what().contains(expected) && p.what().contains("'iolab store repair " + f + "'"), p.what());
        assertFalse(p.recoverable());
        Store.repair(f);
        assertTrue(Store.verify(f).ok(), Store.verify(f).problems().toString());
        try (Store s = Store.open(f, NONE)) {
            assertArrayEquals(b("good"), s.get(b("b")));
            assertEquals(2, s.size());
        }
    }

    @Test
    void anEntryIntoTheMiddleOfARecordIsFound() throws Exception {
        Path f = twoKeys(new byte[64]);
        ByteBuffer idx = readIdx(f);
        moveEntry(idx, 4120, true, 0);
        writeResealed(f, idx);
        assertCaughtAndRepaired(f, "has an entry for offset 4120 of the data file, but no record starts there");
    }

    @Test
    void anEntryMovedToAnotherKeysRecordIsFound() throws Exception {
        Path f = twoKeys(new byte[64]);
        ByteBuffer idx = readIdx(f);
        moveEntry(idx, 4096, true, 0); // b's fingerprint, a's record: a's entry is then the second one there
        writeResealed(f, idx);
        assertCaughtAndRepaired(f, "offset 4096 of the data file"); // two entries there, or one of another key
    }

    @Test
    void aLiveRecordMissingFromTheCheckpointIsFound() throws Exception {
        Path f = twoKeys(new byte[64]);
        ByteBuffer idx = readIdx(f);
        // b's entry dropped, the counts made to fit
        ByteBuffer shorter = ByteBuffer.allocate(idx.capacity() - 8).order(ByteOrder.LITTLE_ENDIAN);
        int bAt = -1;
        for (int i = 0; i < idx.getLong(48); i++) {
            if (KeyIndex.offsetOf(idx.getLong(ENTRIES + 8 * i)) != 4096) {
                bAt = ENTRIES + 8 * i;
            }
        }
        shorter.put(0, idx.array(), 0, bAt).put(bAt, idx.array(), bAt + 8, idx.capacity() - bAt - 8);
        shorter.putLong(48, idx.getLong(48) - 1);
        // the shard count word of b's shard
        for (int s = 0; s < KeyIndex.SHARDS; s++) {
            long w = shorter.getLong(IndexFile.FIXED + 8 * s);
            int before = 0;
            for (int t = 0; t < s; t++) {
                before += (int) shorter.getLong(IndexFile.FIXED + 8 * t);
            }
            int count = (int) w;
            if (count > 0 && ENTRIES + 8 * before <= bAt && bAt < ENTRIES + 8 * (before + count)) {
                shorter.putLong(IndexFile.FIXED + 8 * s, (w & ~0xFFFF_FFFFL) | (count - 1));
                break;
            }
        }
        writeResealed(f, shorter);
        try (Store s = Store.open(f, NONE)) {
            assertEquals(1, s.size(), "the forged checkpoint is trusted by an open (not what this test is about)");
        }
        // the open above trusted it and closed with a checkpoint of its own: still the forged state
        assertCaughtAndRepaired(f, "does not have the record at offset");
    }

    @Test
    void aHoleOverALiveRecordIsFound() throws Exception {
        Path f = twoKeys(new byte[50]); // a's slot: 4096..4168
        ByteBuffer idx = readIdx(f);
        ByteBuffer forged = ByteBuffer.allocate(idx.capacity() + 16).order(ByteOrder.LITTLE_ENDIAN);
        forged.put(idx.array(), 0, idx.capacity() - 8).putLong(4096).putLong(72); // one more hole
        forged.putLong(56, idx.getLong(56) + 1);
        writeResealed(f, forged);
        StoreReport verify = Store.verify(f);
        assertTrue(verify.problems().stream().anyMatch(p -> p.what().contains("has a hole of 72 bytes at offset 4096")),
                verify.problems().toString());
        Store.repair(f);
        try (Store s = Store.open(f, NONE)) {
            s.put(b("new"), new byte[50]); // the size of the forged hole
            assertArrayEquals(new byte[50], s.get(b("a")), "repair dropped the forged hole");
            assertArrayEquals(b("good"), s.get(b("b")));
        }
        assertEquals(List.of(), Store.verify(f).problems());
    }
}
