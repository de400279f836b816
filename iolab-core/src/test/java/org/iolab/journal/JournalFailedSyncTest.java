package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FailingForces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A sync that fails (an I/O error from {@code fsync}): Linux marks the pages it could not write clean, so a reopen in
 * the same boot would find the records that never reached the device and take them for durable. The failing writer
 * leaves {@link FailedSync}'s note; the next open cuts the journal at the first record never reported durable.
 */
class JournalFailedSyncTest {
    private static final int MAX = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend, Durability durability, AtomicBoolean failing) {
        return JournalOptions.defaults().withBackend(backend).withDurability(durability).withSegmentSize(4096)
                .withPreallocation(Preallocation.FALLOCATE)
                .withOpener((f, w) -> FailingForces.open(backend, f, w, failing));
    }

    private static JournalOptions plain(Backend backend) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(4096)
                .withPreallocation(Preallocation.FALLOCATE);
    }

    private static void closeQuietly(Journal j) {
        try {
            j.close();
        } catch (IolabException refused) {
            // a failed journal may refuse its close
        }
    }

    private static List<Path> segments(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void anAlwaysAppendWhoseSyncFailsIsCutByTheNextOpen(Backend backend) throws IOException {
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        Journal j = Journal.open(dir, options(backend, Durability.ALWAYS, failing));
        Payloads.append(j, 0, 10, MAX);
        failing.set(true);
        IolabException e = assertThrows(IolabException.class,
                () -> j.append(Payloads.of(10, Payloads.size(10, MAX))));
        assertTrue(e.getMessage().contains("injected"), e.getMessage());
        assertEquals(9, j.durableSequence());
        assertTrue(Files.exists(FailedSync.of(dir)), "the note is left");
        assertEquals(10, FailedSync.read(dir));
        // readers in this process still see what was appended: the segment is not touched
        assertEquals(11, j.nextSequence());
        assertEquals(11, Payloads.readChecked(j, 0, MAX));
        closeQuietly(j);
        failing.set(false);
        try (Journal r = Journal.open(dir, plain(backend).withDurability(Durability.ALWAYS))) {
            assertEquals(10, r.nextSequence(), "record 10 was never reported durable: cut");
            assertEquals(10, Payloads.readChecked(r, 0, MAX));
            assertFalse(Files.exists(FailedSync.of(dir)), "the note goes once the cut is synced");
            Payloads.append(r, 10, 20, MAX);
        }
        assertEquals(20, Payloads.readIntact(dir, plain(backend), MAX, "after the cut and new appends"));
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CHANNEL_HEAP", "SEGMENT"})
    void aSyncThatFailsCutsEveryRecordAfterTheLastDurableOne(Backend backend) throws IOException {
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        Journal j = Journal.open(dir, options(backend, Durability.NONE, failing));
        Payloads.append(j, 0, 5, MAX);
        j.sync();
        // past the 4 KiB segment several times: each roll's seal syncs the full segment in the background
        Payloads.append(j, 5, 40, MAX);
        failing.set(true);
        assertThrows(IolabException.class, j::sync);
        long durable = j.durableSequence();
        assertTrue(durable >= 4 && durable < 39, "durable " + durable);
        closeQuietly(j);
        failing.set(false);
        // a seal whose segment's force completed before the failure covers that segment's records: they are on the
        // device, not reported durable, and kept
        long lost = FailedSync.read(dir);
        assertTrue(lost >= durable + 1 && lost <= 40, "the note names " + lost + ", durable " + durable);
        VerifyReport report = Journal.verify(dir);
        assertTrue(report.ok(), report.toString());
        assertEquals(List.of(FailedSync.of(dir)), report.problems().stream().map(VerifyReport.Problem::file).toList());
        assertTrue(report.problems().getFirst().what().contains("from sequence " + lost + " on"), report.toString());
        try (Journal r = Journal.open(dir, plain(backend))) {
            assertEquals(lost, r.nextSequence());
            assertEquals(lost, Payloads.readChecked(r, 0, MAX));
            assertEquals(lost - 1, r.durableSequence());
            for (Path p : segments(dir)) {
                assertTrue(Format.parseName(p) <= lost, "a segment made after the first record cut: " + p);
            }
        }
        durable = lost - 1;
        assertEquals(durable + 1, Payloads.readIntact(dir, plain(backend), MAX, "reopened again"));
    }

    @Test
    void aSealThatFailsLeavesTheNoteAndTheOpenCutsAtTheLastDurableRecord() throws IOException {
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        Journal j = Journal.open(dir, options(Backend.CHANNEL_HEAP, Durability.NONE, failing));
        Payloads.append(j, 0, 3, MAX);
        j.sync();
        failing.set(true);
        // the rolls' seals run in the background and fail; the appends go on until one sees the failure
        try {
            Payloads.append(j, 3, 60, MAX);
        } catch (IolabException expected) {
            // the seal's failure, reported to a later append
        }
        closeQuietly(j);
        failing.set(false);
        assertEquals(3, FailedSync.read(dir));
        try (Journal r = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            assertEquals(3, r.nextSequence());
            assertEquals(3, Payloads.readChecked(r, 0, MAX));
        }
    }

    @Test
    void aCloseWhoseSyncFailsCutsTheRecordsOfANoneJournalSinceItsLastSync() throws IOException {
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        Journal j = Journal.open(dir, options(Backend.SEGMENT, Durability.NONE, failing));
        Payloads.append(j, 0, 8, MAX);
        failing.set(true);
        assertThrows(IolabException.class, j::close);
        failing.set(false);
        assertEquals(0, FailedSync.read(dir), "nothing was ever synced");
        try (Journal r = Journal.open(dir, plain(Backend.SEGMENT))) {
            assertEquals(0, r.nextSequence(), "an empty journal, numbered from 0 again");
            assertEquals(0, r.firstSequence());
        }
        byte[] file = Files.readAllBytes(segments(dir).getFirst());
        for (int i = Format.HEADER_SIZE; i < file.length; i++) {
            assertEquals(0, file[i], "byte " + i + " after the cut");
        }
        try (Journal r = Journal.open(dir, plain(Backend.SEGMENT))) {
            Payloads.append(r, 0, 4, MAX);
        }
        assertEquals(4, Payloads.readIntact(dir, plain(Backend.SEGMENT), MAX, "after the cut"));
    }

    @Test
    void theCutSegmentIsWrittenToANewFileNotZeroedInPlace() throws IOException {
        // ext4 can leave the blocks of a failed write-back unwritten: data written over them again read back as
        // zeros after a remount in scripts/eio-rig.sh, so the records kept go to fresh blocks
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        failTheSyncOf(dir, options(Backend.CHANNEL_HEAP, Durability.ALWAYS, failing), failing, 6);
        Path segment = segments(dir).getFirst();
        Object before = fileKey(segment);
        long size = Files.size(segment);
        // what an earlier open's rewrite left when it stopped before its rename
        Files.write(segment.resolveSibling(segment.getFileName() + ".tmp"), new byte[100]);
        try (Journal r = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            assertEquals(6, r.nextSequence());
        }
        Object after = fileKey(segment);
        assertFalse(before.equals(after), "the segment was rewritten into a new file");
        assertEquals(size, Files.size(segment), "preallocated as the segment was");
        assertEquals(List.of(segment), segments(dir));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.filter(p -> p.toString().endsWith(".tmp")).toList(), "no temporary file left");
        }
        assertEquals(6, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, "after the rewrite"));
    }

    /** A journal whose forces throw {@code cause} (wrapped; null for none) while {@code failing} is set. */
    private static JournalOptions throwingForces(AtomicBoolean failing, Throwable cause) {
        return plain(Backend.CHANNEL_HEAP).withDurability(Durability.ALWAYS).withOpener((f, w) -> FailingForces.open(Backend.CHANNEL_HEAP, f, w,
                failing, cause));
    }

    /**
     * Appends records 0 to {@code n - 1} to a new journal in {@code dir} whose syncs fail on demand, then record n with
     * its sync failing, and closes the failed journal; the syncs work again afterwards.
     */
    private static void failTheSyncOf(Path dir, JournalOptions o, AtomicBoolean failing, long n) {
        Journal j = Journal.open(dir, o);
        Payloads.append(j, 0, n, MAX);
        failing.set(true);
        IolabException e = assertThrows(IolabException.class, () -> j.append(Payloads.of(n, Payloads.size(n, MAX))));
        assertTrue(e.getMessage().contains("injected"), e.getMessage());
        closeQuietly(j);
        failing.set(false);
    }

    private static Object fileKey(Path file) throws IOException {
        return Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
    }

    @Test
    void aSyncStoppedByAnInterruptOrAClosedChannelCountsAsFailed() throws IOException {
        // the JDK reports the interrupt or the close instead of the fsync's own result: it may have failed
        for (Throwable cause : List.of(new java.nio.channels.ClosedByInterruptException(),
                new java.nio.channels.AsynchronousCloseException(), new java.io.InterruptedIOException())) {
            Path dir = tmp.resolve("j" + cause.getClass().getSimpleName());
            AtomicBoolean failing = new AtomicBoolean();
            failTheSyncOf(dir, throwingForces(failing, cause), failing, 4);
            assertEquals(4, FailedSync.read(dir), cause.toString());
            assertEquals(4, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, cause.toString()));
        }
    }

    @Test
    void aFailureThatIsNoIoErrorLeavesNoNote() throws IOException {
        // e.g. a simulated process death in the tests' faulty storage: the pages stay dirty
        Path dir = tmp.resolve("j");
        AtomicBoolean failing = new AtomicBoolean();
        failTheSyncOf(dir, throwingForces(failing, null), failing, 4);
        assertFalse(Files.exists(FailedSync.of(dir)));
        assertEquals(5, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, "no note"));
    }

    @Test
    void aRecoverySyncThatFailsLeavesANoteAndTheNextOpenPutsTheRecordsOnFreshBlocks() throws IOException {
        // a writer killed before its sync left records in the page cache only; the next open's sync of them fails
        Path killed = tmp.resolve("killed");
        Path dir = tmp.resolve("j");
        Files.createDirectories(dir);
        try (Journal j = Journal.open(killed, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(j, 0, 10, MAX);
            for (Path p : segments(killed)) {
                Files.copy(p, dir.resolve(p.getFileName())); // as the kill left them: not synced, no close
            }
        }
        AtomicBoolean failing = new AtomicBoolean(true);
        IolabException e = assertThrows(IolabException.class,
                () -> Journal.open(dir, throwingForces(failing, new IOException("Input/output error"))));
        assertTrue(e.getMessage().contains("cannot sync"), e.getMessage());
        assertEquals(10, FailedSync.read(dir), "nothing to cut, but the records go to fresh blocks");
        Path segment = segments(dir).getFirst();
        Object before = fileKey(segment);
        try (Journal r = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            assertEquals(10, r.nextSequence());
            assertEquals(9, r.durableSequence());
        }
        assertFalse(before.equals(fileKey(segment)), "rewritten into a new file");
        assertFalse(Files.exists(FailedSync.of(dir)));
        assertEquals(10, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, "after the rewrite"));
    }

    @Test
    void aNoteThatCannotBeAppliedRefusesTheOpenAndStaysUntilARepair() throws IOException {
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        failTheSyncOf(dir, options(Backend.CHANNEL_HEAP, Durability.ALWAYS, failing), failing, 6);
        Path segment = segments(dir).getFirst();
        byte[] bytes = Files.readAllBytes(segment);
        bytes[28] ^= 1; // the header's capacity: its CRC fails
        Files.write(segment, bytes);
        JournalCorruptedException refused = assertThrows(JournalCorruptedException.class,
                () -> Journal.open(dir, plain(Backend.CHANNEL_HEAP)));
        assertTrue(refused.getMessage().contains("failed sync's note"), refused.getMessage());
        assertEquals(6, FailedSync.read(dir), "the note stays: no open may run without it");
        Journal.repair(dir); // writes the header again over the intact records
        try (Journal r = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            assertEquals(6, r.nextSequence(), "record 6 was never durable: the note, applied after the repair");
        }
        assertFalse(Files.exists(FailedSync.of(dir)));

        // damage to a record before the sequence: refused the same way, the note kept
        Path other = tmp.resolve("k");
        try (Journal k = Journal.open(other, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(k, 0, 6, MAX);
        }
        FailedSync.record(other, 5);
        Path seg = segments(other).getFirst();
        byte[] b = Files.readAllBytes(seg);
        b[Format.HEADER_SIZE + 20] ^= 1; // record 0's payload
        Files.write(seg, b);
        refused = assertThrows(JournalCorruptedException.class, () -> Journal.open(other, plain(Backend.CHANNEL_HEAP)));
        assertEquals(Format.HEADER_SIZE, refused.offset(), refused.getMessage());
        assertEquals(5, FailedSync.read(other));
    }

    @Test
    void aDeleteBeforeWhoseStartMarkerForceFailsFailsTheJournalAndLeavesTheNote() throws IOException {
        // that force syncs the records written since the last sync too (the whole file, or their first page)
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        Journal j = Journal.open(dir, options(Backend.CHANNEL_HEAP, Durability.NONE, failing));
        Payloads.append(j, 0, 40, MAX);
        j.sync();
        Payloads.append(j, 40, 43, MAX);
        failing.set(true);
        assertThrows(IolabException.class, () -> j.deleteBefore(j.nextSequence()));
        failing.set(false);
        assertEquals(40, FailedSync.read(dir));
        IolabException failed = assertThrows(IolabException.class, j::sync);
        assertTrue(failed.getMessage().contains("failed earlier"), failed.getMessage());
        assertEquals(39, j.durableSequence(), "nothing reported durable after the failed force");
        closeQuietly(j);
        try (Journal r = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            assertEquals(40, r.nextSequence());
        }
    }

    @Test
    void aNoteOnANewSegmentWhoseHeaderNeverReachedTheDeviceCutsItAndKeepsThePreviousOne() throws IOException {
        // the seal synced the full segment, then failed at the new segment's header, which a power loss then lost
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(j, 0, 40, MAX);
        }
        List<Path> segs = segments(dir);
        Path last = segs.getLast();
        long lost = Format.parseName(last);
        FailedSync.record(dir, lost);
        byte[] b = Files.readAllBytes(last);
        java.util.Arrays.fill(b, 0, Format.HEADER_SIZE, (byte) 0);
        Files.write(last, b);
        try (Journal r = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            assertEquals(lost, r.nextSequence());
            Payloads.append(r, lost, lost + 5, MAX);
        }
        assertFalse(Files.exists(FailedSync.of(dir)));
        assertEquals(lost + 5, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, "after the cut"));
    }

    @Test
    void aNoteBelowASyncedMarkIsNotThisJournalsAndIsRefused() throws IOException {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(j, 0, 40, MAX);
        } // the close writes the mark at the end
        Path last = segments(dir).getLast();
        FailedSync.record(dir, Format.parseName(last) + 1);
        JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                () -> Journal.open(dir, plain(Backend.CHANNEL_HEAP)));
        assertTrue(e.getMessage().contains("synced mark"), e.getMessage());
        assertEquals(40, Journal.verify(dir).records(), "nothing cut");
        assertTrue(Files.exists(FailedSync.of(dir)));
    }

    @Test
    void damageBeforeTheNotedRecordIsDamageToSyncedRecordsForVerifyAndRepairToo() throws IOException {
        // above the synced mark (which lags), but the note says a completed sync covered it: open refused, verify said
        // "ok" and repair did nothing, so no tool could open the journal again
        AtomicBoolean failing = new AtomicBoolean();
        Path dir = tmp.resolve("j");
        failTheSyncOf(dir, options(Backend.CHANNEL_HEAP, Durability.ALWAYS, failing).withSegmentSize(1 << 20), failing,
                20);
        Path segment = segments(dir).getFirst();
        long record5;
        try (Journal r = Journal.openReadOnly(dir, plain(Backend.CHANNEL_HEAP))) {
            long[] at = {Format.HEADER_SIZE};
            r.read(0, (seq, p) -> {
                if (seq < 5) {
                    at[0] += (Format.FRAME_HEADER + p.remaining() + 7) & -8;
                }
                return seq < 5;
            });
            record5 = at[0];
        }
        byte[] b = Files.readAllBytes(segment);
        b[(int) record5 + Format.FRAME_HEADER] ^= 1;
        Files.write(segment, b);
        assertThrows(JournalCorruptedException.class, () -> Journal.open(dir, plain(Backend.CHANNEL_HEAP)));
        VerifyReport report = Journal.verify(dir);
        assertFalse(report.ok(), report.toString());
        assertEquals(record5, report.problems().getFirst().offset(), report.toString());
        Journal.repair(dir);
        try (Journal r = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            // the repair cut record 5 and kept 6 to 19 (a flipped payload bit), the open applied the note (cut before
            // 20, the record whose sync failed): the next append takes no sequence a synced record had
            List<Long> seqs = new java.util.ArrayList<>();
            r.read(0, (seq, p) -> seqs.add(seq));
            List<Long> expected = new java.util.ArrayList<>(List.of(0L, 1L, 2L, 3L, 4L));
            for (long s = 6; s < 20; s++) {
                expected.add(s);
            }
            assertEquals(expected, seqs);
            assertEquals(20, r.nextSequence(), "cut at the damage by the repair, the note applied by the open");
        }
        assertFalse(Files.exists(FailedSync.of(dir)));
    }

    @Test
    void aRefusedNoteChangesNothing() throws IOException {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP).withDurability(Durability.ALWAYS))) {
            Payloads.append(j, 0, 200, MAX);
        }
        List<Path> before = segments(dir);
        FailedSync.record(dir, 1); // below the first segment's synced mark: another journal's note
        assertThrows(JournalCorruptedException.class, () -> Journal.open(dir, plain(Backend.CHANNEL_HEAP)));
        assertEquals(before, segments(dir), "no segment deleted");
        assertEquals(200, Journal.verify(dir).records());
    }

    @Test
    void aNoteBeforeTheJournalsFirstSegmentIsNotItsAndIsRefused() throws IOException {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(j, 0, 200, MAX); // over several 4 KiB segments
            j.deleteBefore(150);
        }
        assertTrue(Format.parseName(segments(dir).getFirst()) > 3);
        FailedSync.record(dir, 3);
        JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                () -> Journal.open(dir, plain(Backend.CHANNEL_HEAP)));
        assertTrue(e.getMessage().contains("not this journal's note"), e.getMessage());
        assertEquals(200 - Format.parseName(segments(dir).getFirst()), segmentsRecords(dir), "nothing cut");
    }

    private static long segmentsRecords(Path dir) {
        VerifyReport r = Journal.verify(dir);
        return r.records();
    }

    @Test
    void aNoteThatDoesNotCheckOutIsWhatAPowerLossLeftAndCutsNothing() throws IOException {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(j, 0, 12, MAX);
        }
        byte[] note = FailedSync.encode(3).array();
        note[9] ^= 1; // the sequence no longer matches its CRC
        Files.write(FailedSync.of(dir), note);
        Files.write(dir.resolve(FailedSync.NAME + ".tmp"), new byte[7]);
        assertEquals(-1, FailedSync.read(dir));
        // verify names it, as something the next open moves aside (a review found it silent)
        VerifyReport verify = Journal.verify(dir);
        assertTrue(verify.ok() && verify.problems().stream().anyMatch(p -> p.file().equals(FailedSync.of(dir))
                && p.recoverable() && p.what().contains("moves it aside")), verify.toString());
        assertEquals(12, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, "a torn note"));
        assertFalse(Files.exists(FailedSync.of(dir)));
        assertFalse(Files.exists(dir.resolve(FailedSync.NAME + ".tmp")));
        assertArrayEquals(note, Files.readAllBytes(dir.resolve(FailedSync.NAME + ".cut")),
                "kept aside, not deleted: it may be a file of the user's");
    }

    @Test
    void aWholeNoteLeftInItsTemporaryFileStillCuts() throws IOException {
        // a writer killed between the note's write and its rename (a review of the store's note found it)
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(j, 0, 12, MAX);
        }
        // the close synced all 12: the note names the next one, and the open writes the segment into a new file
        Files.write(dir.resolve(FailedSync.NAME + ".tmp"), FailedSync.encode(12).array());
        assertEquals(12, FailedSync.read(dir));
        Object was = Files.getAttribute(segments(dir).getFirst(), "unix:ino");
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            assertEquals(12, j.nextSequence());
        }
        assertFalse(FailedSync.present(dir));
        assertNotEquals(was, Files.getAttribute(segments(dir).getFirst(), "unix:ino"), "rewritten");
        assertEquals(12, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, "after the rewrite"));
    }

    @Test
    void aNoteKeepsTheLowerSequenceAndPointsPastTheEndCutsNothing() throws IOException {
        Path dir = tmp.resolve("j");
        Files.createDirectories(dir);
        FailedSync.record(dir, 9);
        FailedSync.record(dir, 20);
        assertEquals(9, FailedSync.read(dir), "a second failure keeps the first one's sequence");
        FailedSync.clear(dir, true);
        try (Journal j = Journal.open(dir, plain(Backend.CHANNEL_HEAP))) {
            Payloads.append(j, 0, 6, MAX);
        }
        FailedSync.record(dir, 6);
        assertEquals(6, Payloads.readIntact(dir, plain(Backend.CHANNEL_HEAP), MAX, "a note at the end"));
        assertFalse(Files.exists(FailedSync.of(dir)));
    }
}
