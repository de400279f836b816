package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Journal#deleteBefore(long)}: whole old segments go, the rest reads, appends and reopens as before, and a
 * reader that reaches a deleted record is told so (never handed a later record, never told the journal is damaged);
 * also a read-only follower whose segment goes, a repair of a trimmed journal, a verify overtaken by a deletion, and
 * a reader inside a deleted segment that grew since it was opened.
 */
class JournalDeleteBeforeTest {
    private static final int MAX = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(8192).withDurability(Durability.NONE)
                .withPreallocation(Preallocation.NONE);
    }

    private static void append(Journal j, long from, long to) {
        Payloads.append(j, from, to, MAX);
    }

    /** Reads every record from {@code from} and checks each one's sequence and payload; returns the count. */
    private static long readAll(Journal j, long from) {
        return Payloads.readChecked(j, from, MAX);
    }

    private static List<Long> segmentStarts(Path dir) {
        return Journal.listSegments(dir).stream().map(Format::parseName).toList();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void wholeSegmentsBeforeTheSequenceGoAndTheRestReadsAppendsAndReopens(Backend backend) throws Exception {
        JournalOptions o = options(backend);
        long n = 400;
        long keep;
        List<Long> starts;
        try (Journal j = Journal.open(tmp, o)) {
            append(j, 0, n);
            starts = segmentStarts(tmp);
            assertTrue(starts.size() >= 6, "segments: " + starts);
            assertEquals(0, j.firstSequence());
            // a sequence in the middle of the fourth segment: the first three go, the fourth stays whole
            keep = starts.get(3) + 2;
            assertEquals(starts.get(3), j.deleteBefore(keep));
            assertEquals(starts.get(3), j.firstSequence());
            assertEquals(starts.subList(3, starts.size()), segmentStarts(tmp));
            assertEquals(starts.size() - 3, j.segmentCount());
            assertEquals(n, j.nextSequence());
            assertEquals(n - starts.get(3), readAll(j, starts.get(3)));
            IolabException before = assertThrows(IolabException.class, () -> j.reader(starts.get(3) - 1));
            assertTrue(before.getMessage().contains("holds " + starts.get(3) + ".."), before.getMessage());
            assertThrows(IolabException.class, () -> j.tailer(0));
            // deleting again up to the same sequence, or less, changes nothing
            assertEquals(starts.get(3), j.deleteBefore(keep));
            assertEquals(starts.get(3), j.deleteBefore(0));
            append(j, n, n + 50);
        }
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).problems().toString());
        assertEquals(n + 50 - starts.get(3), Journal.verify(tmp).records());
        try (Journal j = Journal.open(tmp, o)) {
            assertEquals(starts.get(3), j.firstSequence());
            assertEquals(n + 50, j.nextSequence());
            assertEquals(n + 50 - starts.get(3), readAll(j, starts.get(3)));
            append(j, n + 50, n + 60);
        }
        try (Journal ro = Journal.openReadOnly(tmp, o)) {
            assertEquals(starts.get(3), ro.firstSequence());
            assertEquals(n + 60 - starts.get(3), readAll(ro, starts.get(3)));
            assertThrows(IolabException.class, () -> ro.deleteBefore(n), "a read-only journal deletes nothing");
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void deletingUpToTheNextSequenceKeepsOnlyTheActiveSegment(Backend backend) throws Exception {
        try (Journal j = Journal.open(tmp, options(backend))) {
            append(j, 0, 300);
            List<Long> starts = segmentStarts(tmp);
            long last = starts.getLast();
            assertEquals(last, j.deleteBefore(j.nextSequence()));
            assertEquals(List.of(last), segmentStarts(tmp));
            assertEquals(300 - last, readAll(j, last));
            append(j, 300, 320);
            assertEquals(320 - last, readAll(j, last));
        }
    }

    @Test
    void aSequenceOutOfRangeIsRefusedByItsNumberAndDeletesNothing() throws Exception {
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT))) {
            append(j, 0, 100);
            List<Long> starts = segmentStarts(tmp);
            for (long bad : new long[] {-1, 101, Long.MAX_VALUE}) {
                IolabException e = assertThrows(IolabException.class, () -> j.deleteBefore(bad));
                assertTrue(e.getMessage().contains("before sequence " + bad)
                        && e.getMessage().contains("from 0 to 100"), e.getMessage());
            }
            assertEquals(starts, segmentStarts(tmp));
            assertEquals(0, j.firstSequence());
        }
        Journal closed = Journal.open(tmp, options(Backend.DEFAULT));
        closed.close();
        assertThrows(IolabException.class, () -> closed.deleteBefore(50));
    }

    /**
     * A reader made before the deletion, still before the deleted records: it fails naming the record and the first
     * sequence left, not with a damaged-journal error and not by skipping to the records that are left.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aReaderThatReachesADeletedRecordIsToldSo(Backend backend) throws Exception {
        try (Journal j = Journal.open(tmp, options(backend))) {
            append(j, 0, 300);
            List<Long> starts = segmentStarts(tmp);
            try (JournalReader notStarted = j.reader(0); JournalReader inFirst = j.reader(0)) {
                Record r0 = inFirst.next(); // its first segment is open
                assertEquals(0, r0.sequence());
                long first = j.deleteBefore(starts.get(2));
                assertEquals(starts.get(2), first);
                IolabException e = assertThrows(IolabException.class, notStarted::hasNext);
                assertFalse(e instanceof JournalCorruptedException, e.toString());
                assertTrue(e.getMessage().contains("record 0 ") && e.getMessage().contains("was deleted")
                        && e.getMessage().contains("starts at sequence " + first), e.getMessage());
                // the open segment reads to its end, then the next one is gone
                for (long s = 1; s < starts.get(1); s++) {
                    Record r = inFirst.next();
                    assertEquals(s, r.sequence());
                    assertArrayEquals(Payloads.of(s, Payloads.size(s, MAX)), r.payload());
                }
                IolabException next = assertThrows(IolabException.class, inFirst::hasNext);
                assertFalse(next instanceof JournalCorruptedException, next.toString());
                assertTrue(next.getMessage().contains("record " + starts.get(1) + " "), next.getMessage());
            }
        }
    }

    /** A read-only journal (another process, as far as it knows) sees the writer's deletion. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aReadOnlyJournalFollowsTheDeletion(Backend backend) throws Exception {
        JournalOptions o = options(backend);
        try (Journal writer = Journal.open(tmp, o)) {
            append(writer, 0, 300);
            List<Long> starts = segmentStarts(tmp);
            try (Journal ro = Journal.openReadOnly(tmp, o); JournalReader early = ro.reader(0)) {
                assertEquals(0, ro.firstSequence());
                writer.deleteBefore(starts.get(2));
                assertEquals(starts.size() - 2, ro.segmentCount());
                assertEquals(starts.get(2), ro.firstSequence());
                assertThrows(IolabException.class, () -> ro.reader(0));
                IolabException e = assertThrows(IolabException.class, early::hasNext);
                assertFalse(e instanceof JournalCorruptedException, e.toString());
                assertTrue(e.getMessage().contains("was deleted"), e.getMessage());
                assertEquals(300 - starts.get(2), readAll(ro, starts.get(2)));
            }
            try (Journal ro = Journal.openReadOnly(tmp, o)) {
                assertEquals(starts.get(2), ro.firstSequence());
            }
        }
    }

    /** A tailer keeps following while the segments it has read are deleted behind it. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aTailerFollowsWhileTheSegmentsBehindItAreDeleted(Backend backend) throws Exception {
        try (Journal j = Journal.open(tmp, options(backend)); Tailer tailer = j.tailer(0)) {
            long n = 600;
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> append(j, 0, n));
            for (long s = 0; s < n; s++) {
                Record r = tailer.poll(Duration.ofSeconds(10));
                assertNotNull(r, "timed out at " + s);
                assertEquals(s, r.sequence());
                assertArrayEquals(Payloads.of(s, Payloads.size(s, MAX)), r.payload());
                if (s % 50 == 49) {
                    j.deleteBefore(s); // the tailer's own segment stays
                }
            }
            writer.get();
            assertTrue(j.firstSequence() > 0);
        }
    }

    /**
     * Readers replaying from the first sequence while the writer appends and deletes: every replay hands out
     * contiguous, intact records or stops with the deleted-record error; none is called damaged.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void replaysRacingDeletionsSeeIntactRecordsOrTheDeletedError(Backend backend) throws Exception {
        try (Journal j = Journal.open(tmp, options(backend))) {
            append(j, 0, 200);
            AtomicBoolean stop = new AtomicBoolean();
            List<Throwable> wrong = new ArrayList<>();
            int[] outcomes = new int[2]; // whole replays, replays stopped by a deletion
            Thread reader = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    try {
                        readAll(j, j.firstSequence());
                        outcomes[0]++;
                    } catch (JournalCorruptedException | AssertionError e) {
                        synchronized (wrong) {
                            wrong.add(e);
                        }
                        return;
                    } catch (IolabException e) {
                        if (!e.getMessage().contains("was deleted") && !e.getMessage().contains("has no record")) {
                            synchronized (wrong) {
                                wrong.add(e);
                            }
                            return;
                        }
                        outcomes[1]++;
                    }
                }
            });
            long next = 200;
            for (int round = 0; round < 25; round++) {
                append(j, next, next + 40);
                next += 40;
                j.deleteBefore(next - 120);
            }
            stop.set(true);
            reader.join(30_000);
            assertFalse(reader.isAlive());
            assertEquals(List.of(), wrong);
            assertTrue(outcomes[0] + outcomes[1] > 0);
            assertEquals(next - j.firstSequence(), readAll(j, j.firstSequence()));
        }
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).problems().toString());
    }

    /** A follower idle while the writer rolls twice and deletes its tip segment used to stop for good, silently. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFollowerWhoseTipSegmentWasDeletedCatchesUp(Backend backend) throws Exception {
        JournalOptions o = options(backend);
        try (Journal writer = Journal.open(tmp, o)) {
            append(writer, 0, 10);
            try (Journal ro = Journal.openReadOnly(tmp, o)) {
                assertEquals(10, ro.nextSequence());
                append(writer, 10, 300);
                List<Long> starts = segmentStarts(tmp);
                long keep = starts.getLast();
                assertEquals(keep, writer.deleteBefore(keep));
                assertEquals(300, ro.nextSequence(), "the follower is stuck in deleted segment 0");
                assertEquals(keep, ro.firstSequence());
            }
        }
    }

    /** Repairing a trimmed journal whose first header is damaged used to restart its sequences at 0. */
    @Test
    void repairOfATrimmedJournalNeverReusesDeletedSequences() throws Exception {
        JournalOptions o = options(Backend.DEFAULT);
        long first;
        try (Journal j = Journal.open(tmp, o)) {
            append(j, 0, 300);
            List<Long> starts = segmentStarts(tmp);
            first = j.deleteBefore(starts.get(starts.size() - 2));
        }
        assertTrue(first > 0);
        try (FileChannel ch = FileChannel.open(tmp.resolve(Format.fileName(first)), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0x55}), 0); // its magic: a damaged header
        }
        Journal.repair(tmp);
        try (Journal j = Journal.open(tmp, o)) {
            assertTrue(j.nextSequence() >= first, "after the repair the next append gets sequence "
                    + j.nextSequence() + ", a sequence deleted before " + first + " and already handed out");
        }
    }

    /** Verify beside a writer whose deleteBefore overtakes it (segments 0 and 1 go after verify read 0). */
    @Test
    void verifyBesideADeletionThatOvertakesIt() throws Exception {
        try (Journal j = Journal.open(tmp, options(Backend.CHANNEL_HEAP))) {
            append(j, 0, 300);
            List<Long> starts = segmentStarts(tmp);
            Path second = tmp.resolve(Format.fileName(starts.get(1)));
            AtomicBoolean deleted = new AtomicBoolean();
            StorageOpener opener = (file, writable) -> {
                if (file.equals(second) && deleted.compareAndSet(false, true)) {
                    j.deleteBefore(starts.get(2));
                }
                return Backend.CHANNEL_HEAP.open(file, writable);
            };
            VerifyReport report = Verifier.verify(tmp, opener);
            assertTrue(report.ok(), report.problems().toString());
        }
    }

    /**
     * A reader that opened segment 0 while a mapped writer's file was one growth step (1 MiB) long, inside it when it
     * is deleted, reads it to its end (it used to fail reopening the file by its path).
     */
    @Test
    void aReaderInsideADeletedSegmentThatGrewSinceReadsItToItsEnd() throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.MAPPED).withSegmentSize(4 << 20)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
        byte[] payload = new byte[1000];
        try (Journal j = Journal.open(tmp, o)) {
            j.append(payload);
            try (JournalReader r = j.reader(0)) {
                assertEquals(0, r.next().sequence());
                long n = 1;
                while (segmentStarts(tmp).size() < 2) {
                    j.append(payload);
                    n++;
                }
                long second = segmentStarts(tmp).get(1);
                assertEquals(second, j.deleteBefore(second));
                for (long s = 1; s < n; s++) {
                    assertTrue(r.hasNext(), "record " + s);
                    assertEquals(s, r.next().sequence());
                }
            }
        }
    }

    /** A follower opened on a fresh journal, whose first segment the writer fills, rolls past and deletes. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFollowerOpenedOnAFreshJournalCatchesUpAfterItsSegmentIsDeleted(Backend backend) throws Exception {
        JournalOptions o = options(backend);
        try (Journal writer = Journal.open(tmp, o); Journal ro = Journal.openReadOnly(tmp, o)) {
            assertEquals(0, ro.nextSequence());
            append(writer, 0, 300);
            long keep = segmentStarts(tmp).getLast();
            assertEquals(keep, writer.deleteBefore(keep));
            assertEquals(300, ro.nextSequence());
            assertEquals(keep, ro.firstSequence());
        }
    }
}
