package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage no crash explains — flipped bits, garbage lengths, truncation, in the data file and in the checkpoint:
 * every outcome is a correct value or a {@link StoreCorruptedException} naming the file and the offset; never a
 * wrong value, an out-of-memory error or a hang; {@code repair} keeps every undamaged record.
 */
@Timeout(120)
class StoreCorruptionTest {
    private static final int RECORDS = 150;

    @TempDir
    Path tmp;

    private Map<String, byte[]> build(Path file, Backend backend) {
        Map<String, byte[]> expected = new HashMap<>();
        try (Store s = Store.open(file, StoreOptions.defaults().withBackend(backend).withDurability(Durability.NONE))) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] v = StoreContractTest.value(i, 1 + i * 7 % 500);
                s.put(("key" + i).getBytes(StandardCharsets.UTF_8), v);
                expected.put("key" + i, v);
            }
            for (int i = 0; i < RECORDS; i += 10) {
                s.delete(("key" + i).getBytes(StandardCharsets.UTF_8));
                expected.remove("key" + i);
            }
        }
        return expected;
    }

    private static void flip(Path file, long offset, int bit) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ (1 << bit));
        }
    }

    private static void writeLong(Path file, long offset, long value) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            raf.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
        }
    }

    /** Every read either returns the right value (or null for an absent key) or throws a located exception. */
    private static void readEverything(Store s, Path file, Map<String, byte[]> expected) {
        for (int i = 0; i < RECORDS; i++) {
            String key = "key" + i;
            try {
                byte[] v = s.get(key.getBytes(StandardCharsets.UTF_8));
                if (v != null) {
                    assertArrayEquals(expected.get(key), v, "a wrong value for " + key);
                } else {
                    assertFalse(expected.containsKey(key) && s.contains(key.getBytes(StandardCharsets.UTF_8)));
                }
            } catch (StoreCorruptedException e) {
                assertLocated(e, file);
            }
        }
        try {
            s.scan((k, v) -> {
                byte[] kb = new byte[k.remaining()];
                k.get(kb);
                byte[] vb = new byte[v.remaining()];
                v.get(vb);
                byte[] want = expected.get(new String(kb, StandardCharsets.UTF_8));
                assertNotNull(want, "scan returned a key that was never live");
                assertArrayEquals(want, vb, "scan returned a wrong value");
            });
        } catch (StoreCorruptedException e) {
            assertLocated(e, file);
        }
    }

    private static void assertLocated(StoreCorruptedException e, Path file) {
        assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("offset " + e.offset()), e.getMessage());
        assertTrue(e.offset() >= 0);
    }

    /** After a repair the store opens, verifies clean, and every record it returns is right. */
    private static void repairKeepsTheRest(Path file, Map<String, byte[]> expected, int minimumKept) {
        StoreReport repaired = Store.repair(file);
        StoreReport after = Store.verify(file);
        assertTrue(after.ok(), "after repair: " + after + " (repair found " + repaired + ")");
        try (Store s = Store.open(file, StoreOptions.defaults())) {
            long[] kept = {0};
            s.scan((k, v) -> {
                byte[] kb = new byte[k.remaining()];
                k.get(kb);
                byte[] vb = new byte[v.remaining()];
                v.get(vb);
                byte[] want = expected.get(new String(kb, StandardCharsets.UTF_8));
                assertNotNull(want, "repair resurrected a deleted or unknown key");
                assertArrayEquals(want, vb);
                kept[0]++;
            });
            assertTrue(kept[0] >= minimumKept, "repair kept " + kept[0] + " of " + expected.size() + ": " + repaired);
            assertEquals(kept[0], s.size());
        }
    }

    @Test
    void flippedBitsInTheDataAreFoundNeverReturnedAndRepairDropsOnlyTheDamagedRecord() throws IOException {
        for (int trial = 0; trial < 40; trial++) {
            Random rnd = new Random(trial);
            Backend backend = Backend.values()[trial % Backend.values().length];
            Path file = tmp.resolve("flip" + trial + ".store");
            Map<String, byte[]> expected = build(file, backend);
            long size = Files.size(file);
            long at = Slots.DATA_START + (long) (rnd.nextDouble() * (size - Slots.DATA_START));
            flip(file, at, rnd.nextInt(8));
            if (trial % 2 == 0) {
                Files.delete(IndexFile.of(file));
            }
            try (Store s = Store.open(file, StoreOptions.defaults().withBackend(backend))) {
                readEverything(s, file, expected);
            } catch (StoreCorruptedException e) {
                assertLocated(e, file);
                assertTrue(Math.abs(e.offset() - at) < 40_000, e.offset() + " vs " + at);
            }
            StoreReport report = Store.verify(file);
            repairKeepsTheRest(file, expected, expected.size() - (report.ok() ? 0 : 2));
        }
    }

    @Test
    void garbageLengthsCauseNoLargeAllocationNoHangAndAreLocated() throws IOException {
        // all bits; a 64 MiB slot; the zero bit; a 0-byte slot; type 0; an empty live slot (bad CRC); the longest
        // live slot (past the end); a zero word
        long[] garbage = {-1L, 0x7F_FFFFL | (1L << 23), 0xFFFF_FFF8L | (1L << 32), 1L << 62, 8,
            Slots.word0(Slots.HEADER, Slots.LIVE, 0, 0, 0),
            Slots.word0(Slots.MAX_SLOT, Slots.LIVE, Slots.MAX_KEY, Slots.MAX_SLOT - Slots.HEADER - Slots.MAX_KEY
                    - Slots.MAX_VALUE, 0), 0};
        for (int trial = 0; trial < garbage.length * 2; trial++) {
            Path file = tmp.resolve("len" + trial + ".store");
            Map<String, byte[]> expected = build(file, Backend.values()[trial % Backend.values().length]);
            long at = Slots.DATA_START;
            if (trial >= garbage.length) {
                // some later slot: walk a few slot lengths
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                    for (int i = 0; i < trial; i++) {
                        raf.seek(at);
                        at += (long) (Integer.reverseBytes(raf.readInt()) & 0x7F_FFFF) << 3;
                    }
                }
            }
            writeLong(file, at, garbage[trial % garbage.length]);
            Files.delete(IndexFile.of(file));
            StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                    () -> Store.open(file, StoreOptions.defaults()).close());
            assertLocated(e, file);
            assertEquals(at, e.offset(), e.getMessage());
            StoreReport report = Store.verify(file);
            assertFalse(report.ok());
            assertEquals(at, report.problems().stream().filter(p -> !p.recoverable()).findFirst().orElseThrow()
                    .offset(), report.toString());
            repairKeepsTheRest(file, expected, expected.size() - 3);
        }
    }

    @Test
    void aDamagedCheckpointIsIgnoredAndTheIndexRebuiltByAScan() throws IOException {
        for (int trial = 0; trial < 30; trial++) {
            Random rnd = new Random(100 + trial);
            Path file = tmp.resolve("idx" + trial + ".store");
            Map<String, byte[]> expected = build(file, Backend.values()[trial % Backend.values().length]);
            Path idx = IndexFile.of(file);
            long size = Files.size(idx);
            switch (trial % 3) {
                case 0 -> flip(idx, (long) (rnd.nextDouble() * size), rnd.nextInt(8));
                case 1 -> writeLong(idx, 40 + 8 * rnd.nextInt(4), rnd.nextLong());
                default -> {
                    try (RandomAccessFile raf = new RandomAccessFile(idx.toFile(), "rw")) {
                        raf.setLength(rnd.nextInt((int) size));
                    }
                }
            }
            StoreReport report = Store.verify(file);
            assertTrue(report.ok(), report.toString());
            assertFalse(report.problems().isEmpty(), "verify did not mention the damaged checkpoint");
            try (Store s = Store.open(file, StoreOptions.defaults())) {
                assertEquals(expected.size(), s.size());
                readEverything(s, file, expected);
                for (Map.Entry<String, byte[]> e : expected.entrySet()) {
                    assertArrayEquals(e.getValue(), s.get(e.getKey().getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
    }

    @Test
    void aTruncatedDataFileOrADamagedHeaderIsReportedWithItsOffset() throws IOException {
        for (int trial = 0; trial < 20; trial++) {
            Random rnd = new Random(200 + trial);
            Path file = tmp.resolve("cut" + trial + ".store");
            Map<String, byte[]> expected = build(file, Backend.values()[trial % Backend.values().length]);
            long size = Files.size(file);
            if (trial % 2 == 0) {
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                    raf.setLength(Slots.DATA_START + Slots.HEADER + rnd.nextInt((int) (size - Slots.DATA_START
                            - Slots.HEADER)));
                }
            } else {
                // both header copies
                flip(file, rnd.nextInt(Header.SIZE), rnd.nextInt(8));
                flip(file, Header.COPY_B + rnd.nextInt(Header.SIZE), rnd.nextInt(8));
            }
            StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                    () -> Store.open(file, StoreOptions.defaults()).close());
            assertLocated(e, file);
            assertFalse(Store.verify(file).ok());
            repairKeepsTheRest(file, expected, trial % 2 == 0 ? 1 : expected.size());
        }
    }

    /** @return the offset of the header copy with the higher generation (the newest) */
    private static int newestHeaderCopy(Path file) throws IOException {
        ByteBuffer page = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        Header a = Header.decode(page, Header.COPY_A);
        Header b = Header.decode(page, Header.COPY_B);
        return b != null && (a == null || b.generation() > a.generation()) ? Header.COPY_B : Header.COPY_A;
    }

    /**
     * Found by {@code StoreCorruptionProperties}: after a clean close at BATCH or ALWAYS the older header copy is the
     * one {@code markDirty} wrote (redo log in use, the previous checkpoint); with the newer copy damaged, open and
     * repair took it, found no redo log (the clean close had deleted it) and scanned with that old checkpoint's
     * sequence as the last acknowledged one: every record written since became a hole, silently.
     */
    @Test
    void aDamagedNewestHeaderAfterACleanCloseWithARedoLogLosesNoRecord() throws IOException {
        for (Durability level : new Durability[] {Durability.BATCH, Durability.ALWAYS}) {
            for (boolean repair : new boolean[] {false, true}) {
                Path file = tmp.resolve("header-" + level + "-" + repair + ".store");
                Map<String, byte[]> expected = new HashMap<>();
                try (Store s = Store.open(file, StoreOptions.defaults().withDurability(level))) {
                    for (int i = 0; i < 20; i++) {
                        byte[] v = StoreContractTest.value(i, 10 + i);
                        s.put(("key" + i).getBytes(StandardCharsets.UTF_8), v);
                        expected.put("key" + i, v);
                    }
                }
                flip(file, newestHeaderCopy(file) + 13, 1);
                if (repair) {
                    assertTrue(Store.repair(file).ok());
                }
                try (Store s = Store.open(file, StoreOptions.defaults().withDurability(level))) {
                    assertEquals(expected.size(), s.size(), level + (repair ? ", after repair" : ""));
                    for (Map.Entry<String, byte[]> e : expected.entrySet()) {
                        assertArrayEquals(e.getValue(), s.get(e.getKey().getBytes(StandardCharsets.UTF_8)));
                    }
                }
                assertTrue(Store.verify(file).ok());
            }
        }
    }

    /**
     * Found by {@code StoreCorruptionProperties}: a data file cut between two slots lost the records after the cut
     * without a word from repair, and one cut inside its header page stayed shorter than the data end its new
     * header names, so that verify and open still rejected the repaired store.
     */
    @Test
    void repairReportsATruncationAndLeavesAFileThatOpens() throws IOException {
        for (boolean inHeaderPage : new boolean[] {false, true}) {
            Path file = tmp.resolve("cut-" + inHeaderPage + ".store");
            Map<String, byte[]> expected = new HashMap<>();
            long boundary;
            try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
                for (int i = 0; i < 10; i++) {
                    byte[] v = StoreContractTest.value(i, 100);
                    s.put(("key" + i).getBytes(StandardCharsets.UTF_8), v);
                    if (i < 5) {
                        expected.put("key" + i, v);
                    }
                }
                boundary = Slots.DATA_START + 5 * Slots.needed(4, 100);
            }
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.setLength(inHeaderPage ? 1000 : boundary);
            }
            StoreReport repaired = Store.repair(file);
            assertFalse(repaired.ok(), "repair did not report the truncation: " + repaired);
            assertEquals(inHeaderPage ? 1000 : boundary, repaired.problems().getFirst().offset());
            repairKeepsTheRest(file, inHeaderPage ? Map.of() : expected, inHeaderPage ? 0 : expected.size());
            try (Store s = Store.open(file, StoreOptions.defaults())) {
                assertEquals(inHeaderPage ? 0 : expected.size(), s.size());
            }
        }
    }

    /**
     * Found by {@code StoreCorruptionProperties}: a data file cut to less than a slot after its header page was taken
     * for a creation that did not complete, and open silently recreated an empty store (deleting the checkpoint
     * that listed the records); verify meanwhile reported damage. The same for a file whose header page and first
     * slot were zeroed. With a checkpoint or redo log beside it, it is damage for both; without, an interrupted
     * creation for both.
     */
    @Test
    void aDataFileCutShortIsDamageWhenACheckpointShowsItHeldRecords() throws IOException {
        Path file = tmp.resolve("short.store");
        build(file, Backend.DEFAULT);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(300);
        }
        StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                () -> Store.open(file, StoreOptions.defaults()).close());
        assertLocated(e, file);
        assertTrue(Files.exists(IndexFile.of(file)), "open deleted the checkpoint");
        assertFalse(Store.verify(file).ok());
        assertFalse(Store.repair(file).ok(), "repair did not report the lost records");
        repairKeepsTheRest(file, Map.of(), 0);

        // the same for a header page and first slot zeroed (a lost 8 KiB block): not an interrupted creation
        Path zeroed = tmp.resolve("zeroed.store");
        Map<String, byte[]> expected = build(zeroed, Backend.DEFAULT);
        try (RandomAccessFile raf = new RandomAccessFile(zeroed.toFile(), "rw")) {
            raf.write(new byte[2 * Header.PAGE]);
        }
        assertThrows(StoreCorruptedException.class, () -> Store.open(zeroed, StoreOptions.defaults()).close());
        assertFalse(Store.repair(zeroed).ok());
        repairKeepsTheRest(zeroed, expected, 1);

        Path blank = tmp.resolve("blank.store");
        Files.write(blank, new byte[40]);
        StoreReport report = Store.verify(blank);
        assertTrue(report.ok(), report.toString());
        try (Store s = Store.open(blank, StoreOptions.defaults())) {
            assertEquals(0, s.size());
        }
    }

    /**
     * Found by {@code StoreCorruptionProperties}: repair threw on a damaged redo log (a deleted first segment: "journal
     * has no record 0"; or a lost data file header, whose replacement's checkpoint sequence 0 did not match the log's
     * first record), so a store left unclean could not be repaired at all; open threw a plain IolabException for
     * the first. The log itself now tells the missing first segment from a deleted one.
     */
    @Test
    void repairSurvivesADamagedRedoLog() throws IOException {
        for (boolean loseHeader : new boolean[] {false, true}) {
            Path file = tmp.resolve("redo-" + loseHeader + ".store");
            Map<String, byte[]> expected = new HashMap<>();
            StoreOptions options = StoreOptions.defaults().withDurability(Durability.BATCH)
                    .withJournalTweak(j -> j.withSegmentSize(64 * 1024));
            Store s = Store.open(file, options);
            for (int i = 0; i < 60; i++) {
                byte[] v = StoreContractTest.value(i, 2000);
                s.put(("key" + i).getBytes(StandardCharsets.UTF_8), v);
                expected.put("key" + i, v);
            }
            s.sync();
            s.abandon();
            Path wal = file.resolveSibling(file.getFileName() + ".wal");
            List<Path> segments;
            try (Stream<Path> list = Files.list(wal)) {
                segments = list.filter(p -> p.toString().endsWith(".seg")).sorted().toList();
            }
            assertFalse(segments.isEmpty());
            if (loseHeader) {
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                    raf.write(new byte[Header.PAGE]);
                }
            } else {
                assertTrue(segments.size() > 1, "segments " + segments);
                Files.delete(segments.getFirst());
                StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                        () -> Store.open(file, options).close());
                // the log's new first segment, which does not carry the start marker of a deleteBefore
                assertEquals(segments.get(1), e.file(), e.getMessage());
                assertTrue(e.getMessage().contains("are missing"), e.getMessage());
            }
            StoreReport repaired = Store.repair(file);
            assertFalse(repaired.ok(), repaired.toString());
            if (!loseHeader) {
                // the damage, named; not the journal's own advice (its repair is not the store's), and no "the 0
                // operations before the damage were redone" when none could be read (a review's findings)
                StoreReport.Problem redo = repaired.problems().stream()
                        .filter(p -> p.what().startsWith("the redo log is damaged")).findFirst().orElseThrow();
                assertTrue(redo.what().contains(segments.get(1) + " at offset "), redo.what());
                assertFalse(redo.what().contains("journal repair") || redo.what().contains("journal verify")
                        || redo.what().contains("the 0 operations"), redo.what());
            }
            repairKeepsTheRest(file, expected, 0);
        }
    }

    /**
     * Found by {@code StoreCorruptionProperties}: repairing a cleanly closed store treated a record with a failed CRC
     * and a (flipped) sequence above the checkpoint's, or a hole header with a failed CRC, as crash debris: the
     * record vanished, or the hole's damaged length swallowed the records after it, without a word. Nothing is
     * written after a clean checkpoint, so there is no debris: each is damage, reported, and only it is dropped.
     */
    @Test
    void repairOfACleanStoreReportsEveryFailedCrcAndKeepsTheOtherRecords() throws IOException {
        for (int damage = 0; damage < 2; damage++) {
            Path file = tmp.resolve("debris" + damage + ".store");
            Map<String, byte[]> expected = new HashMap<>();
            long victim;
            try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
                for (int i = 0; i < 10; i++) {
                    byte[] v = StoreContractTest.value(i, 100);
                    s.put(("key" + i).getBytes(StandardCharsets.UTF_8), v);
                    expected.put("key" + i, v);
                }
                // key3's slot becomes a hole: its header keeps the slot length, the records after it stay
                s.delete("key3".getBytes(StandardCharsets.UTF_8));
                expected.remove("key3");
                victim = Slots.DATA_START + 3L * Slots.needed(4, 100);
            }
            if (damage == 0) {
                // the sequence of the record after the hole (bits 40-47 at byte 11): far above the checkpoint's
                flip(file, victim + Slots.needed(4, 100) + 11, 0);
                expected.remove("key4");
            } else {
                // the hole's length: 4 slots instead of 1, over key4..key6
                writeLong(file, victim, Slots.word0(4 * Slots.needed(4, 100), Slots.FREE, 0, 0, 0));
            }
            StoreReport repaired = Store.repair(file);
            assertFalse(repaired.ok(), "repair reported nothing: " + repaired);
            repairKeepsTheRest(file, expected, expected.size());
        }
    }

    /**
     * Found by {@code StoreCorruptionProperties} (now and then: where the last record ends depends on when BATCH's
     * group commits came): a data file cut inside the last record's padding, which no CRC covers, lost that record
     * on repair although its header, key and value were whole.
     */
    @Test
    void repairKeepsALastRecordWhosePaddingWasCutOff() throws IOException {
        Path file = tmp.resolve("padding.store");
        Map<String, byte[]> expected = new HashMap<>();
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            for (int i = 0; i < 10; i++) {
                // 16 + 4 + 2 bytes: 2 of padding
                byte[] v = StoreContractTest.value(i, 2);
                s.put(("key" + i).getBytes(StandardCharsets.UTF_8), v);
                expected.put("key" + i, v);
            }
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() - 1);
        }
        assertFalse(Store.verify(file).ok(), "a file shorter than its data end");
        StoreReport repaired = Store.repair(file);
        assertFalse(repaired.ok(), "repair reported nothing: " + repaired);
        repairKeepsTheRest(file, expected, expected.size());
    }

    /**
     * Found by {@code StoreCorruptionProperties}: a data file cut below its checkpoint's data end was taken as cut only
     * when the store had been closed cleanly; after an unclean stop, open replayed the redo log over the cut file and
     * a later get threw on an index entry pointing past the cut, while verify saw nothing wrong.
     */
    @Test
    void aDataFileCutBelowItsCheckpointIsDamageAfterAnUncleanStopToo() throws IOException {
        Path file = tmp.resolve("unclean-cut.store");
        StoreOptions options = StoreOptions.defaults().withDurability(Durability.BATCH);
        try (Store s = Store.open(file, options)) {
            for (int i = 0; i < 20; i++) {
                s.put(("key" + i).getBytes(StandardCharsets.UTF_8), StoreContractTest.value(i, 100));
            }
        }
        long checkpointEnd = Files.size(file);
        Store s = Store.open(file, options);
        s.awaitDurable(s.put("later".getBytes(StandardCharsets.UTF_8), StoreContractTest.value(99, 100)));
        s.abandon();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(checkpointEnd - 200);
        }
        StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                () -> Store.open(file, options).close());
        assertEquals(checkpointEnd - 200, e.offset(), e.getMessage());
        StoreReport report = Store.verify(file);
        assertFalse(report.ok(), report.toString());
        assertFalse(Store.repair(file).ok());
        assertTrue(Store.verify(file).ok());
    }

    /**
     * Found by {@code StoreCorruptionProperties}: a process killed while its redo log's first segment was being
     * created leaves a segment with no valid header and nothing durable; open deletes it, but verify reported the
     * store damaged ("redo log unreadable: no journal segments"), with exit code 1 from {@code iolab store verify}.
     */
    @Test
    void verifyAcceptsARedoSegmentWhoseCreationWasCut() throws IOException {
        Path file = tmp.resolve("cut-segment.store");
        Map<String, byte[]> expected = build(file, Backend.DEFAULT);
        Path wal = file.resolveSibling(file.getFileName() + ".wal");
        Files.createDirectories(wal);
        Files.write(wal.resolve("00000000000000000000.seg"), new byte[64 * 1024]);
        StoreReport report = Store.verify(file);
        assertTrue(report.ok(), report.toString());
        try (Store s = Store.open(file, StoreOptions.defaults())) {
            assertEquals(expected.size(), s.size());
        }
        assertTrue(Store.verify(file).ok());
    }
}
