package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FailingForces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repair deletes nothing: a damaged header over intact records is written again, and what a cut takes out of the
 * journal is kept in {@code *.cut} files. It used to delete the whole journal for 8 bytes over the first segment's
 * magic, and a user's file that happened to be named like a segment (found by a review of the README's commands).
 */
class JournalRepairTest {
    private static final int MAX = 300;
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options() {
        return JournalOptions.defaults().withBackend(Backend.DEFAULT).withSegmentSize(8192)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
    }

    private List<Path> fill() {
        try (Journal j = Journal.open(tmp, options())) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        return Journal.listSegments(tmp);
    }

    /** @return the sequence after the last record before the first gap a repair cut, each record checked */
    private long recordsBeforeGap() {
        try (Journal j = Journal.open(tmp, options())) {
            return j.firstSequence() + Payloads.readToGap(j, j.firstSequence(), MAX);
        }
    }

    private long nextSequence() {
        try (Journal j = Journal.open(tmp, options())) {
            return j.nextSequence();
        }
    }

    /** @return the sequence after the last record of the journal, each record checked from its first sequence */
    private long intactRecords() {
        try (Journal j = Journal.open(tmp, options())) {
            return j.firstSequence() + Payloads.readChecked(j, j.firstSequence(), MAX);
        }
    }

    @Test
    void aDamagedHeaderOverIntactRecordsIsWrittenAgainAndEveryRecordStays() throws IOException {
        List<Path> files = fill();
        for (Path damaged : List.of(files.getFirst(), files.get(2), files.getLast())) {
            byte[] before = Files.readAllBytes(damaged);
            writeAt(damaged, 0, "XXXXXXXX".getBytes());
            assertFalse(Journal.verify(tmp).ok(), damaged.toString());
            Journal.repair(tmp);
            assertTrue(Journal.verify(tmp).problems().isEmpty(), Journal.verify(tmp).toString());
            assertEquals(files, Journal.listSegments(tmp));
            assertEquals(RECORDS, intactRecords(), "after repairing " + damaged);
            byte[] after = Files.readAllBytes(damaged);
            assertArrayEquals(Arrays.copyOfRange(before, Format.HEADER_SIZE, before.length),
                    Arrays.copyOfRange(after, Format.HEADER_SIZE, after.length), "records untouched");
        }
        try (var list = Files.list(tmp)) {
            assertTrue(list.noneMatch(p -> p.toString().endsWith(".cut")), "nothing was cut");
        }
    }

    /**
     * The advice in the error a read gives for damage: a damaged header is written again when the records under it
     * are intact (the advice said records after it would be lost, and repair lost none: a review of the command line).
     */
    @Test
    void theErrorsAdviceSaysWhatRepairDoesWithADamagedHeader() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        writeAt(damaged, 0, "XXXXXXXX".getBytes());
        JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> {
            try (Journal j = Journal.open(tmp, options())) {
                Payloads.readChecked(j, j.firstSequence(), MAX);
            }
        });
        assertEquals(damaged, e.file());
        assertTrue(e.getMessage().contains("to write the header again if the segment's records are intact"),
                e.getMessage());
        JournalCorruptedException record = new JournalCorruptedException(damaged, Format.HEADER_SIZE + 8, "bad CRC");
        // it said "records after it are lost": repair keeps the intact ones that end the segment, and later segments
        assertTrue(record.getMessage().contains("to cut the damaged records out") && record.getMessage().contains(
                "every later segment") && !record.getMessage().contains("are lost"), record.getMessage());
    }

    /** A few bytes of text named like a last segment were deleted by the next open: "hello\n" is not a header. */
    @Test
    void aShortFileNamedLikeTheLastSegmentIsKeptAsideByOpen() throws IOException {
        List<Path> files = fill();
        Path junk = tmp.resolve(Format.fileName(RECORDS + 5000));
        Files.writeString(junk, "hello\n");
        assertEquals(RECORDS, intactRecords());
        assertEquals("hello\n", Files.readString(junk.resolveSibling(junk.getFileName() + ".cut")));
        assertEquals(files, Journal.listSegments(tmp));
    }

    /** A folder, or a link to nothing, named like a segment stopped verify, repair, read and open ("Is a directory"). */
    @Test
    void aFolderOrADanglingLinkNamedLikeASegmentIsNotOne() throws IOException {
        List<Path> files = fill();
        Files.createDirectory(tmp.resolve(Format.fileName(Format.parseName(files.get(2)) + 1)));
        Files.createSymbolicLink(tmp.resolve(Format.fileName(RECORDS + 9000)), tmp.resolve("nowhere"));
        assertEquals(files, Journal.listSegments(tmp));
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        assertEquals(RECORDS, intactRecords());
    }

    /** A last segment's header cut short by a crash (any length) is an interrupted creation: deleted, not kept. */
    @Test
    void aHeaderCutShortByACrashIsAnInterruptedCreation() throws IOException {
        fill();
        Path next = tmp.resolve(Format.fileName(RECORDS));
        for (int length : new int[] {3, 8, 11, 24, 38, 47, 63}) {
            Files.write(next, Arrays.copyOf(Format.header(RECORDS, 8192).array(), length));
            assertTrue(Journal.verify(tmp).ok(), length + ": " + Journal.verify(tmp));
            assertEquals(RECORDS, intactRecords(), length + " bytes");
            try (var list = Files.list(tmp)) {
                assertTrue(list.noneMatch(p -> p.toString().endsWith(".cut")), length + ": kept aside");
            }
        }
    }

    @Test
    void aFileNamedLikeASegmentIsKeptAsideNotDeleted() throws IOException {
        List<Path> files = fill();
        byte[] junk = new byte[100_000];
        new Random(7).nextBytes(junk);
        // last, after the unsealed last segment: a segment whose creation a crash interrupted, as open sees it
        Path foreign = tmp.resolve(Format.fileName(RECORDS + 1000));
        Files.write(foreign, junk);
        assertTrue(Journal.verify(tmp).ok(), "nothing durable in it: " + Journal.verify(tmp));
        assertEquals(RECORDS, intactRecords());
        assertArrayEquals(junk, Files.readAllBytes(foreign.resolveSibling(foreign.getFileName() + ".cut")));
        assertEquals(files, Journal.listSegments(tmp));
        // between segments: moved aside, and as the segments around it follow each other, nothing is cut
        Path between = tmp.resolve(Format.fileName(Format.parseName(files.get(2)) + 1));
        Files.write(between, junk);
        assertFalse(Journal.verify(tmp).ok());
        Journal.repair(tmp);
        assertArrayEquals(junk, Files.readAllBytes(between.resolveSibling(between.getFileName() + ".cut")));
        assertEquals(files, Journal.listSegments(tmp));
        assertEquals(RECORDS, intactRecords());
    }

    /**
     * The first segment's header and first record damaged: it goes aside and the journal starts at the next one,
     * reported as such (every later segment went aside with it before: "kept 0 records in 0 segments").
     */
    @Test
    void aFirstSegmentWithNoIntactRecordGoesAsideAndTheJournalStartsAfterIt() throws IOException {
        List<Path> files = fill();
        writeAt(files.getFirst(), 0, new byte[Format.HEADER_SIZE + 8]);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.size() == 2 && done.get(0).startsWith("moved " + files.getFirst() + " aside")
                && done.get(1).startsWith("the journal starts at " + files.get(1)), done.toString());
        assertEquals(files.subList(1, files.size()), Journal.listSegments(tmp));
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Format.parseName(files.get(1)), j.firstSequence());
        }
        assertEquals(RECORDS, intactRecords());
    }

    /**
     * A deleteBefore interrupted by a crash left old segments before the one it marked, whose header and first record
     * are then damaged: the old segments go aside with it, and the journal starts after it. Cutting after the old
     * segments handed out the sequences of the segments after them again.
     */
    @Test
    void aDamagedStartLeftByAnInterruptedDeletionTakesTheLeftoversAsideWithIt() throws IOException {
        List<Path> files = fill();
        Path start = files.get(3);
        writeAt(start, Format.START_OFFSET, Format.startMarker(Format.parseName(start)).array()); // marked, crash
        writeAt(start, 0, new byte[Format.START_OFFSET]); // then header ...
        writeAt(start, Format.HEADER_SIZE, new byte[16]); // ... and first record damaged
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp) + " after " + done);
        assertEquals(files.subList(4, files.size()), Journal.listSegments(tmp), done.toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Format.parseName(files.get(4)), j.firstSequence());
            assertEquals(RECORDS, j.nextSequence(), "no sequence handed out again");
        }
        for (Path aside : files.subList(0, 4)) {
            assertTrue(Files.exists(aside.resolveSibling(aside.getFileName() + ".cut")), aside + ": " + done);
        }
    }

    /** A missing first segment and the next one's header damaged: the rewrite does not hide the missing records. */
    @Test
    void aRewrittenFirstHeaderStillReportsTheSegmentsMissingBeforeIt() throws IOException {
        List<Path> files = fill();
        Files.delete(files.getFirst());
        writeAt(files.get(1), 0, "XXXXXXXX".getBytes());
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.size() == 2 && done.get(0).startsWith("wrote the header of " + files.get(1))
                && done.get(1).startsWith("the journal starts at " + files.get(1)), done.toString());
    }

    /** A damaged file before the journal's start (a deletion's leftover): readers skip it, open keeps it aside. */
    @Test
    void aDamagedFileBeforeTheStartIsSkippedByReadersAndKeptAsideByOpen() throws IOException {
        List<Path> files = fill();
        long start;
        try (Journal j = Journal.open(tmp, options())) {
            start = j.deleteBefore(Format.parseName(files.get(3)));
        }
        Path junk = tmp.resolve(Format.fileName(start - 1));
        byte[] bytes = new byte[16384];
        new Random(3).nextBytes(bytes);
        Files.write(junk, bytes);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal ro = Journal.openReadOnly(tmp, options())) {
            assertEquals(start, ro.firstSequence());
        }
        assertEquals(RECORDS - start, intactRecords() - start);
        assertArrayEquals(bytes, Files.readAllBytes(junk.resolveSibling(junk.getFileName() + ".cut")));
        assertFalse(Files.exists(junk));
    }

    /** The damaged segment's bytes are kept aside whole; the later segments stay (JournalRepairGapTest). */
    @Test
    void aCutKeepsTheDamagedSegmentsBytesAside() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(1);
        byte[] original = Files.readAllBytes(damaged);
        writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // the first record's CRC
        byte[] broken = Files.readAllBytes(damaged);
        Journal.repair(tmp);
        List<Path> now = new ArrayList<>(files);
        now.add(2, tmp.resolve(Format.fileName(Format.parseName(damaged) + 1))); // the records after the damaged one
        assertEquals(now, Journal.listSegments(tmp));
        assertArrayEquals(broken, Files.readAllBytes(damaged.resolveSibling(damaged.getFileName() + ".cut")));
        for (Path later : files.subList(2, files.size())) {
            assertFalse(Files.exists(later.resolveSibling(later.getFileName() + ".cut")), later + " kept aside");
        }
        assertFalse(Arrays.equals(original, broken));
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Format.parseName(damaged), Payloads.readToGap(j, 0, MAX), "cut at the damaged record");
        }
    }

    @Test
    void aSegmentOfANewerFormatIsRefusedAndLeftAsItWas() throws IOException {
        List<Path> files = fill();
        Path newer = files.get(1);
        ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(newer), 0, Format.HEADER_SIZE).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(8, Format.VERSION + 1);
        CRC32C crc = new CRC32C();
        crc.update(header.duplicate().position(0).limit(Format.HEADER_CRC_OFFSET));
        header.putInt(Format.HEADER_CRC_OFFSET, (int) crc.getValue());
        byte[] bytes = new byte[Format.HEADER_SIZE];
        header.get(0, bytes);
        writeAt(newer, 0, bytes);
        byte[] before = Files.readAllBytes(newer);
        Files.delete(files.getFirst()); // and segments missing before it: nothing is marked either
        byte[] second = Files.readAllBytes(files.get(1));
        IolabException e = assertThrows(IolabException.class, () -> Journal.repair(tmp));
        assertTrue(e.getMessage().contains("format version " + (Format.VERSION + 1)) && e.getMessage().contains(
                "nothing was changed"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(newer));
        assertArrayEquals(second, Files.readAllBytes(files.get(1)));
        assertEquals(files.subList(1, files.size()), Journal.listSegments(tmp));
    }

    /** A copy of a segment under another name, header damaged: its records' sequences are not the name's. */
    @Test
    void aHeaderIsNotWrittenAgainOverRecordsOfAnotherSequence() throws IOException {
        List<Path> files = fill();
        Path impostor = tmp.resolve(Format.fileName(Format.parseName(files.get(2)) + 1));
        Files.copy(files.get(2), impostor);
        writeAt(impostor, 0, "XXXXXXXX".getBytes());
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.getFirst().startsWith("moved " + impostor + " aside to " + impostor + ".cut"), done.toString());
        assertEquals(files, Journal.listSegments(tmp));
        assertEquals(RECORDS, intactRecords());
    }

    /**
     * A last segment cut below its synced mark, with its header damaged too: the rewritten header keeps the mark
     * valid (its capacity reaches it), so the lost synced records are still reported and cut, not taken for a torn
     * tail (the capacity was the file's size, below the mark, which then read as no mark).
     */
    @Test
    void aRewrittenHeaderKeepsTheSyncedMarkOfRecordsTheFileLost() throws IOException {
        List<Path> files = fill();
        Path last = files.getLast();
        long mark = SyncedMarks.get(last);
        assertTrue(mark > Format.HEADER_SIZE + 200, "the close marked the last segment: " + mark);
        try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE)) {
            ch.truncate(mark - 100);
        }
        writeAt(last, 0, "XXXXXXXX".getBytes());
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.size() == 4 && done.get(0).startsWith("wrote the header of " + last)
                && done.get(1).startsWith("made ") && done.get(2).startsWith("cut " + last)
                && done.get(2).contains("synced mark") && done.get(3).startsWith("the journal goes on at "),
                done.toString());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        // the records the truncation took were synced: their sequences are not handed out again
        assertTrue(nextSequence() >= RECORDS, "next append after the cut: " + nextSequence());
    }

    /**
     * The only segment of a trimmed journal, header and first record damaged: replaced by an empty one past every record
     * it can have held, its bytes kept aside.
     */
    @Test
    void aTrimmedJournalsOnlySegmentIsReplacedByAnEmptyOneAndKeptAside() throws IOException {
        fill();
        long kept;
        try (Journal j = Journal.open(tmp, options())) {
            kept = j.deleteBefore(j.nextSequence());
        }
        Path only = Journal.listSegments(tmp).getFirst();
        assertEquals(kept, Format.parseName(only));
        writeAt(only, 0, new byte[Format.HEADER_SIZE + 8]);
        byte[] damaged = Files.readAllBytes(only);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.size() == 1 && done.getFirst().startsWith("cut " + only + " at offset 0: the journal goes on"
                + " at sequence "), done.toString());
        assertArrayEquals(damaged, Files.readAllBytes(only.resolveSibling(only.getFileName() + ".cut")));
        assertEquals(1, Journal.listSegments(tmp).size());
        try (Journal j = Journal.open(tmp, options())) {
            assertTrue(j.nextSequence() >= RECORDS && j.firstSequence() == j.nextSequence(),
                    "no sequence handed out again (" + kept + " to " + (RECORDS - 1) + " were in it): "
                            + j.nextSequence());
        }
    }

    // ---------------------------------------------------------------- a cut whose sync fails

    /*
     * A repair's cut whose sync fails changes nothing. It used to zero the damaged segment in place: a sync that
     * failed with an I/O error left the zeros in the page cache, where the same boot read them (verify then said the
     * journal was whole, and a writer appended after the cut), but not on the device, where the records the cut
     * removed stayed; after a power loss they would follow the new records as intact ones. Now a cut writes a new
     * segment and renames it over the old one only once its sync succeeded.
     */

    private static StorageOpener failing(AtomicBoolean fail) {
        return (f, w) -> FailingForces.open(Backend.CHANNEL_HEAP, f, w, fail);
    }

    private List<Path> leftovers() throws IOException {
        try (var list = Files.list(tmp)) {
            return list.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }

    @Test
    void aCutInsideASegmentWhoseSyncFailsLeavesTheSegmentAsItWas() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(1);
        writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // the first record's CRC
        byte[] broken = Files.readAllBytes(damaged);
        VerifyReport before = Journal.verify(tmp);
        assertFalse(before.ok());

        IolabException e = assertThrows(IolabException.class,
                () -> Journal.repair(tmp, what -> { }, failing(new AtomicBoolean(true))));
        // the first sync to fail is the one of the segment that keeps the records after the damaged one, written
        // before the cut
        assertTrue(e.getMessage().contains(Format.fileName(Format.parseName(damaged) + 1)), e.getMessage());
        assertArrayEquals(broken, Files.readAllBytes(damaged), "the segment is untouched, in the page cache too");
        assertEquals(before.problems().getFirst().file(), Journal.verify(tmp).problems().getFirst().file());
        assertEquals(before.problems().getFirst().offset(), Journal.verify(tmp).problems().getFirst().offset(),
                "the damage is still reported where it was");
        assertEquals(List.of(), leftovers(), "the copy is deleted");
        assertThrows(JournalCorruptedException.class, this::intactRecords, "a read still stops at the damage");

        // with syncs that work the same repair cuts there, and the journal goes on after the gap
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Format.parseName(damaged), Payloads.readToGap(j, 0, MAX), "cut at the damaged record");
            Payloads.append(j, j.nextSequence(), j.nextSequence() + 50, MAX);
        }
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(RECORDS + 50 - Format.parseName(files.get(2)),
                    Payloads.readChecked(j, Format.parseName(files.get(2)), MAX));
        }
    }

    @Test
    void anOnlySegmentWithADamagedHeaderWhoseEmptyingFailsToSyncStaysAsItWas() throws IOException {
        try (Journal j = Journal.open(tmp, options().withSegmentSize(1 << 20))) {
            Payloads.append(j, 0, 100, MAX);
        }
        Path only = Journal.listSegments(tmp).getFirst();
        writeAt(only, 0, "XXXXXXXXXXXXXXXX".getBytes());
        writeAt(only, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // and the first record: the header is not rebuilt
        byte[] broken = Files.readAllBytes(only);
        assertThrows(IolabException.class, () -> Journal.repair(tmp, what -> { }, failing(new AtomicBoolean(true))));
        assertArrayEquals(broken, Files.readAllBytes(only));
        assertEquals(List.of(), leftovers());
        assertFalse(Journal.verify(tmp).ok());

        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.getLast().startsWith("cut " + only + " at offset 0: the journal goes on at sequence "),
                done.toString());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        long next;
        try (Journal j = Journal.open(tmp, options())) {
            next = j.nextSequence();
            assertTrue(next >= 100, "the next append takes " + next + ", which one of the 100 records had");
            Payloads.append(j, next, next + 20, MAX);
        }
        assertEquals(next + 20, intactRecords());
    }

    /** The new segment replaces the old one with its permissions: a 0600 journal does not become readable to all. */
    @Test
    void theCutSegmentKeepsItsPermissions() throws IOException {
        List<Path> files = fill();
        Path damaged = files.getLast();
        writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Files.setPosixFilePermissions(damaged, PosixFilePermissions.fromString("rw-------"));
        Journal.repair(tmp);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(damaged)));
        assertEquals(Format.parseName(damaged), recordsBeforeGap());
        // the records after the damaged one stay, in a segment of their own, with the same permissions
        Path rescued = tmp.resolve(Format.fileName(Format.parseName(damaged) + 1));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(rescued)));
        assertEquals(RECORDS, nextSequence());
    }

    /** A segment that is a link: the file it names is cut, and the link still names it (a review of the cut). */
    @Test
    void aLinkedSegmentIsCutInTheFileItNames() throws IOException {
        List<Path> files = fill();
        Path damaged = files.getLast();
        Path elsewhere = Files.createDirectories(tmp.resolveSibling(tmp.getFileName() + "-elsewhere"));
        Path real = Files.move(damaged, elsewhere.resolve(damaged.getFileName()));
        Files.createSymbolicLink(damaged, real);
        writeAt(real, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Journal.repair(tmp);
        assertTrue(Files.isSymbolicLink(damaged), "the link was replaced by a file");
        assertEquals(Format.parseName(damaged), recordsBeforeGap());
        assertEquals(RECORDS, nextSequence());
        assertFalse(Files.exists(elsewhere.resolve(damaged.getFileName() + ".tmp")));
    }

    private static void writeAt(Path file, long position, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), position);
        }
    }
}
