package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FaultyStorage;
import org.iolab.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where a journal begins: the segment of sequence 0, or the one a {@link Journal#deleteBefore} marked as the start. A
 * first segment lost (deleted by hand, a broken disk) used to look like a deletion, and the journal opened without a
 * word about the records gone; now open, a read-only open and verify say the segments are missing, and repair accepts
 * the loss. A deletion that a crash interrupted, or that could not delete a file, is finished by the next open.
 */
class JournalStartTest {
    private static final int MAX = 300;
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(8192).withDurability(Durability.NONE)
                .withPreallocation(Preallocation.NONE);
    }

    /** Appends records 0 to {@link #RECORDS} - 1 in a new journal (many segments) and closes it. */
    private void fill(Backend backend) {
        try (Journal j = Journal.open(tmp, options(backend))) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
    }

    private List<Path> segments() {
        return Journal.listSegments(tmp);
    }

    /** Checks that the journal holds exactly the records {@code from} to {@link #RECORDS} - 1, intact. */
    private static void assertHolds(Journal j, long from) {
        assertEquals(from, j.firstSequence());
        assertEquals(RECORDS, j.nextSequence());
        assertEquals(RECORDS - from, Payloads.readChecked(j, from, MAX));
    }

    private void assertMissing(Path first, Backend backend, String what) {
        for (boolean readOnly : new boolean[] {false, true}) {
            JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> (readOnly
                    ? Journal.openReadOnly(tmp, options(backend)) : Journal.open(tmp, options(backend))).close());
            assertEquals(first, e.file(), e.getMessage());
            assertEquals(Format.START_OFFSET, e.offset());
            assertTrue(e.getMessage().contains(what) && e.getMessage().contains("are missing")
                    && e.getMessage().contains("to start the journal at sequence " + Format.parseName(first)),
                    e.getMessage());
        }
        VerifyReport report = Journal.verify(tmp);
        assertFalse(report.ok(), report.toString());
        VerifyReport.Problem problem = report.problems().getFirst();
        assertEquals(first, problem.file(), report.toString());
        assertEquals(Format.START_OFFSET, problem.offset(), report.toString());
        assertFalse(problem.recoverable(), report.toString());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aLostFirstSegmentIsMissingNotDeletedAndRepairStartsTheJournalAfterIt(Backend backend) throws IOException {
        fill(backend);
        List<Path> files = segments();
        assertTrue(files.size() > 3, files.toString());
        Files.delete(files.getFirst());
        assertMissing(files.get(1), backend, "does not carry the start marker");

        VerifyReport before = Journal.repair(tmp);
        assertFalse(before.ok(), before.toString());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        long first = Format.parseName(files.get(1));
        assertEquals(files.subList(1, files.size()), segments(), "repair deleted nothing");
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertHolds(j, first);
            assertEquals(RECORDS, j.append(new byte[] {1}));
        }
        try (Journal j = Journal.openReadOnly(tmp, options(backend))) {
            assertEquals(first, j.firstSequence());
            assertEquals(RECORDS + 1, j.nextSequence());
        }
    }

    /** The marker goes with the segment: a first segment lost after a deletion is missing too. */
    @Test
    void aSegmentLostAfterADeletionIsMissing() throws IOException {
        fill(Backend.DEFAULT);
        List<Path> files = segments();
        long kept;
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
            kept = j.deleteBefore(Format.parseName(files.get(2)));
        }
        assertEquals(Format.parseName(files.get(2)), kept);
        assertEquals(files.subList(2, files.size()), segments());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.openReadOnly(tmp, options(Backend.DEFAULT))) {
            assertHolds(j, kept);
        }
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
            assertHolds(j, kept);
        }
        Files.delete(files.get(2));
        assertMissing(files.get(3), Backend.DEFAULT, "does not carry the start marker");
    }

    /** A crash after the marker was synced and before the old segments' deletion was: open finishes it. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aDeletionInterruptedByACrashIsFinishedByTheNextOpen(Backend backend) throws IOException {
        fill(backend);
        List<Path> files = segments();
        long start = Format.parseName(files.get(2));
        writeAt(files.get(2), Format.START_OFFSET, Format.startMarker(start));

        VerifyReport report = Journal.verify(tmp);
        assertTrue(report.ok(), report.toString());
        assertEquals(files.subList(0, 2), report.problems().stream().map(VerifyReport.Problem::file).toList(),
                "the two segments left before the start, each reported as the next open's to delete");
        assertEquals(RECORDS - start, report.records(), "the records before the start are not counted");
        try (Journal j = Journal.openReadOnly(tmp, options(backend))) {
            assertHolds(j, start);
        }
        assertEquals(files, segments(), "a read-only open deletes nothing");
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertHolds(j, start);
        }
        assertEquals(files.subList(2, files.size()), segments());
        assertTrue(Journal.verify(tmp).problems().isEmpty(), Journal.verify(tmp).toString());
    }

    /** A journal trimmed by an iolab older than the marker, or whose marker is damaged, needs one repair. */
    @Test
    void aFirstSegmentWithoutAValidMarkerNeedsOneRepairThatLosesNothing() throws IOException {
        fill(Backend.DEFAULT);
        long kept;
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
            kept = j.deleteBefore(Format.parseName(segments().get(1)));
        }
        Path first = segments().getFirst();
        writeAt(first, Format.START_OFFSET, ByteBuffer.wrap(new byte[] {0x11, 0, 0, 0}));
        assertMissing(first, Backend.DEFAULT, "its start marker is damaged (0x00000011, expected 0x");
        writeAt(first, Format.START_OFFSET, ByteBuffer.allocate(4));
        assertMissing(first, Backend.DEFAULT, "does not carry the start marker");

        Journal.repair(tmp);
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
            assertHolds(j, kept);
        }
    }

    /** Repair marks the first segment, then cuts other damage as usual (the segments after it stay), in one run. */
    @Test
    void repairOfAMissingStartAlsoCutsLaterDamage() throws IOException {
        fill(Backend.DEFAULT);
        List<Path> files = segments();
        Files.delete(files.getFirst());
        Path damaged = files.get(3);
        writeAt(damaged, Format.HEADER_SIZE + 4, ByteBuffer.wrap(new byte[] {0x7f})); // its first record's CRC
        VerifyReport before = Journal.repair(tmp);
        List<VerifyReport.Problem> found = before.problems();
        assertEquals(Format.START_OFFSET, found.getFirst().offset(), before.toString());
        assertEquals(damaged, found.get(1).file(), before.toString());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
            assertEquals(Format.parseName(files.get(1)), j.firstSequence());
            assertEquals(RECORDS, j.nextSequence(), "the later segments stay");
            List<Long> expected = new ArrayList<>();
            for (long s = j.firstSequence(); s < RECORDS; s++) {
                if (s != Format.parseName(damaged)) {
                    expected.add(s); // only the damaged record is cut
                }
            }
            List<Long> read = new ArrayList<>();
            j.read(j.firstSequence(), (seq, payload) -> {
                byte[] b = new byte[payload.remaining()];
                payload.get(b);
                assertArrayEquals(Payloads.of(seq, Payloads.size(seq, MAX)), b, "record " + seq);
                return read.add(seq);
            });
            assertEquals(expected, read);
        }
    }

    /**
     * Deleting up to the active segment marks it, through the writer's own file, synced: a power loss right after
     * the deletion still finds the start, at every backend.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theActiveSegmentsMarkerSurvivesAPowerLoss(Backend backend) throws IOException {
        List<FaultyStorage> opened = new CopyOnWriteArrayList<>();
        StorageOpener device = (file, writable) -> {
            if (!writable) {
                return backend.open(file, false);
            }
            FaultyStorage f = FaultyStorage.open(backend, file);
            opened.add(f);
            return f;
        };
        long kept;
        Journal j = Journal.open(tmp, options(backend).withOpener(device));
        for (long i = 0; i < RECORDS; i++) {
            j.append(Payloads.of(i, Payloads.size(i, MAX)));
        }
        j.sync();
        kept = j.deleteBefore(j.nextSequence());
        assertEquals(1, segments().size());
        Random rnd = new Random(42);
        for (FaultyStorage f : opened) {
            if (!f.isDead()) {
                f.powerOff(rnd);
            }
        }
        try {
            j.close();
        } catch (RuntimeException expected) {
            // the power is gone
        }
        try (Journal reopened = Journal.open(tmp, options(backend))) {
            assertHolds(reopened, kept);
        }
    }

    /**
     * A read-only open that read the headers before a writer's deleteBefore marked its new first segment, and pruned
     * the old start it deleted since, took the journal for one whose first segments are missing (found by a review:
     * 46 of 2253 opens beside a trimming writer failed).
     */
    @Test
    void aReadOnlyOpenBesideADeletionReadsTheMarkerAgain() throws IOException {
        fill(Backend.DEFAULT);
        List<Path> files = segments();
        long start = Format.parseName(files.get(2));
        try (Journal writer = Journal.open(tmp, options(Backend.DEFAULT))) {
            boolean[] done = {false};
            StorageOpener hook = (file, writable) -> {
                if (file.equals(files.getLast()) && !done[0]) {
                    done[0] = true; // the headers before it are read: segment 2's without the marker
                    assertEquals(start, writer.deleteBefore(start));
                }
                return Backend.DEFAULT.open(file, writable);
            };
            try (Journal ro = Journal.openReadOnly(tmp, options(Backend.DEFAULT).withOpener(hook))) {
                assertTrue(done[0]);
                assertHolds(ro, start);
            }
        }
    }

    /**
     * A segment that cannot be deleted (here immutable, {@code chattr +i}) is out of the journal all the same: the
     * writer, a read-only journal and the next open agree where it starts, and the open deletes it once it can. It used
     * to keep every later open from working.
     */
    @Test
    void anOldSegmentThatCannotBeDeletedIsOutOfTheJournalAndTheNextOpenDeletesIt() throws Exception {
        fill(Backend.DEFAULT);
        List<Path> files = segments();
        long start = Format.parseName(files.get(2));
        assumeTrue(chattr("+i", files.getFirst()), "chattr +i needs root on a file system with attributes");
        try {
            try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
                IolabException e = assertThrows(IolabException.class, () -> j.deleteBefore(start));
                assertTrue(e.getMessage().contains("now starts at sequence " + start)
                        && e.getMessage().contains(files.getFirst().toString()), e.getMessage());
                assertHolds(j, start);
                try (Journal ro = Journal.openReadOnly(tmp, options(Backend.DEFAULT))) {
                    assertHolds(ro, start);
                }
            }
            try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
                assertHolds(j, start);
            }
            assertTrue(Files.exists(files.getFirst()), "still immutable");
            assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        } finally {
            chattr("-i", files.getFirst());
        }
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
            assertHolds(j, start);
        }
        assertEquals(files.subList(2, files.size()), segments(), "deleted by the open once it could be");
    }

    private static boolean chattr(String flag, Path file) throws InterruptedException {
        try {
            Process p = new ProcessBuilder("chattr", flag, file.toString()).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The marker written into a sealed segment is synced before the first older segment is deleted: the writes and
     * syncs to that segment's file, seen when the directory is first synced after a deletion.
     */
    @Test
    void theMarkerOfASealedSegmentIsSyncedBeforeAnySegmentGoes() throws IOException {
        fill(Backend.DEFAULT);
        List<Path> files = segments();
        Path marked = files.get(2);
        List<String> calls = new CopyOnWriteArrayList<>();
        List<String> atFirstDelete = new CopyOnWriteArrayList<>();
        StorageOpener spy = new StorageOpener() {
            @Override
            public StorageFile open(Path file, boolean writable) {
                StorageFile f = Backend.DEFAULT.open(file, writable);
                if (!file.equals(marked) || !writable) {
                    return f;
                }
                return (StorageFile) Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {StorageFile.class},
                        (proxy, method, args) -> {
                            calls.add(method.getName() + (method.getName().equals("write") ? "@" + args[0] : ""));
                            try {
                                return method.invoke(f, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }

            @Override
            public void syncDirectory(Path folder) throws IOException {
                if (atFirstDelete.isEmpty() && !Files.exists(files.getFirst())) {
                    atFirstDelete.addAll(calls);
                    atFirstDelete.add("(first deletion)");
                }
                StorageOpener.fsync(folder);
            }
        };
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT).withOpener(spy))) {
            assertEquals(Format.parseName(marked), j.deleteBefore(Format.parseName(marked)));
        }
        int write = atFirstDelete.indexOf("write@" + Format.START_OFFSET);
        assertTrue(write >= 0, atFirstDelete.toString());
        List<String> after = atFirstDelete.subList(write + 1, atFirstDelete.size());
        assertTrue(after.contains("force") || after.contains("forceRange"),
                "no sync of the marker before the first deletion: " + atFirstDelete);
    }

    /** Repair of a folder that holds no journal said "nothing to repair", exited 0 and left a journal.lock there. */
    @Test
    void repairOfAFolderWithoutSegmentsIsRefusedAndWritesNothing() throws IOException {
        Files.writeString(tmp.resolve("notes.txt"), "not a journal");
        IolabException e = assertThrows(IolabException.class, () -> Journal.repair(tmp));
        assertTrue(e.getMessage().contains("no journal segments (*.seg files) in " + tmp), e.getMessage());
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of(tmp.resolve("notes.txt")), files.toList());
        }
    }

    private static void writeAt(Path file, long position, ByteBuffer bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(bytes.duplicate(), position);
        }
    }
}
