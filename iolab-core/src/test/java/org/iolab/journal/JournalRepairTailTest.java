package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A repair that cuts records from the journal's last segment never lets the next appends take their sequences again.
 * Those records were synced (below the synced mark, or in a sealed segment), so they may have been acknowledged and
 * read: a consumer that saved "done up to sequence N" would skip a new record that took N, and a reader would see
 * two records under one sequence. Before, the cut left the journal ending at the damage, and the next append took the
 * first sequence cut.
 */
class JournalRepairTailTest {
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

    private static List<Path> fill(Path dir) {
        try (Journal j = Journal.open(dir, options())) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        List<Path> files = Journal.listSegments(dir);
        assertTrue(files.size() >= 3 && Frames.starts(files.getLast()).size() >= 4, files.toString());
        return files;
    }

    private static long nextSequence(Path dir) {
        try (Journal j = Journal.open(dir, options())) {
            return j.nextSequence();
        }
    }

    /** @return the index of a record of {@code segment} after its first with a payload of at least 8 bytes */
    private static int recordWithPayload(Path segment) {
        long first = Format.parseName(segment);
        for (int k = 1; k < Frames.starts(segment).size() - 1; k++) {
            if (Payloads.size(first + k, MAX) >= 8) {
                return k;
            }
        }
        throw new AssertionError("no record with a payload in " + segment);
    }

    private static void flip(Path file, long at) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Frames.writeAt(file, at, new byte[] {(byte) (bytes[(int) at] ^ 0x10)});
    }

    /**
     * A flipped payload bit in the last segment costs its record: the records after it stay (in a segment of their
     * own), and the next append takes the sequence after the last of them.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFlippedPayloadBitInTheLastSegmentCostsItsRecordOnly(Backend backend) throws IOException {
        Path last = fill(tmp).getLast();
        int k = recordWithPayload(last);
        long damaged = Format.parseName(last) + k;
        flip(last, Frames.starts(last).get(k) + Format.FRAME_HEADER + 3);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok() && after.problems().isEmpty(), after + " after " + done);
        assertEquals(1, after.cut(), done.toString());
        List<Long> expected = Payloads.range(0, damaged);
        expected.addAll(Payloads.range(damaged + 1, RECORDS));
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertEquals(expected, Payloads.sequences(j, 0, MAX), done.toString());
            assertEquals(RECORDS, j.nextSequence());
            assertEquals(damaged + 1, Payloads.sequences(j, damaged, MAX).getFirst(), "a read from the record cut");
            assertEquals(RECORDS, j.append(Payloads.of(RECORDS, Payloads.size(RECORDS, MAX))));
        }
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertEquals(RECORDS, Payloads.sequences(j, RECORDS - 1, MAX).getLast());
        }
    }

    /**
     * A zeroed page destroys record headers: how many records it held is lost, so the journal goes on past every
     * record those bytes can have held (one per 16 bytes) and readers pass the gap.
     */
    @Test
    void aZeroedRangeInTheLastSegmentSkipsEverySequenceItMayHaveHeld() throws IOException {
        Path last = fill(tmp).getLast();
        long start = Frames.starts(last).get(1);
        Frames.writeAt(last, start, new byte[(int) (Frames.dataEnd(last) - start - 8)]);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok() && after.problems().isEmpty(), after + " after " + done);
        long next = nextSequence(tmp);
        assertTrue(next >= RECORDS, "the next append takes " + next + " (" + RECORDS + " were appended): " + done);
        long kept = Format.parseName(last) + 1;
        assertEquals(next - kept, after.cut(), "the sequences verify counts as cut");
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Payloads.range(0, kept), Payloads.sequences(j, 0, MAX));
            assertEquals(next, j.append(Payloads.of(next, Payloads.size(next, MAX))));
            List<Long> across = Payloads.sequences(j, kept - 1, MAX);
            assertEquals(List.of(kept - 1, next), across, "a read across the gap");
        }
    }

    /**
     * An empty last segment with a damaged header after a sealed segment that is damaged itself: the open took where the
     * sealed segment's good records end for where its records end, wrote a gap marker naming it into the empty one,
     * and the repair after it rescued nothing past the damage (a review: 48 intact records lost). The open leaves it to
     * the repair now: the empty one goes, as before, and the sealed one, last now, is refused as damaged.
     */
    @Test
    void aDamagedSealedSegmentBeforeAnEmptyTailIsLeftToTheRepair() throws IOException {
        List<Path> files = fill(tmp);
        Path last = files.getLast();
        Path sealed = files.get(files.size() - 2);
        Frames.writeAt(last, 0, new byte[(int) Files.size(last)]); // nothing in it, its header zeros
        int k = recordWithPayload(sealed);
        long damaged = Format.parseName(sealed) + k;
        flip(sealed, Frames.starts(sealed).get(k) + Format.FRAME_HEADER + 2);
        VerifyReport before = Journal.verify(tmp);
        assertFalse(before.ok(), before.toString());
        assertThrows(JournalCorruptedException.class, () -> Journal.open(tmp, options()).close());
        Journal.repair(tmp);
        long lastOfSealed = Format.parseName(last) - 1;
        try (Journal j = Journal.open(tmp, options())) {
            List<Long> read = Payloads.sequences(j, damaged - 1, MAX);
            assertEquals(damaged - 1, read.getFirst());
            assertEquals(Payloads.range(damaged + 1, lastOfSealed + 1), read.subList(1, read.size()),
                    "the intact records after the damage are kept");
        }
    }

    /**
     * The empty segment a repair made after the cut, its header damaged since (zeros, as an interrupted creation
     * leaves): the seal before it was written only after that header was synced, so it is no interrupted creation.
     * The open took it for one and deleted it, and the next append took the first sequence the repair had skipped.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theRepairsEmptyTailWithADamagedHeaderStillKeepsTheSkippedSequencesTaken(Backend backend) throws IOException {
        Path last = fill(tmp).getLast();
        long start = Frames.starts(last).get(1);
        Frames.writeAt(last, start, new byte[(int) (Frames.dataEnd(last) - start - 8)]);
        Journal.repair(tmp);
        long next = nextSequence(tmp);
        long kept = Format.parseName(last) + 1;
        assertTrue(next > kept, next + " after " + kept);
        Path tail = tmp.resolve(Format.fileName(next));
        assertTrue(Files.exists(tail), Journal.listSegments(tmp).toString());
        Frames.writeAt(tail, 0, new byte[Format.HEADER_SIZE]);
        VerifyReport before = Journal.verify(tmp);
        assertTrue(before.ok() && before.problems().getFirst().what().contains("the next open writes it again, and the"
                + " journal goes on at sequence " + next), before.toString());
        assertEquals(next - kept, before.cut(), "verify counts the gap the open keeps");
        if (backend == Backend.RANDOM_ACCESS_FILE) {
            // a repair leaves it to the open (it mends nothing a crash can leave): the same after it
            Journal.repair(tmp);
        }
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertEquals(next, j.nextSequence(), "the sequences the repair skipped stay taken");
            assertEquals(next, j.append(Payloads.of(next, Payloads.size(next, MAX))));
            assertEquals(List.of(kept - 1, next), Payloads.sequences(j, kept - 1, MAX), "a read across the gap");
        }
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok() && after.problems().isEmpty(), after.toString());
        assertEquals(next - kept, after.cut());
    }

    /**
     * A record whose length was damaged to cover the records after it, and whose payload is damaged too: nothing
     * follows where its length ends, which proves nothing about the records it swallowed. The count is bounded by the
     * bytes, not taken as one record.
     */
    @Test
    void aDamagedLengthThatSwallowsTheRecordsAfterItDoesNotShrinkTheCount() throws IOException {
        Path last = fill(tmp).getLast();
        int k = recordWithPayload(last);
        long start = Frames.starts(last).get(k);
        long end = Frames.dataEnd(last);
        Frames.writeAt(last, start, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(0, (int) (end - start)).array());
        flip(last, start + Format.FRAME_HEADER + 3);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp) + " after " + done);
        long next = nextSequence(tmp);
        assertTrue(next >= RECORDS, "the next append takes " + next + " (" + RECORDS + " were appended): " + done);
    }

    /** The journal's last segment, its header and first record destroyed: it goes aside,
            and its sequences stay taken. */
    @Test
    void aLastSegmentWithADamagedHeaderOverNoIntactRecordGoesAsideAndItsSequencesStayTaken() throws IOException {
        List<Path> files = fill(tmp);
        Path last = files.getLast();
        byte[] original = Files.readAllBytes(last);
        Frames.writeAt(last, 0, "XXXXXXXX".getBytes());
        Frames.writeAt(last, Format.HEADER_SIZE, new byte[Format.FRAME_HEADER]);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok() && after.problems().isEmpty(), after + " after " + done);
        long next = nextSequence(tmp);
        assertTrue(next >= RECORDS, "the next append takes " + next + ": " + done);
        assertEquals(next - Format.parseName(last), after.cut(), done.toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(Payloads.range(0, Format.parseName(last)), Payloads.sequences(j, 0, MAX));
        }
        byte[] aside = Files.readAllBytes(last.resolveSibling(last.getFileName() + ".cut"));
        int from = Format.HEADER_SIZE + Format.FRAME_HEADER;
        assertArrayEquals(java.util.Arrays.copyOfRange(original, from, original.length),
                java.util.Arrays.copyOfRange(aside, from, aside.length), "its records' bytes are kept aside");
    }

    /**
     * The only segment of a journal, its header and first record destroyed: the journal starts again past every record
     * it can have held, at a new empty segment that carries the start marker, its bytes kept aside.
     */
    @Test
    void anOnlySegmentWithADamagedHeaderRestartsPastItsRecords() throws IOException {
        JournalOptions big = options().withSegmentSize(1 << 20);
        try (Journal j = Journal.open(tmp, big)) {
            Payloads.append(j, 0, 50, MAX);
        }
        Path only = Journal.listSegments(tmp).getFirst();
        Frames.writeAt(only, 0, "XXXXXXXX".getBytes());
        Frames.writeAt(only, Format.HEADER_SIZE, new byte[Format.FRAME_HEADER]);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok() && after.problems().isEmpty(), after + " after " + done);
        List<Path> files = Journal.listSegments(tmp);
        assertEquals(1, files.size(), files.toString());
        assertTrue(Files.exists(only.resolveSibling(only.getFileName() + ".cut")), "its bytes are kept aside");
        try (Journal j = Journal.open(tmp, big)) {
            assertTrue(j.firstSequence() >= 50 && j.nextSequence() == j.firstSequence(), j.firstSequence() + " "
                    + j.nextSequence() + ": " + done);
            long next = j.nextSequence();
            assertEquals(next, j.append(Payloads.of(next, Payloads.size(next, MAX))));
            assertEquals(List.of(next), Payloads.sequences(j, j.firstSequence(), MAX));
        }
    }

    /**
     * A repair of the last segment stopped at any file open (a crash there) and run again: in between, an open either
     * refuses the journal or goes on past the records cut; after, every record the damage did not touch is there and
     * the next append takes no sequence the journal had.
     */
    @Test
    void aRepairOfTheLastSegmentStoppedAtAnyStepNeverHandsOutASequenceAgain() throws IOException {
        Path pristine = tmp.resolve("pristine");
        Path last = fill(pristine).getLast();
        int k = recordWithPayload(last);
        long damaged = Format.parseName(last) + k;
        long at = Frames.starts(last).get(k) + Format.FRAME_HEADER + 3;
        long zeroFrom = Frames.starts(last).get(k);
        int zeros = (int) (Frames.dataEnd(last) - zeroFrom - 8);
        for (boolean rescue : new boolean[] {true, false}) {
            int[] calls = {0};
            Path counted = Frames.copySegments(pristine, tmp.resolve("counted-" + rescue));
            damage(counted.resolve(last.getFileName()), rescue, at, zeroFrom, zeros);
            Journal.repair(counted, what -> { }, (file, writable) -> {
                calls[0]++;
                return Backend.CHANNEL_HEAP.open(file, writable);
            });
            assertTrue(calls[0] >= 4, calls[0] + " opens");
            for (int stop = 1; stop <= calls[0]; stop++) {
                String what = (rescue ? "a flipped bit" : "a zeroed range") + ", stopped at open " + stop;
                Path dir = Frames.copySegments(pristine, tmp.resolve("stop-" + rescue + "-" + stop));
                damage(dir.resolve(last.getFileName()), rescue, at, zeroFrom, zeros);
                Frames.repairStoppedAt(dir, stop);
                long between;
                try {
                    between = nextSequence(dir);
                } catch (JournalCorruptedException refused) {
                    between = Long.MAX_VALUE;
                }
                assertTrue(between >= RECORDS, what + ": an open before the second repair appends at " + between);
                List<String> done = new ArrayList<>();
                Journal.repair(dir, done::add);
                VerifyReport after = Journal.verify(dir);
                assertTrue(after.ok() && after.problems().isEmpty(), what + ": " + after + " after " + done);
                long next = nextSequence(dir);
                assertTrue(rescue ? next == RECORDS : next >= RECORDS, what + ": next append " + next + " " + done);
                List<Long> expected = Payloads.range(0, damaged);
                if (rescue) {
                    expected.addAll(Payloads.range(damaged + 1, RECORDS));
                }
                try (Journal j = Journal.open(dir, options())) {
                    assertEquals(expected, Payloads.sequences(j, 0, MAX), what + ", then " + done);
                }
            }
        }
    }

    /** The first sequence of a journal whose next ones near {@code Long.MAX_VALUE}. */
    private static final long NEAR_MAX = Long.MAX_VALUE - 60;
    private static final int NEAR_MAX_RECORDS = 50;

    /**
     * Writes {@code seg}, the only segment of a journal that starts at {@link #NEAR_MAX} (marked as its start), with
     * {@link #NEAR_MAX_RECORDS} records of 16 bytes, all below its synced mark.
     *
     * @return where its data ends
     */
    private static long nearMax(Path seg) throws IOException {
        ByteBuffer file = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
        file.put(0, Format.header(NEAR_MAX, 8192), 0, Format.HEADER_SIZE);
        file.put(Format.START_OFFSET, Format.startMarker(NEAR_MAX), 0, 4);
        int p = Format.HEADER_SIZE;
        for (int i = 0; i < NEAR_MAX_RECORDS; i++) {
            byte[] fr = Frames.frame(NEAR_MAX + i, Payloads.of(NEAR_MAX + i, 16));
            file.put(p, fr);
            p += fr.length;
        }
        file.put(Format.MARK_OFFSET, Format.syncedMark(NEAR_MAX, p), 0, Format.MARK_SIZE);
        Files.write(seg, file.array());
        return p;
    }

    /**
     * Repairs {@code dir} and checks that it then verifies clean and that the next append takes no sequence below
     * {@code synced} (every record before it was synced: a reader may have seen it).
     *
     * @return what the repair did
     */
    private static List<String> assertRepairedPast(Path dir, JournalOptions o, long synced) {
        List<String> done = new ArrayList<>();
        Journal.repair(dir, done::add);
        VerifyReport after = Journal.verify(dir);
        assertTrue(after.ok(), after + " after " + done);
        long next;
        try (Journal j = Journal.open(dir, o)) {
            next = j.nextSequence();
        }
        assertTrue(next >= synced, "the next append takes " + next + ", but the records up to " + (synced - 1)
                + " were synced: " + done);
        return done;
    }

    // ------------------------------------------------------------------------------------------ a review's cases

    private static List<Long> sequences(Path dir) {
        List<Long> seqs = new ArrayList<>();
        try (Journal j = Journal.open(dir, options())) {
            j.read(0, (seq, payload) -> seqs.add(seq));
        }
        return seqs;
    }

    /**
     * A failed sync's note says a completed sync covered every record before 300; the mark lagged; the last segment's
     * records from its second on are zeroed but for the data's last 8 bytes. The bound (533) overshoots the note, and
     * the open that applies the note deletes the new tail as "made after the last completed force".
     */
    @Test
    void aFailedSyncNoteBelowTheBoundMakesTheOpenDeleteTheNewTail() throws IOException {
        Path last = fill(tmp).getLast();
        SyncedMarks.set(last, Format.HEADER_SIZE);
        FailedSync.record(tmp, RECORDS);
        long from = Frames.starts(last).get(1);
        Frames.writeAt(last, from, new byte[(int) (Frames.dataEnd(last) - from - 8)]);
        VerifyReport before = Journal.verify(tmp);
        assertTrue(!before.ok(), before.toString());
        assertRepairedPast(tmp, options(), RECORDS);
    }

    /**
     * A folder has the name of the new tail segment: the rescued records are written sealed after an unsealed cut
     * segment, with no gap marker, and the next open deletes them.
     */
    @Test
    void aFolderWithTheTailsNameLosesTheRescuedRecordsAndReusesSequences() throws IOException {
        Path last = fill(tmp).getLast();
        long first = Format.parseName(last);
        int k = 1;
        while (Payloads.size(first + k, MAX) < 8) {
            k++;
        }
        long damaged = first + k;
        long at = Frames.starts(last).get(k) + Format.FRAME_HEADER + 3;
        byte[] b = Files.readAllBytes(last);
        Frames.writeAt(last, at, new byte[] {(byte) (b[(int) at] ^ 0x10)});
        Files.createDirectory(tmp.resolve(Format.fileName(RECORDS)));
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        List<Long> seqs = sequences(tmp); // the writable open
        long next = nextSequence(tmp);
        assertTrue(next >= RECORDS, "the next append takes " + next + "; verify said " + after + " after " + done);
        assertEquals(RECORDS - 1, seqs.size(), "only the damaged record " + damaged + " is lost: " + done);
        assertTrue(after.ok() && after.problems().isEmpty(), after + " after " + done);
    }

    /** A sealed last segment (a roll whose next segment could not be made): every record in it was synced. */
    @Test
    void aSealedLastSegmentsLostRecordsStayTaken() throws IOException {
        Path last = fill(tmp).getLast();
        sealWithoutMark(last);
        long from = Frames.starts(last).get(1);
        long end = Frames.dataEnd(last);
        byte[] garbage = new byte[Format.FRAME_HEADER];
        Arrays.fill(garbage, (byte) 0xFF);
        Frames.writeAt(last, from, new byte[(int) (end - from)]);
        Frames.writeAt(last, from, garbage);
        VerifyReport before = Journal.verify(tmp);
        assertTrue(!before.ok(), before.toString());
        assertRepairedPast(tmp, options(), RECORDS);
    }

    /** A journal near Long.MAX: the bound overflows. */
    @Test
    void theBoundDoesNotOverflowNearLongMax() throws IOException {
        Path seg = tmp.resolve(Format.fileName(NEAR_MAX));
        long p = nearMax(seg);
        long s = NEAR_MAX;
        int n = NEAR_MAX_RECORDS;
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        assertEquals(s + n, nextSequence(tmp));
        // damage: record 1 on destroyed, the last 8 bytes of data left
        long from = Format.HEADER_SIZE + 32;
        Frames.writeAt(seg, from, new byte[(int) (p - from - 8)]);
        assertRepairedPast(tmp, options(), s + n);
    }

    /** The only segment near Long.MAX, header and first record destroyed: the restart overflows. */
    @Test
    void theOnlySegmentsRestartDoesNotOverflowNearLongMax() throws IOException {
        Path seg = tmp.resolve(Format.fileName(NEAR_MAX));
        long p = nearMax(seg);
        long s = NEAR_MAX;
        int n = NEAR_MAX_RECORDS;
        assertEquals(s + n, nextSequence(tmp));
        Frames.writeAt(seg, 0, "XXXXXXXX".getBytes());
        Frames.writeAt(seg, Format.HEADER_SIZE, new byte[Format.FRAME_HEADER]);
        assertRepairedPast(tmp, options(), s + n);
    }

    /**
     * A failed sync's note covers records that a zeroed tail lost (mark lagged): the bound ignores the note, so each
     * step makes one empty segment one sequence further, and the repair runs out of steps far before the note.
     */
    @Test
    void aFailedSyncNoteFarPastTheLostRecordsIsReachedByTheRepair() throws IOException {
        JournalOptions big = options().withSegmentSize(1 << 20);
        try (Journal j = Journal.open(tmp, big)) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        Path only = Journal.listSegments(tmp).getFirst();
        SyncedMarks.set(only, Format.HEADER_SIZE); // the mark lagged
        FailedSync.record(tmp, RECORDS); // a completed sync covered every record before 300
        long from = Frames.starts(only).get(10);
        Frames.writeAt(only, from, new byte[(int) (Files.size(only) - from)]);
        assertTrue(!Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok(), after + " after " + done.size() + " steps, the segments now "
                + Journal.listSegments(tmp).stream().map(f -> f.getFileName().toString()).toList());
        long next;
        try (Journal j = Journal.open(tmp, big)) {
            next = j.nextSequence();
        }
        assertTrue(next >= RECORDS, "the next append takes " + next + ": " + done.getLast());
    }

    /** The last segment's header lost over no intact record, the repair stopped at each open and run again. */
    @Test
    void aRepairOfALostLastHeaderStoppedAtAnyStepNeverHandsOutASequenceAgain() throws IOException {
        Path pristine = tmp.resolve("p");
        Path last = fill(pristine).getLast();
        Frames.writeAt(last, 0, "XXXXXXXX".getBytes());
        Frames.writeAt(last, Format.HEADER_SIZE, new byte[Format.FRAME_HEADER]);
        for (int stop = 1; stop <= 12; stop++) {
            Path dir = Frames.copySegments(pristine, tmp.resolve("s" + stop));
            Frames.repairStoppedAt(dir, stop);
            try {
                long between = nextSequence(dir);
                assertTrue(between >= RECORDS, "stop " + stop + ": " + between);
            } catch (JournalCorruptedException refused) {
                // fine
            }
            Journal.repair(dir);
            assertTrue(Journal.verify(dir).ok(), "stop " + stop + ": " + Journal.verify(dir));
            assertTrue(nextSequence(dir) >= RECORDS, "stop " + stop);
            Journal.repair(dir);
            assertTrue(Journal.verify(dir).problems().isEmpty(), "stop " + stop + ": " + Journal.verify(dir));
        }
    }

    /**
     * A sealed last segment (every record in it was synced) with a flipped payload bit in one record, and its last
     * records lost to zeros (a lost page) further on: the intact records between end the data,
             and findLast takes that run
     * as the exact count. The records past it were synced (sealed) and may have been acknowledged and read: the journal
     * must go on past them.
     */
    @Test
    void aSealedLastSegmentsRecordsPastAnIntactRunStayTaken() throws IOException {
        Path last = fill(tmp).getLast();
        List<Long> starts = Frames.starts(last);
        long dataEnd = Frames.dataEnd(last);
        assertTrue(starts.size() >= 8, starts.toString());
        long first = Format.parseName(last);
        sealWithoutMark(last);
        int k = -1;
        for (int i = 1; i < starts.size() - 5; i++) {
            if (Payloads.size(first + i, MAX) >= 8) {
                k = i;
                break;
            }
        }
        assertTrue(k > 0);
        flip(last, starts.get(k) + Format.FRAME_HEADER + 3); // a payload bit of record k
        // the last records lost to zeros, two intact records after the damaged one
        long zeroFrom = starts.get(k + 3);
        Frames.writeAt(last, zeroFrom, new byte[(int) (dataEnd - zeroFrom)]);
        assertRepairedPast(tmp, options(), RECORDS);
    }

    /**
     * A sealed last segment whose header is damaged over no intact record, and whose last records were lost to zeros:
     * it goes aside (tailAfterLoss), and the new tail must be named past every record it held; they were all synced.
     * Empty records (16-byte frames) make the one-per-16-bytes bound exact, so the zeroed ones are not covered by the
     * bound's overestimate.
     */
    @Test
    void aSealedLastSegmentWithALostHeaderKeepsItsZeroedRecordsTaken() throws IOException {
        int total;
        try (Journal j = Journal.open(tmp, options())) {
            long n = 0;
            while (Journal.listSegments(tmp).size() < 2 || j.nextSequence() - Format.parseName(
                    Journal.listSegments(tmp).getLast()) < 100) {
                j.append(new byte[0]);
                n++;
            }
            total = (int) n;
        }
        Path last = Journal.listSegments(tmp).getLast();
        long first = Format.parseName(last);
        List<Long> starts = Frames.starts(last);
        long dataEnd = Frames.dataEnd(last);
        assertTrue(starts.size() >= 100, starts.toString());
        sealWithoutMark(last);
        Frames.writeAt(last, 0, "XXXXXXXX".getBytes());
        Frames.writeAt(last, Format.HEADER_SIZE, new byte[Format.FRAME_HEADER]);
        long zeroFrom = starts.get(50);
        Frames.writeAt(last, zeroFrom, new byte[(int) (dataEnd - zeroFrom)]);
        assertRepairedPast(tmp, options(), total);
    }

    /** Seals {@code segment} as a roll leaves the segment it sealed: the seal marker, no synced mark. */
    private static void sealWithoutMark(Path segment) throws IOException {
        Frames.writeAt(segment, Format.SEAL_OFFSET, Format.sealMarker(Format.parseName(segment)).array());
        SyncedMarks.set(segment, Format.HEADER_SIZE);
    }

    private static void damage(Path segment, boolean flip, long at, long zeroFrom, int zeros) throws IOException {
        if (flip) {
            flip(segment, at);
        } else {
            Frames.writeAt(segment, zeroFrom, new byte[zeros]);
        }
    }
}
