package org.iolab.store;

import static org.iolab.testing.CorruptionCases.readRange;
import static org.iolab.testing.CorruptionCases.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Store.repair}: a crash inside it, on a cleanly closed store, leaves the old state or the new, never a clean
 * header over data its checkpoint no longer describes; and what it leaves, verify accepts.
 */
@Timeout(120)
class StoreRepairCrashTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Undoes the repair's last header write (its final checkpoint's, the copy with the highest generation): that copy
     * gets back what it held before the repair; every earlier write of the repair stays.
     */
    private static void crashBeforeLastHeader(Path f, byte[] before) throws Exception {
        ByteBuffer page = ByteBuffer.wrap(readRange(f, 0, Store.HEADER_PAGE))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        Header a = Header.decode(page, Header.COPY_A);
        Header b = Header.decode(page, Header.COPY_B);
        int last = a == null || (b != null && b.generation() > a.generation()) ? Header.COPY_B : Header.COPY_A;
        write(f, last, java.util.Arrays.copyOfRange(before, last, last + Header.SIZE));
    }

    /**
     * Repair of a CLEAN store changes the data file (free headers over the dropped record, merged with the hole next
     * to it; Store.checkpoint with rewriteHoles) and syncs it while the header still says clean and the old FILE.idx
     * still matches it: nothing marks the file dirty first. A crash after that sync and before the new FILE.idx and
     * header (simulated here by putting back the header page and FILE.idx the repair replaced) leaves a clean header
     * whose checkpoint the next open trusts, over a data file it no longer describes. A record then put into the
     * checkpoint's hole lies inside the merged free slot the repair wrote: scan() skips it, and a rebuild of the index
     * from the data file (no FILE.idx, or any scan-based recovery) loses it.
     */
    @Test
    void aCrashInsideRepairLeavesAStaleCheckpointThatLosesALaterRecord() throws Exception {
        Path f = tmp.resolve("r.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        long aOff;
        try (Store s = Store.open(f, o)) {
            aOff = s.stats().dataEnd();
            s.put(b("A"), b("a".repeat(40)));  // 16 + 1 + 40 -> 64 bytes at 4096
            s.put(b("B"), b("b".repeat(40)));  // 64 bytes at 4160
            s.put(b("C"), b("c".repeat(40)));  // 64 bytes at 4224: keeps the holes off the end
            s.delete(b("B"));                   // a hole of 64 bytes at 4160
        }
        // bit rot in A's value
        write(f, aOff + 30, new byte[] {(byte) ~readRange(f, aOff + 30, 1)[0]});
        byte[] headerPage = readRange(f, 0, Store.HEADER_PAGE); // both header copies before the repair
        byte[] idx = Files.readAllBytes(IndexFile.of(f));

        StoreReport r = Store.repair(f);
        assertEquals(1, r.problems().size(), r.toString());
        // the crash: the repair's data writes were synced (data.force before IndexFile.write), the new FILE.idx and
        // header never made it
        crashBeforeLastHeader(f, headerPage);
        Files.write(IndexFile.of(f), idx);

        try (Store s = Store.open(f, o)) {
            s.put(b("E"), b("e".repeat(40))); // fits B's old hole exactly: written at 4160
            assertArrayEquals(b("e".repeat(40)), s.get(b("E")));
            List<String> scanned = new ArrayList<>();
            s.scan((k, v) -> scanned.add(StandardCharsets.UTF_8.decode(k).toString()));
            assertEquals(List.of("C", "E"), scanned.stream().sorted().toList(), "scan() sees what get() sees");
        }
    }

    /** Same crash; the record put afterwards is lost by the next scan-based open. */
    @Test
    void aCrashInsideRepairThenARebuildLosesAnAcknowledgedRecord() throws Exception {
        Path f = tmp.resolve("r2.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        long aOff;
        try (Store s = Store.open(f, o)) {
            aOff = s.stats().dataEnd();
            s.put(b("A"), b("a".repeat(40)));
            s.put(b("B"), b("b".repeat(40)));
            s.put(b("C"), b("c".repeat(40)));
            s.delete(b("B"));
        }
        write(f, aOff + 30, new byte[] {(byte) ~readRange(f, aOff + 30, 1)[0]});
        byte[] headerPage = readRange(f, 0, Store.HEADER_PAGE); // both header copies before the repair
        byte[] idx = Files.readAllBytes(IndexFile.of(f));
        Store.repair(f);
        crashBeforeLastHeader(f, headerPage);
        Files.write(IndexFile.of(f), idx);
        try (Store s = Store.open(f, o)) {
            s.put(b("E"), b("e".repeat(40)));
            s.sync(); // durable: checkpointed
        }
        Files.delete(IndexFile.of(f)); // the checkpoint is optional: an open without it rebuilds by a scan
        try (Store s = Store.open(f, o)) {
            assertArrayEquals(b("e".repeat(40)), s.get(b("E")), "an acknowledged, checkpointed record");
        }
    }

    /**
     * An older copy of a key (a newer one lies before it in the file) followed by a few bytes of damage, too few for
     * a slot: repair frees the older copy and gives the damage to the slot before it. It used to lengthen the
     * older copy as a live record while the free space kept its old length, so the hole written at the checkpoint
     * left the damaged bytes uncovered, and verify found them again right after the repair.
     */
    @Test
    void damageAfterAnOlderCopyOfAKeyJoinsItsHoleAndVerifyThenAccepts() throws Exception {
        Path f = tmp.resolve("older.store");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        byte[] v30 = b("v".repeat(30));
        try (Store s = Store.open(f, o)) {
            s.put(b("X"), v30); // 48 bytes at 4096, sequence 1
            s.put(b("B"), v30); // 48 bytes at 4144, 2
            s.put(b("K"), v30); // 48 bytes at 4192, 3
            s.put(b("D"), v30); // 48 bytes at 4240, 4
        }
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        ByteBuffer newer = ByteBuffer.allocate(48).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        Slots.writeLive(newer, 0, 48, 5, ByteBuffer.wrap(b("K")), ByteBuffer.wrap(b("n".repeat(30))), false, crc);
        ByteBuffer older = ByteBuffer.allocate(48).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        Slots.writeLive(older, 0, 40, 3, ByteBuffer.wrap(b("K")), ByteBuffer.wrap(b("o".repeat(22))), false, crc);
        for (int i = 40; i < 48; i++) {
            older.put(i, (byte) 0xFF); // 8 bytes of damage after the 40-byte older copy
        }
        write(f, 4096, newer.array()); // K's newer copy where X was
        write(f, 4192, older.array());

        StoreReport r = Store.repair(f);
        assertEquals(1, r.problems().size(), r.toString());
        StoreReport after = Store.verify(f);
        assertEquals(List.of(), after.problems(), "verify right after the repair");
        try (Store s = Store.open(f, o)) {
            assertArrayEquals(b("n".repeat(30)), s.get(b("K")), "the newer copy");
            assertArrayEquals(v30, s.get(b("B")));
            assertArrayEquals(v30, s.get(b("D")));
            assertEquals(3, s.size());
        }
    }
}
