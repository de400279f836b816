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

    /** @return every record of the journal in order, each checked against the payload of its sequence */
    private static List<Long> sequences(Journal j, long from) {
        List<Long> seqs = new ArrayList<>();
        j.read(from, (seq, payload) -> {
            byte[] b = new byte[payload.remaining()];
            payload.get(b);
            assertArrayEquals(Payloads.of(seq, Payloads.size(seq, MAX)), b, "record " + seq);
            seqs.add(seq);
            return true;
        });
        return seqs;
    }

    /** @return the sequences {@code [from, to)} */
    private static List<Long> range(long from, long to) {
        List<Long> r = new ArrayList<>();
        for (long s = from; s < to; s++) {
            r.add(s);
        }
        return r;
    }

    private static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> r = new ArrayList<>(a);
        r.addAll(b);
        return r;
    }

    private static long seq(Path segment) {
        return Format.parseName(segment);
    }

    /** The first record of segment 2 damaged: the journal keeps segments 0-1, and 3 on after a gap. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aCutInAMiddleSegmentKeepsTheLaterSegmentsAcrossAGap(Backend backend) throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // the first record's CRC
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
        List<Long> expected = concat(range(0, seq(damaged)), range(seq(files.get(3)), RECORDS));
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertEquals(expected, sequences(j, 0));
            assertEquals(range(seq(files.get(3)), RECORDS), sequences(j, seq(damaged) + 1), "from inside the gap");
            try (JournalReader r = j.reader(seq(damaged) - 1)) {
                assertEquals(seq(damaged) - 1, r.next().sequence());
                assertEquals(seq(files.get(3)), r.next().sequence(), "the iterator across the gap");
            }
            assertEquals(RECORDS, j.append(Payloads.of(RECORDS, Payloads.size(RECORDS, MAX))));
        }
        try (Journal ro = Journal.openReadOnly(tmp, options(backend))) {
            assertEquals(concat(expected, List.of((long) RECORDS)), sequences(ro, 0));
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
        writeAt(damaged, 200, new byte[] {0x55, 0x55});
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
            List<Long> read = sequences(j, 0);
            assertTrue(read.containsAll(acknowledged), "lost acknowledged records: " + read);
            assertTrue(read.containsAll(range(seq(files.get(2)), RECORDS)), "lost records of later segments");
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
            assertEquals(concat(range(0, seq(files.get(3))), range(seq(files.get(4)), RECORDS)), sequences(j, 0));
        }
    }

    /** A middle segment whose header and first record are damaged goes aside; the gap it leaves is marked. */
    @Test
    void aMiddleSegmentWithNoIntactRecordGoesAsideAndTheJournalGoesOnAfterIt() throws IOException {
        List<Path> files = fill();
        writeAt(files.get(3), 0, new byte[Format.HEADER_SIZE + 8]);
        Journal.repair(tmp);
        assertTrue(Files.exists(files.get(3).resolveSibling(files.get(3).getFileName() + ".cut")));
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(concat(range(0, seq(files.get(3))), range(seq(files.get(4)), RECORDS)), sequences(j, 0));
        }
    }

    /** Two damaged segments: two gaps, each marked with its own sequences. */
    @Test
    void twoDamagedSegmentsLeaveTwoGaps() throws IOException {
        List<Path> files = fill();
        writeAt(files.get(1), 300, new byte[] {1, 2, 3});
        writeAt(files.get(4), Format.HEADER_SIZE, new byte[] {0, 0, 0, 0}); // a zero length: the data ends early
        Journal.repair(tmp);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok(), after.toString());
        try (Journal j = Journal.open(tmp, options())) {
            List<Long> read = sequences(j, 0);
            assertTrue(read.containsAll(range(seq(files.get(2)), seq(files.get(4)))), read.toString());
            assertTrue(read.containsAll(range(seq(files.get(5)), RECORDS)), read.toString());
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
        writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok());
        // segment 1 now loses its last record (its data ends one record early)
        Path before = files.get(1);
        long lastStart = lastRecordStart(before);
        writeAt(before, lastStart, new byte[8]);
        VerifyReport report = Journal.verify(tmp);
        assertFalse(report.ok(), report.toString());
        try (Journal j = Journal.open(tmp, options())) {
            JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> sequences(j, 0));
            assertEquals(before, e.file());
        }
    }

    /** A tailer that follows the journal from before the gap goes on after it. */
    @Test
    void aTailerCrossesTheGap() throws IOException, InterruptedException {
        List<Path> files = fill();
        writeAt(files.get(2), Format.HEADER_SIZE + 4, new byte[] {0x7f});
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
        writeAt(files.get(2), Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Journal.repair(tmp);
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(seq(files.get(2)), j.deleteBefore(seq(files.get(2)) + 1));
            assertEquals(range(seq(files.get(3)), RECORDS), sequences(j, j.firstSequence()));
            assertEquals(seq(files.get(3)), j.deleteBefore(seq(files.get(3))));
        }
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        assertEquals(files.subList(3, files.size()), Journal.listSegments(tmp));
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(range(seq(files.get(3)), RECORDS), sequences(j, j.firstSequence()));
        }
    }

    /** Without the repair, an open reader still refuses the same gap: only the marker makes it one to pass. */
    @Test
    void anUnmarkedGapIsStillCorruption() throws IOException {
        List<Path> files = fill();
        Files.delete(files.get(3));
        try (Journal j = Journal.open(tmp, options())) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> sequences(j, 0));
            assertInstanceOf(JournalCorruptedException.class, e);
        }
    }

    /** @return the offset of the last record of {@code segment} */
    private static long lastRecordStart(Path segment) {
        try (SegmentCursor c = new SegmentCursor(Backend.CHANNEL_HEAP::open, segment, 8192,
                Backend.CHANNEL_HEAP.open(segment, false))) {
            long last = -1;
            while (c.next(8192, false) == SegmentCursor.Status.RECORD) {
                last = c.recordStart();
            }
            return last;
        }
    }

    private static void writeAt(Path file, long position, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), position);
        }
    }
}
