package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FailingForces;
import org.junit.jupiter.api.Test;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Races and corners of a read-only journal across a writer's cut after a failed sync ({@link JournalReadOnlyCutTest}
 * has the plain cases), from a review: a follower racing the cut, a cut that deletes the followed segment while the
 * new writer's segments take the names after it or its own name again, readers made before the cut that read first
 * after it, a tailer at the end, a deleteBefore that must never read as a cut.
 */
@Timeout(300)
@SuppressWarnings("try")
class JournalReadOnlyCutRaceTest {
    static final int SIZE = 100;

    @TempDir
    Path tmp;
    Backend backend = Backend.CHANNEL_HEAP;

    JournalOptions plain(long seg) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(seg)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.FALLOCATE);
    }

    JournalOptions faulty(JournalOptions p, AtomicBoolean failing) {
        return p.withOpener((f, w) -> FailingForces.open(backend, f, w, failing));
    }

    /** writer A: 0..9 synced, 10..14 not; `between` runs before the failing sync. */
    void failAfterTen(JournalOptions p, Runnable between) {
        AtomicBoolean failing = new AtomicBoolean();
        Journal a = Journal.open(tmp, faulty(p, failing));
        for (int i = 0; i < 10; i++) a.append(Payloads.of(i, SIZE));
        a.sync();
        for (int i = 10; i < 15; i++) a.append(Payloads.of(i, SIZE));
        between.run();
        failing.set(true);
        assertThrows(IolabException.class, a::sync);
        try { a.close(); } catch (IolabException ignored) { }
    }

    void reopen(JournalOptions p, int appends) {
        try (Journal b = Journal.open(tmp, p)) {
            assertEquals(10, b.nextSequence());
            for (int i = 10; i < 10 + appends; i++) b.append(Payloads.of(1000 + i, SIZE));
            b.sync();
        }
    }

    /** Writer A, its syncs through {@code failing}: records 0..9, synced. */
    Journal writerWithTenSynced(JournalOptions p, AtomicBoolean failing) {
        Journal a = Journal.open(tmp, faulty(p, failing));
        for (int i = 0; i < 10; i++) {
            a.append(Payloads.of(i, SIZE));
        }
        a.sync();
        return a;
    }

    /**
     * A's syncs fail from now: records from its next sequence until {@code until}, or until the seal of a roll fails.
     *
     * @return A's next sequence
     */
    static long appendUnsynced(Journal a, AtomicBoolean failing, long until) {
        failing.set(true);
        long n = a.nextSequence();
        while (n < until) {
            try {
                a.append(Payloads.of(n, SIZE));
                n++;
            } catch (IolabException sealFailed) {
                break;
            }
        }
        return n;
    }

    /** A's sync fails and A closes (a failed journal may refuse its close); the device works again. */
    static void failAndClose(Journal a, AtomicBoolean failing) {
        failing.set(true);
        assertThrows(IolabException.class, a::sync);
        try {
            a.close();
        } catch (IolabException refused) {
            // failed
        }
        failing.set(false);
    }

    /** @param from a tailer's first record: it returns {@code from} to {@code to - 1} in order */
    static void assertReads(Tailer t, long from, long to) {
        for (long seq = from; seq < to; seq++) {
            Record r = t.poll(Duration.ofSeconds(5));
            assertNotNull(r, "record " + seq);
            assertEquals(seq, r.sequence());
        }
    }

    /**
     * Polls {@code t} until it throws, which it must: it is told of the cut.
     *
     * @return the sequence it is told to read again from
     */
    static long assertTold(Tailer t) {
        List<Long> more = new ArrayList<>();
        IolabException e = assertThrows(IolabException.class, () -> {
            Record r;
            while ((r = t.poll(Duration.ofMillis(50))) != null) {
                more.add(r.sequence());
            }
        }, () -> "not told of the cut; read " + more);
        assertTrue(e.getMessage().contains("was cut"), e.getMessage());
        return Long.parseLong(e.getMessage().replaceAll(".*read again from sequence (\\d+).*", "$1"));
    }

    /** A reader made before the cut, first read after it, with the writer having appended nothing. */
    @Test
    void lazyReaderAfterCutNoAppends() throws Exception {
        JournalOptions p = plain(1 << 20);
        Journal[] ro = new Journal[1];
        JournalReader[] rd = new JournalReader[1];
        failAfterTen(p, () -> { ro[0] = Journal.openReadOnly(tmp, p); rd[0] = ro[0].reader(0); });
        reopen(p, 0);
        Thread.sleep(5);
        List<Long> got = new ArrayList<>();
        try (Journal r = ro[0]; JournalReader reader = rd[0]) {
            while (reader.hasNext()) got.add(reader.next().sequence());
        } catch (RuntimeException e) {
            fail("after " + got + ": " + e, e);
        }
        assertEquals(10, got.size(), got.toString());
    }

    /** Same, the new writer appended 10..19: the reader returns the current records only, and is told nothing. */
    @Test
    void lazyReaderAfterCutWithAppends() throws Exception {
        JournalOptions p = plain(1 << 20);
        Journal[] ro = new Journal[1];
        Tailer[] t = new Tailer[1];
        failAfterTen(p, () -> { ro[0] = Journal.openReadOnly(tmp, p); t[0] = ro[0].tailer(0); });
        reopen(p, 10);
        Thread.sleep(5);
        List<String> got = new ArrayList<>();
        try (Journal r = ro[0]; Tailer tailer = t[0]) {
            for (int i = 0; i < 20; i++) {
                Record rec = tailer.poll(Duration.ofSeconds(2));
                assertNotNull(rec);
                byte[] want = Payloads.of(rec.sequence() < 10 ? rec.sequence() : 1000 + rec.sequence(), SIZE);
                got.add(rec.sequence() + (java.util.Arrays.equals(want, rec.payload()) ? "" : "(OLD)"));
            }
        } catch (RuntimeException e) {
            fail("after " + got + ": " + e, e);
        }
        assertFalse(got.stream().anyMatch(g -> g.endsWith("(OLD)")), got.toString());
    }

    /** A tailer made at the next sequence, which returned nothing before the cut, goes on from there untold. */
    @Test
    void tailerAtEndReturnedNothing() throws Exception {
        JournalOptions p = plain(1 << 20);
        Journal[] ro = new Journal[1];
        Tailer[] t = new Tailer[1];
        failAfterTen(p, () -> {
            ro[0] = Journal.openReadOnly(tmp, p);
            t[0] = ro[0].tailer(ro[0].nextSequence());
            assertNull(t[0].poll(Duration.ofMillis(5)));
        });
        reopen(p, 10);
        try (Journal r = ro[0]; Tailer tailer = t[0]) {
            Record rec = tailer.poll(Duration.ofSeconds(2));
            assertNotNull(rec);
            assertEquals(15, rec.sequence());
        }
    }

    /** The folder emptied: a tailer waits (for a second; then the refresh reports the folder). */
    @Test
    void folderEmptied() throws Exception {
        JournalOptions p = plain(1 << 20);
        try (Journal w = Journal.open(tmp, p)) {
            w.append(Payloads.of(0, SIZE));
        }
        try (Journal ro = Journal.openReadOnly(tmp, p); Tailer t = ro.tailer(0)) {
            assertNotNull(t.poll(Duration.ofSeconds(1)));
            for (Path f : Journal.listSegments(tmp)) Files.delete(f);
            Thread.sleep(5);
            assertNull(t.poll(Duration.ofMillis(20)));
            ro.nextSequence();
        }
    }

    /** Writer rolls and deletes old segments while a lagging read-only journal follows: never a cut. */
    @Test
    void deleteBeforeWhileLagging() throws Exception {
        JournalOptions p = plain(4096);
        try (Journal w = Journal.open(tmp, p)) {
            for (int i = 0; i < 10; i++) w.append(Payloads.of(i, SIZE));
            w.sync();
            try (Journal ro = Journal.openReadOnly(tmp, p); Tailer t = ro.tailer(0)) {
                long seq = 0;
                for (int round = 0; round < 200; round++) {
                    for (int i = 0; i < 7; i++) w.append(Payloads.of(w.nextSequence(), SIZE));
                    w.sync();
                    if (round % 3 == 0) w.deleteBefore(w.nextSequence());
                    Record r;
                    try {
                        while ((r = t.poll(Duration.ZERO)) != null) {
                            assertArrayEquals(Payloads.of(r.sequence(), SIZE), r.payload());
                            seq = r.sequence();
                        }
                    } catch (IolabException e) {
                        assertFalse(e.getMessage().contains("was cut"), e.getMessage());
                        // deleted: start again

                        return;
                    }
                }
            }
        }
    }

    /**
     * The cut is in segment 0 and deletes the followed segment 33; the new writer's appends make a segment 33 again
     * under the followed one's name. The reader is told from no later than the cut, not from 33.
     */
    @Test
    void aReCreatedFollowedSegmentIsToldFromTheEarlierCut() {
        JournalOptions p = plain(4096);
        AtomicBoolean failing = new AtomicBoolean();
        Journal a = writerWithTenSynced(p, failing);
        try (Journal ro = Journal.openReadOnly(tmp, p); Tailer tailer = ro.tailer(0)) {
            long n = appendUnsynced(a, failing, 45);
            assertReads(tailer, 0, n);
            assertTrue(Files.exists(tmp.resolve(Format.fileName(33))), "the reader follows segment 33");
            failAndClose(a, failing);
            long kept;
            try (Journal b = Journal.open(tmp, p)) {
                kept = b.nextSequence();
                for (long i = kept; i < 60; i++) {
                    b.append(Payloads.of(1000 + i, SIZE));
                }
                b.sync();
            }
            assertTrue(Files.exists(tmp.resolve(Format.fileName(33))), "the new writer made a segment 33 again");
            long from = assertTold(tailer);
            assertTrue(from <= kept, "cut at " + kept + ", told to read again from " + from);
        }
    }

    /**
     * As above, the new writer's records larger: its segments take other names, one of them after the followed one,
     * which is not taken for the successor of a deleteBefore.
     */
    @Test
    void aNewSegmentAfterTheFollowedOneIsNotTakenForADeleteBefore() {
        JournalOptions p = plain(4096);
        AtomicBoolean failing = new AtomicBoolean();
        Journal a = writerWithTenSynced(p, failing);
        try (Journal ro = Journal.openReadOnly(tmp, p); Tailer tailer = ro.tailer(0)) {
            long n = appendUnsynced(a, failing, 42);
            assertReads(tailer, 0, n);
            failAndClose(a, failing);
            long kept;
            try (Journal b = Journal.open(tmp, p)) {
                kept = b.nextSequence();
                for (long i = kept; i < 80; i++) {
                    b.append(Payloads.of(1000 + i, 3 * SIZE));
                }
                b.sync();
            }
            long from = assertTold(tailer);
            assertTrue(from <= kept, "cut at " + kept + ", told to read again from " + from);
            // a new reader from 0 reads the new writer's records
            try (JournalReader rd = ro.reader(0)) {
                for (long s = 0; s < 80; s++) {
                    assertArrayEquals(Payloads.of(s < kept ? s : 1000 + s, s < kept ? SIZE : 3 * SIZE),
                            rd.next().payload(), "record " + s);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1 << 20, 4096})
    void aFollowerRacingTheCutIsToldOrReadsTheNewRecords(long segSize) throws Exception {
        Backend backend = Backend.CHANNEL_HEAP;
        List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
        for (int iter = 0; iter < 60; iter++) {
            Path dir = tmp.resolve("j" + segSize + "-" + iter);
            JournalOptions p = JournalOptions.defaults().withBackend(backend).withSegmentSize(segSize)
                    .withDurability(Durability.NONE).withPreallocation(Preallocation.FALLOCATE);
            AtomicBoolean failing = new AtomicBoolean();
            JournalOptions f = p.withOpener((file, w) -> FailingForces.open(backend, file, w, failing));
            Journal a = Journal.open(dir, f);
            for (int i = 0; i < 10; i++) a.append(Payloads.of(i, SIZE));
            a.sync();
            Journal ro = Journal.openReadOnly(dir, p);
            List<String> got = Collections.synchronizedList(new ArrayList<>());
            String[] end = new String[1];
            AtomicBoolean stop = new AtomicBoolean();
            Thread t = new Thread(() -> {
                try (Tailer tl = ro.tailer(0)) {
                    while (!stop.get()) {
                        Record r = tl.poll(Duration.ofMillis(2));
                        if (r == null) continue;
                        long s = r.sequence();
                        String tag = Arrays.equals(r.payload(), Payloads.of(s, SIZE)) ? "A"
                                : Arrays.equals(r.payload(), Payloads.of(1000 + s, SIZE)) ? "B" : "?";
                        got.add(s + tag);
                    }
                    end[0] = "stopped";
                } catch (RuntimeException e) {
                    end[0] = e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            });
            t.start();
            long n = 10;
            failing.set(true);
            for (int i = 0; i < 5 + (iter % 40); i++) {
                try { a.append(Payloads.of(n, SIZE)); n++; } catch (IolabException x) { break; }
            }
            if (iter % 3 == 0) Thread.sleep(1);
            assertThrows(IolabException.class, a::sync);
            try { a.close(); } catch (IolabException ignored) { }
            failing.set(false);
            long kept;
            try (Journal b = Journal.open(dir, p)) {
                kept = b.nextSequence();
                for (long i = kept; i < kept + 60; i++) {
                    b.append(Payloads.of(i < 0 ? i : 1000 + i, SIZE));
                    if (i % 7 == 0) Thread.onSpinWait();
                }
                b.sync();
            }
            long deadline = System.nanoTime() + 3_000_000_000L;
            while (end[0] == null && got.size() < kept + 60 && System.nanoTime() < deadline) Thread.sleep(1);
            stop.set(true);
            t.join();
            ro.close();
            // classify
            boolean sawOld = false, sawNew = false, wrongAfterCut = false, bad = false;
            long lastSeq = -1;
            for (String g : got) {
                long s = Long.parseLong(g.substring(0, g.length() - 1));
                char c = g.charAt(g.length() - 1);
                if (s >= kept && c == 'A') sawOld = true;
                if (s >= kept && c == 'B') { sawNew = true; if (sawOld) wrongAfterCut = true; }
                if (c == '?' || (s != lastSeq + 1)) bad = true;
                lastSeq = s;
            }
            String e = end[0];
            boolean cutTold = e != null && e.contains("was cut");
            String verdict;
            if (bad) verdict = "BADSEQ";
            else if (e != null && !cutTold && !e.equals("stopped")) verdict = "EXC";
            else if (sawOld && !cutTold) verdict = "SILENT_OLD";
            else if (wrongAfterCut) verdict = "MIXED";
            else if (cutTold && !sawOld) verdict = "FALSE_CUT";
            else if (!cutTold && got.size() < kept + 60) verdict = "SHORT";
            else verdict = cutTold ? "told" : "ok";
            if (!verdict.equals("told") && !verdict.equals("ok")) {
                outcomes.add(iter + " " + verdict + " kept=" + kept + " n=" + n + " end=" + e + " got=" + got);
            } else {
                outcomes.add(iter + " " + verdict);
            }
        }
        List<String> wrong = outcomes.stream().filter(o -> !o.endsWith(" told") && !o.endsWith(" ok")).toList();
        assertEquals(List.of(), wrong, "every reader either read the new records or was told of the cut");
    }

    /**
     * Cut, then the new writer rolls to a segment named exactly the reader's next sequence and deleteBefore()s the
     * rest: not a plain deleteBefore, the reader is told of the cut (and to read again from the journal's new start).
     */
    @Test
    void aCutThenADeleteBeforeIsToldAsACut() {
        JournalOptions p = plain(4096);
        AtomicBoolean failing = new AtomicBoolean();
        Journal a = writerWithTenSynced(p, failing);
        try (Journal ro = Journal.openReadOnly(tmp, p); Tailer tailer = ro.tailer(0)) {
            long n = appendUnsynced(a, failing, 45);
            assertReads(tailer, 0, n);
            failAndClose(a, failing);
            try (Journal b = Journal.open(tmp, p)) {
                while (b.nextSequence() < n) {
                    b.append(Payloads.of(1000 + b.nextSequence(), SIZE));
                }
                b.append(Payloads.of(1000 + n, (int) p.maxRecordSize())); // a roll, to a segment named n
                b.sync();
                assertTrue(Files.exists(tmp.resolve(Format.fileName(n))), "n=" + n);
                b.deleteBefore(n);
            }
            assertEquals(n, assertTold(tailer), "the journal starts at " + n + " now");
        }
    }

    /**
     * The cut rewrites the followed segment and the new writer rolls to a segment named exactly the reader's next
     * sequence; the reader's refresh comes within the millisecond after its last timed identity check. The successor
     * is not taken before the followed file's identity is checked: the reader is told, and a new reader from 0 reads
     * the new writer's 17 records.
     */
    @Test
    void aRollToTheReadersNextWithinTheCheckIntervalIsToldToo() {
        JournalOptions p = plain(1 << 20);
        AtomicBoolean failing = new AtomicBoolean();
        Journal a = writerWithTenSynced(p, failing);
        for (int i = 10; i < 15; i++) {
            a.append(Payloads.of(i, SIZE));
        }
        try (Journal ro = Journal.openReadOnly(tmp, p); Tailer tailer = ro.tailer(0)) {
            assertReads(tailer, 0, 15);
            failAndClose(a, failing);
            try (Journal b = Journal.open(tmp, p)) {
                assertEquals(10, b.nextSequence());
                while (b.nextSequence() < 15) {
                    b.append(Payloads.of(1000 + b.nextSequence(), SIZE));
                }
                b.append(Payloads.of(1015, (int) p.maxRecordSize())); // does not fit: a roll to segment 15
                assertTrue(Files.exists(tmp.resolve(Format.fileName(15))));
                b.append(Payloads.of(1016, SIZE));
                b.sync();
            }
            ro.identityCheckedNow(); // the last timed check ran just before B's rename
            ro.refresh(); // a refresh within that millisecond
            assertEquals(17, ro.tip().nextSeq());
            assertEquals(10, assertTold(tailer));
            try (JournalReader rd = ro.reader(0)) {
                long n = 0;
                while (rd.hasNext()) {
                    assertEquals(n++, rd.next().sequence());
                }
                assertEquals(17, n);
            }
        }
    }

    /**
     * A lagging tailer in segment 0 whose successor 33 the cut deleted (and the new writer did not make again): it
     * reads the old file to its end, then finds 33 gone, and is told of the cut (not "no such file" for ever).
     */
    @Test
    void aLaggingCursorWhoseNextSegmentTheCutDeletedIsTold() {
        JournalOptions p = plain(4096);
        AtomicBoolean failing = new AtomicBoolean();
        Journal a = writerWithTenSynced(p, failing);
        try (Journal ro = Journal.openReadOnly(tmp, p); Tailer tailer = ro.tailer(0)) {
            long n = appendUnsynced(a, failing, 40);
            assertReads(tailer, 0, 20);
            assertEquals(n, ro.nextSequence()); // the view has segment 33
            failAndClose(a, failing);
            try (Journal b = Journal.open(tmp, p)) {
                assertEquals(10, b.nextSequence());
                b.append(Payloads.of(1010, SIZE));
                b.sync();
            }
            // segment 0 was rewritten, and only the followed one's old file is held to compare: told from its start
            long from = assertTold(tailer);
            assertTrue(from <= 10, "cut at 10, told to read again from " + from);
        }
    }

    /**
     * A plain deleteBefore: reader r1 is reading segment 0 (file open); reader r2, made before, opens the deleted
     * segment 0 and fails (deleted, right). The documented contract: r1 "reads it to its end (its file stays open)".
     */
    @Test
    void aDeleteBeforeSeenByOneReaderDoesNotStopAnotherReadingTheDeletedSegment() {
        JournalOptions p = plain(4096);
        try (Journal w = Journal.open(tmp, p)) {
            for (int i = 0; i < 100; i++) w.append(Payloads.of(i, SIZE));
            w.sync();
            try (Journal ro = Journal.openReadOnly(tmp, p); JournalReader r1 = ro.reader(0);
                    JournalReader r2 = ro.reader(5)) {
                assertEquals(0, r1.next().sequence()); // r1 holds segment 0 open
                w.deleteBefore(w.nextSequence());
                IolabException e2 = assertThrows(IolabException.class, r2::next);
                assertTrue(e2.getMessage().contains("was deleted"), e2.getMessage());
                long epoch = ro.epoch();
                // r1 still holds segment 0's file: it should read record 1 from it
                try {
                    assertEquals(1, r1.next().sequence());
                } catch (IolabException e) {
                    fail("epoch " + epoch + ": r1, reading deleted segment 0 with its file open, failed: "
                            + e.getMessage());
                }
            }
        }
    }

    /**
     * A cut in the followed (unsealed) segment 66 at 70, then the new writer rolls and deleteBefore()s every older
     * segment (sealed 0 and 33 included). Tailer t2, which returned 0..74, is told of the cut; t1, which returned
     * only record 0, which no cut touched, is not (it is told its next record was deleted).
     */
    @Test
    void aCutThenADeleteBeforeDoesNotReportOlderSealedSegmentsAsCut() {
        JournalOptions p = plain(4096);
        AtomicBoolean failing = new AtomicBoolean();
        Journal a = Journal.open(tmp, faulty(p, failing));
        for (int i = 0; i < 70; i++) {
            a.append(Payloads.of(i, SIZE));
        }
        a.sync();
        for (int i = 70; i < 75; i++) {
            a.append(Payloads.of(i, SIZE));
        }
        try (Journal ro = Journal.openReadOnly(tmp, p); Tailer t1 = ro.tailer(0); Tailer t2 = ro.tailer(0)) {
            assertReads(t1, 0, 1);
            assertReads(t2, 0, 75);
            failAndClose(a, failing);
            try (Journal b = Journal.open(tmp, p)) {
                assertEquals(70, b.nextSequence());
                int n = b.segmentCount();
                while (b.segmentCount() == n) {
                    b.append(Payloads.of(1000 + b.nextSequence(), SIZE));
                }
                b.append(Payloads.of(1000 + b.nextSequence(), SIZE));
                b.sync();
                b.deleteBefore(b.nextSequence());
            }
            assertTold(t2);
            IolabException e = assertThrows(IolabException.class, () -> t1.poll(Duration.ofMillis(200)));
            assertFalse(e.getMessage().contains("was cut"), e.getMessage());
            assertTrue(e.getMessage().contains("was deleted"), e.getMessage());
        }
    }
}
