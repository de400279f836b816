package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repair drops the damaged record, not more and not less, when a value holds slot images (a value that is a copy of
 * another store's records). A review found that after one flipped bit in a record's CRC, repair searched the record's
 * own value for the next slot, took an image there for a record, and kept it over the newer real record of its key:
 * {@code get("b")} gave "EVIL", bytes never put under "b".
 */
class StoreRepairSlotImageTest {
    private static final StoreOptions NONE = StoreOptions.defaults().withDurability(Durability.NONE);
    private static final long FIRST = 4096;

    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A value for key "a" (its slot at 4096) holding a valid slot image of {@code key}, 8-aligned in the file. */
    private static byte[] valueWithSlotImage(String key, byte[] value, long seq) {
        ByteBuffer slot = ByteBuffer.allocate(Slots.needed(key.length(), value.length)).order(ByteOrder.LITTLE_ENDIAN);
        Slots.writeLive(slot, 0, slot.capacity(), seq, ByteBuffer.wrap(b(key)), ByteBuffer.wrap(value), false,
                new CRC32C());
        byte[] v = new byte[7 + slot.capacity() + 8]; // 4096 + 16 (header) + 1 (key "a") + 7 = 4120
        System.arraycopy(slot.array(), 0, v, 7, slot.capacity());
        return v;
    }

    private static void flip(Path f, long offset, int mask) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ mask)).flip();
            ch.write(one, offset);
        }
    }

    @Test
    void aSlotImageInsideADamagedRecordIsNotTakenForARecord() throws IOException {
        Path f = tmp.resolve("s.store");
        byte[] a = valueWithSlotImage("b", b("EVIL"), 1000);
        try (Store s = Store.open(f, NONE)) {
            s.put(b("a"), a);
            s.put(b("b"), b("good"));
            s.put(b("c"), b("after"));
        }
        flip(f, FIRST + 12, 1); // one bit of record a's CRC: a is the damage, b and c are not
        StoreReport verify = Store.verify(f);
        assertEquals(1, verify.problems().size(), verify.problems().toString());
        assertEquals(FIRST, verify.problems().getFirst().offset());
        StoreReport repair = Store.repair(f);
        assertEquals(1, repair.problems().size(), "only a's slot is damage: " + repair.problems());
        assertTrue(repair.problems().getFirst().what().contains(Slots.needed(1, a.length) + " bytes dropped"),
                repair.problems().toString());
        try (Store s = Store.open(f, NONE)) {
            assertArrayEquals(b("good"), s.get(b("b")));
            assertArrayEquals(b("after"), s.get(b("c")));
            assertNull(s.get(b("a")));
            assertEquals(2, s.size());
        }
    }

    /**
     * A value that is exactly a slot image, with no padding after it: the image ends where the damaged record's slot
     * does, so the slots from it land on the record's claimed end. A review of the first fix found repair still took
     * it for a record ({@code get("b")} gave "EVIL"): landing there counts only when the damaged slot, cut to end where
     * the image begins, passes its CRC, which a value's bytes do not make it do.
     */
    @Test
    void aValueThatIsExactlyASlotImageIsNotTakenForARecord() throws IOException {
        Path f = tmp.resolve("s.store");
        ByteBuffer slot = ByteBuffer.allocate(Slots.needed(1, 4)).order(ByteOrder.LITTLE_ENDIAN);
        Slots.writeLive(slot, 0, slot.capacity(), 1000, ByteBuffer.wrap(b("b")), ByteBuffer.wrap(b("EVIL")), false,
                new CRC32C());
        try (Store s = Store.open(f, NONE)) {
            s.put(b("aaaaaaaa"), slot.array()); // 16 + 8 + 24 = 48 bytes: no padding, the image ends with the slot
            s.put(b("b"), b("good"));
        }
        flip(f, FIRST + 12, 1); // one bit of the first record's CRC
        Store.repair(f);
        try (Store s = Store.open(f, NONE)) {
            assertArrayEquals(b("good"), s.get(b("b")));
            assertNull(s.get(b("aaaaaaaa")));
            assertEquals(1, s.size());
        }
    }

    /**
     * The other way round: a flipped bit in a record's length word makes it claim more than it holds, up to the
     * start of a later slot. The records between its real end and the claimed one are valid and lead exactly there:
     * they are kept, not dropped with it.
     */
    @Test
    void recordsInsideALengthThatGrewAreKeptWhenTheyLeadToItsEnd() throws IOException {
        Path f = tmp.resolve("s.store");
        int n = 12;
        try (Store s = Store.open(f, NONE)) {
            for (int i = 0; i < n; i++) {
                s.put(b("k" + i), b("value-" + i)); // 16 + 2 + 7 = 25 bytes: 32-byte slots (k10, k11: 40)
            }
        }
        // record k0's slot length 32 becomes 32 | 64 = 96: three slots further, the start of k3
        growLength(f, FIRST, 32, 64);
        StoreReport repair = Store.repair(f);
        assertFalse(repair.problems().isEmpty());
        try (Store s = Store.open(f, NONE)) {
            assertNull(s.get(b("k0")), "the damaged record is dropped");
            for (int i = 1; i < n; i++) {
                assertArrayEquals(b("value-" + i), s.get(b("k" + i)), "k" + i);
            }
        }
    }

    /**
     * A length that grew up to an old free header left inside a merged hole (neighbouring holes become one at a
     * checkpoint; the inner header stays, valid): the slots after the damaged record's real end pass over that
     * offset, and meet the slots from it only at the end of the merged hole. Those slots are kept. The corruption
     * properties found a key lost this way when only runs that land exactly on the claimed end counted.
     */
    @Test
    void recordsBeforeAnOldHeaderInsideAMergedHoleAreKept() throws IOException {
        Path f = tmp.resolve("s.store");
        try (Store s = Store.open(f, NONE)) {
            for (int i = 0; i < 6; i++) {
                s.put(b("k" + i), b("value-" + i)); // 32-byte slots: k0 at 4096, ... k5 at 4256
            }
            s.delete(b("k3"));
            s.delete(b("k4"));
        }
        // closed: the holes of k3 and k4 are one free slot of 64 bytes at 4192; k4's old header at 4224 stays inside
        growLength(f, FIRST + 32, 32, 64); // k1 claims 96 bytes: up to 4224
        Store.repair(f);
        try (Store s = Store.open(f, NONE)) {
            assertNull(s.get(b("k1")), "the damaged record is dropped");
            for (int i : new int[] {0, 2, 5}) {
                assertArrayEquals(b("value-" + i), s.get(b("k" + i)), "k" + i);
            }
            assertEquals(3, s.size());
        }
        assertTrue(Store.verify(f).ok(), Store.verify(f).problems().toString());
    }

    /** Flips the one bit of the slot length word at {@code offset} (a {@code length}-byte slot) that adds {@code by}. */
    private static void growLength(Path f, long offset, int length, int by) throws IOException {
        long w0;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            ByteBuffer w = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(w, offset);
            w0 = w.getLong(0);
        }
        assertEquals(length, Slots.slotLength(w0));
        flipWord(f, offset, findLengthBit(w0, by));
    }

    /** @return the bit of {@code w0} that changes its slot length by {@code by} */
    private static long findLengthBit(long w0, long by) {
        for (int bit = 0; bit < 64; bit++) {
            long m = 1L << bit;
            if (Slots.slotLength(w0 ^ m) == Slots.slotLength(w0) + by) {
                return m;
            }
        }
        throw new AssertionError("no bit of the length word adds " + by);
    }

    private static void flipWord(Path f, long offset, long mask) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer w = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(w, offset);
            w.putLong(0, w.getLong(0) ^ mask).flip();
            ch.write(w, offset);
        }
    }
}
