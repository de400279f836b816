package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A repair that cuts a segment in the middle of the journal keeps the segments after it: the next one carries a gap
 * marker naming the sequences cut, and readers go on across the gap. A writable open checks only the last segment, so
 * a journal damaged in a sealed middle segment takes appends, acknowledged as durable; the repair that verify then
 * recommended moved every later segment aside, and those records with them.
 */
class JournalRepairGapTest {
    private static final int MAX = 300;
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(8192)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
    }

    private static JournalOptions options() {
        return options(Backend.DEFAULT);
    }

    private List<Path> fill() {
        try (Journal j = Journal.open(tmp, options())) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        List<Path> files = Journal.listSegments(tmp);
        assertTrue(files.size() >= 6, files.toString());
        return files;
    }

    private static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> r = new ArrayList<>(a);
        r.addAll(b);
        return r;
    }

    private static long seq(Path segment) {
        return Format.parseName(segment);
    }

    /**
     * The first and the last record of segment 2 damaged (so no run of intact records follows the damage to the
     * segment's end): the journal keeps segments 0-1, and 3 on after a gap.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aCutInAMiddleSegmentKeepsTheLaterSegmentsAcrossAGap(Backend backend) throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        damageFirstAndLast(damaged);
        byte[] broken = Files.readAllBytes(damaged);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertEquals(files, Journal.listSegments(tmp), "every segment stays: " + done);
        assertArrayEquals(broken, Files.readAllBytes(damaged.resolveSibling(damaged.getFileName() + ".cut")));
        assertTrue(done.size() == 2 && done.get(1).contains("sequences " + seq(damaged) + " to "
                + (seq(files.get(3)) - 1) + " are no longer in it"), done.toString());
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok() && after.problems().isEmpty(), after.toString());
        long cut = seq(files.get(3)) - seq(damaged);
        assertEquals(cut, after.cut());
        assertEquals(RECORDS - cut, after.records());
        List<Long> expected = concat(Payloads.range(0, seq(damaged)), Payloads.range(seq(files.get(3)), RECORDS));
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertEquals(expected, Payloads.sequences(j, 0, MAX));
            assertEquals(Payloads.range(seq(files.get(3)), RECORDS), Payloads.sequences(j, seq(damaged) + 1, MAX),
                    "from inside the gap");
            try (JournalReader r = j.reader(seq(damaged) - 1)) {
                assertEquals(seq(damaged) - 1, r.next().sequence());
                assertEquals(seq(files.get(3)), r.next().sequence(), "the iterator across the gap");
            }
            assertEquals(RECORDS, j.append(Payloads.of(RECORDS, Payloads.size(RECORDS, MAX))));
        }
        try (Journal ro = Journal.openReadOnly(tmp, options(backend))) {
            assertEquals(concat(expected, List.of((long) RECORDS)), Payloads.sequences(ro, 0, MAX));
        }
    }

    /**
     * The case a review found: damage in a sealed middle segment, then a writable open that appends and acknowledges
     * records (ALWAYS), then the repair verify recommends: every acknowledged record is still there.
     */
    @Test
    void recordsAcknowledgedAfterDamageInAMiddleSegmentSurviveTheRepair() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(1);
        Frames.writeAt(damaged, 200, new byte[] {0x55, 0x55});
        List<Long> acknowledged = new ArrayList<>();
        try (Journal j = Journal.open(tmp, options().withDurability(Durability.ALWAYS))) {
            for (long s = RECORDS; s < RECORDS + 50; s++) {
                acknowledged.add(j.append(Payloads.of(s, Payloads.size(s, MAX))));
            }
        }
        assertFalse(Journal.verify(tmp).ok());
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            List<Long> read = Payloads.sequences(j, 0, MAX);
            assertTrue(read.containsAll(acknowledged), "lost acknowledged records: " + read);
            assertTrue(read.containsAll(Payloads.range(seq(files.get(2)), RECORDS)), "lost records of later segments");
            assertEquals(RECORDS + 50, j.nextSequence());
        }
    }

    /** A middle segment deleted by hand: nothing is cut, the next segment is marked, and readers pass the gap. */
    @Test
    void aMissingMiddleSegmentLeavesAGapAndNothingElseGoes() throws IOException {
        List<Path> files = fill();
        Files.delete(files.get(3));
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        List<Path> kept = new ArrayList<>(files);
        kept.remove(3);
        assertEquals(kept, Journal.listSegments(tmp), done.toString());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(concat(Payloads.range(0, seq(files.get(3))), Payloads.range(seq(files.get(4)), RECORDS)),
                    Payloads.sequences(j, 0, MAX));
        }
    }

    /** A middle segment whose header and first record are damaged goes aside; the gap it leaves is marked. */
    @Test
    void aMiddleSegmentWithNoIntactRecordGoesAsideAndTheJournalGoesOnAfterIt() throws IOException {
        List<Path> files = fill();
        Frames.writeAt(files.get(3), 0, new byte[Format.HEADER_SIZE + 8]);
        Journal.repair(tmp);
        assertTrue(Files.exists(files.get(3).resolveSibling(files.get(3).getFileName() + ".cut")));
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(concat(Payloads.range(0, seq(files.get(3))), Payloads.range(seq(files.get(4)), RECORDS)),
                    Payloads.sequences(j, 0, MAX));
        }
    }

    /** Two damaged segments: two gaps, each marked with its own sequences. */
    @Test
    void twoDamagedSegmentsLeaveTwoGaps() throws IOException {
        List<Path> files = fill();
        Frames.writeAt(files.get(1), 300, new byte[] {1, 2, 3});
        Frames.writeAt(files.get(4), Format.HEADER_SIZE, new byte[] {0, 0, 0, 0}); // a zero length: the data ends early
        Journal.repair(tmp);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok(), after.toString());
        try (Journal j = Journal.open(tmp, options())) {
            List<Long> read = Payloads.sequences(j, 0, MAX);
            assertTrue(read.containsAll(Payloads.range(seq(files.get(2)), seq(files.get(4)))), read.toString());
            assertTrue(read.containsAll(Payloads.range(seq(files.get(5)), RECORDS)), read.toString());
            assertFalse(read.contains(seq(files.get(4))), read.toString());
            assertEquals(RECORDS - read.size(), after.cut());
        }
    }

    /**
     * The marker names its gap: the segment before it losing more records later is damage again, reported and not
     * passed over as part of the gap.
     */
    @Test
    void moreRecordsLostBeforeAMarkedGapAreDamage() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        Frames.writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok());
        // segment 1 now loses its last record (its data ends one record early)
        Path before = files.get(1);
        long lastStart = Frames.lastStart(before);
        Frames.writeAt(before, lastStart, new byte[8]);
        VerifyReport report = Journal.verify(tmp);
        assertFalse(report.ok(), report.toString());
        try (Journal j = Journal.open(tmp, options())) {
            JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                    () -> Payloads.sequences(j, 0, MAX));
            assertEquals(before, e.file());
        }
    }

    /** A tailer that follows the journal from before the gap goes on after it. */
    @Test
    void aTailerCrossesTheGap() throws IOException, InterruptedException {
        List<Path> files = fill();
        damageFirstAndLast(files.get(2));
        Journal.repair(tmp);
        try (Journal j = Journal.open(tmp, options()); Tailer t = j.tailer(seq(files.get(2)) - 1)) {
            assertEquals(seq(files.get(2)) - 1, t.poll(Duration.ofSeconds(5)).sequence());
            assertEquals(seq(files.get(3)), t.poll(Duration.ofSeconds(5)).sequence());
        }
    }

    /**
     * deleteBefore a sequence in the gap keeps the cut segment (it deletes by the next segment's first sequence);
     * deleteBefore the first sequence after the gap deletes it, and the next one becomes the start.
     */
    @Test
    void deleteBeforeAcrossTheGapStartsTheJournalAfterIt() throws IOException {
        List<Path> files = fill();
        damageFirstAndLast(files.get(2));
        Journal.repair(tmp);
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(seq(files.get(2)), j.deleteBefore(seq(files.get(2)) + 1));
            assertEquals(Payloads.range(seq(files.get(3)), RECORDS), Payloads.sequences(j, j.firstSequence(), MAX));
            assertEquals(seq(files.get(3)), j.deleteBefore(seq(files.get(3))));
        }
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        assertEquals(files.subList(3, files.size()), Journal.listSegments(tmp));
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Payloads.range(seq(files.get(3)), RECORDS), Payloads.sequences(j, j.firstSequence(), MAX));
        }
    }

    /** Without the repair, an open reader still refuses the same gap: only the marker makes it one to pass. */
    @Test
    void anUnmarkedGapIsStillCorruption() throws IOException {
        List<Path> files = fill();
        Files.delete(files.get(3));
        try (Journal j = Journal.open(tmp, options())) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> Payloads.sequences(j, 0, MAX));
            assertInstanceOf(JournalCorruptedException.class, e);
        }
    }

    /**
     * A flipped byte in a middle segment's first record: the intact records after it in the segment are kept (in a
     * segment of their own, after a gap of one), not cut with it.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFlippedByteCostsOnlyItsRecord(Backend backend) throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        Frames.writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // the first record's CRC
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        Path rescued = tmp.resolve(Format.fileName(seq(damaged) + 1));
        List<Path> now = new ArrayList<>(files);
        now.add(3, rescued);
        assertEquals(now, Journal.listSegments(tmp), done.toString());
        assertTrue(done.getLast().equals("kept the intact records " + (seq(damaged) + 1) + " to "
                + (seq(files.get(3)) - 1) + " that followed the damage in " + rescued + ": the record of sequence "
                + seq(damaged) + " is no longer in the journal"), done.toString());
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok() && after.problems().isEmpty(), after.toString());
        assertEquals(1, after.cut());
        List<Long> expected = concat(Payloads.range(0, seq(damaged)), Payloads.range(seq(damaged) + 1, RECORDS));
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertEquals(expected, Payloads.sequences(j, 0, MAX));
            assertEquals(RECORDS, j.append(Payloads.of(RECORDS, Payloads.size(RECORDS, MAX))));
        }
        try (Journal ro = Journal.openReadOnly(tmp, options(backend))) {
            assertEquals(concat(expected, List.of((long) RECORDS)), Payloads.sequences(ro, 0, MAX));
        }
    }

    /**
     * Two damaged records in a segment: the records from the first on are lost (the run after the first meets the
     * second), the later segments stay.
     */
    @Test
    void twoDamagedRecordsInASegmentCostTheRecordsFromTheFirst() throws IOException {
        try (Journal j = Journal.open(tmp, options().withSegmentSize(1 << 20))) {
            for (long s = 0; s < 60_000; s++) {
                j.append(Payloads.of(s, 8));
            }
        }
        List<Path> files = Journal.listSegments(tmp);
        assertTrue(files.size() >= 2, files.toString());
        Path damaged = files.getFirst();
        long frame = Format.align(Format.FRAME_HEADER + 8);
        Frames.writeAt(damaged, Format.HEADER_SIZE + 10 * frame + 20, new byte[] {1}); // record 10's payload
        Frames.writeAt(damaged, Format.HEADER_SIZE + 15_000 * frame + 20, new byte[] {1}); // record 15,000's
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            List<Long> read = new ArrayList<>();
            j.read(0, (seq, payload) -> {
                byte[] b = new byte[payload.remaining()];
                payload.get(b);
                assertArrayEquals(Payloads.of(seq, 8), b, "record " + seq);
                return read.add(seq);
            });
            assertEquals(concat(Payloads.range(0, 10), Payloads.range(seq(files.get(1)), 60_000)), read);
        }
    }

    /**
     * Junk after the last record of a sealed middle segment (a review: ZERO_FILL segments end in zeros): no record is
     * lost, so the later segments stay, with the records a writer appended since. The repair moved them all aside.
     */
    @Test
    void junkAfterTheLastRecordOfAMiddleSegmentKeepsTheLaterSegments() throws IOException {
        JournalOptions zeroFilled = options().withPreallocation(Preallocation.ZERO_FILL);
        try (Journal j = Journal.open(tmp, zeroFilled)) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        List<Path> files = Journal.listSegments(tmp);
        Path damaged = null;
        for (int i = 1; i < files.size() - 2 && damaged == null; i++) {
            if (8192 - Frames.dataEnd(files.get(i)) >= Format.FRAME_HEADER) {
                damaged = files.get(i);
            }
        }
        assertTrue(damaged != null, "a segment with room after its records");
        Frames.writeAt(damaged, Frames.dataEnd(damaged), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff,
                (byte) 0x7f});
        List<Long> acknowledged = new ArrayList<>();
        try (Journal j = Journal.open(tmp, zeroFilled.withDurability(Durability.ALWAYS))) {
            for (long s = RECORDS; s < RECORDS + 20; s++) {
                acknowledged.add(j.append(Payloads.of(s, Payloads.size(s, MAX))));
            }
        }
        assertFalse(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.getLast().endsWith("(no record was lost)"), done.toString());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Payloads.range(0, RECORDS + 20), Payloads.sequences(j, 0, MAX), done.toString());
        }
    }

    /**
     * A reader inside the cut segment when deleteBefore deletes it goes on after the gap (a review: it was told the
     * records of the gap were deleted, and the start marker replaced the writer's view of the gap marker).
     */
    @Test
    void aReaderInTheCutSegmentGoesOnAfterTheGapWhenDeleteBeforeDeletesIt() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        Frames.writeAt(damaged, Frames.lastStart(damaged) + 4, new byte[] {0x7f}); // its last record: a gap of one
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        long s2 = seq(damaged);
        long s3 = seq(files.get(3));
        try (Journal j = Journal.open(tmp, options()); JournalReader r = j.reader(s2)) {
            assertEquals(s2, r.next().sequence()); // the reader has segment 2 open
            assertEquals(s3, j.deleteBefore(s3)); // segments 0, 1 and 2 go; the journal starts at 3
            long seq = s2;
            while (seq < s3 - 2) {
                assertEquals(++seq, r.next().sequence());
            }
            assertEquals(s3, r.next().sequence(), "the first record after the gap");
        }
    }

    /**
     * A repair stopped at any step (a process crash: the opener throws at its k-th call) leaves a journal that the
     * next repair brings to the same end: every record but the damaged one, intact, and the damaged bytes kept. (A
     * review found the gap marker written first: after a crash there, verify took the damage for the gap.)
     */
    @Test
    void aRepairStoppedAtAnyStepIsFinishedByTheNextOne() throws IOException {
        Path pristine = tmp.resolve("pristine");
        try (Journal j = Journal.open(pristine, options())) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        List<Path> files = Journal.listSegments(pristine);
        Path damagedName = files.get(2).getFileName();
        long damagedSeq = seq(files.get(2));
        int[] calls = {0};
        Path counted = Frames.copySegments(pristine, tmp.resolve("counted"));
        Frames.writeAt(counted.resolve(damagedName), Format.HEADER_SIZE + 4,
                new byte[] {0x7f}); // the first record's CRC
        Journal.repair(counted, what -> { }, (file, writable) -> {
            calls[0]++;
            return Backend.CHANNEL_HEAP.open(file, writable);
        });
        assertTrue(calls[0] >= 3, calls[0] + " opens");
        for (int k = 1; k <= calls[0]; k++) {
            Path dir = Frames.copySegments(pristine, tmp.resolve("stop-" + k));
            Frames.writeAt(dir.resolve(damagedName), Format.HEADER_SIZE + 4, new byte[] {0x7f});
            Frames.repairStoppedAt(dir, k);
            List<String> done = new ArrayList<>();
            Journal.repair(dir, done::add);
            VerifyReport after = Journal.verify(dir);
            assertTrue(after.ok() && after.problems().isEmpty(), "stopped at " + k + ": " + after + " after " + done);
            try (Journal j = Journal.open(dir, options())) {
                List<Long> expected = concat(Payloads.range(0, damagedSeq), Payloads.range(damagedSeq + 1, RECORDS));
                assertEquals(expected, Payloads.sequences(j, 0, MAX), "stopped at " + k + ", then " + done);
            }
            try (java.util.stream.Stream<Path> list = Files.list(dir)) {
                assertTrue(list.anyMatch(p -> p.getFileName().toString().startsWith(damagedName + ".")
                        && p.getFileName().toString().endsWith(".cut")),
                                "stopped at " + k + ": the damaged bytes kept");
            }
        }
    }

    /**
     * A middle segment cut short inside a record's padding (the random corruption properties found it): its records
     * end there, at the padding's end, past the file's end; the repair's copy of the bytes before the cut read past
     * the end and failed. Now the copy takes what the file has, and the rest is zeros.
     */
    @Test
    void aSegmentCutShortInsideARecordsPaddingIsRepaired() throws IOException {
        List<Path> files = fill();
        Path cut = null;
        long at = -1;
        for (int i = 1; i < files.size() - 1 && cut == null; i++) {
            try (SegmentCursor c = new SegmentCursor(Backend.CHANNEL_HEAP::open, files.get(i), 8192,
                    Backend.CHANNEL_HEAP.open(files.get(i), false))) {
                for (int k = 0; c.next(8192, false) == SegmentCursor.Status.RECORD; k++) {
                    long unpadded = c.recordStart() + Format.FRAME_HEADER + c.payload().remaining();
                    if (k < 3 && unpadded % Format.ALIGN != 0) {
                        cut = files.get(i);
                        at = unpadded;
                        break;
                    }
                }
            }
        }
        assertTrue(cut != null, "a record with padding among the first of a middle segment");
        try (FileChannel ch = FileChannel.open(cut, StandardOpenOption.WRITE)) {
            ch.truncate(at);
        }
        assertFalse(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp) + " after " + done);
        try (Journal j = Journal.open(tmp, options())) {
            List<Long> read = Payloads.sequences(j, 0, MAX);
            int next = files.indexOf(cut) + 1;
            assertTrue(read.containsAll(Payloads.range(seq(files.get(next)), RECORDS)), done.toString());
        }
    }

    /** Damages the CRC of the first and of the last record of {@code segment}. */
    private static void damageFirstAndLast(Path segment) throws IOException {
        long last = Frames.lastStart(segment);
        Frames.writeAt(segment, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Frames.writeAt(segment, last + 4, new byte[] {0x7f});
    }

}
