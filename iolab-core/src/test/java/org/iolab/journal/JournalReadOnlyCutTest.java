package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FailingForces;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A read-only journal following another writer (another process, here the same one) when that writer's sync fails
 * and the next writer's open cuts the journal ({@link FailedSync}): the segment it follows is written into a new file
 * and new records take the cut ones' sequences. Before, a tailer kept reading the old file and waited forever; now a
 * reader that returned cut records is told so, and one that had not goes on with the new records.
 */
@Timeout(120)
class JournalReadOnlyCutTest {
    private static final int SIZE = 100;

    @TempDir
    Path tmp;

    private static JournalOptions plain(Backend backend, long segmentSize) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(segmentSize)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.FALLOCATE);
    }

    private static JournalOptions faulty(JournalOptions plain, Backend backend, AtomicBoolean failing) {
        return plain.withOpener((f, w) -> FailingForces.open(backend, f, w, failing));
    }

    /**
     * Appends 0..9 synced, then 10..14 whose sync fails, and closes: the writer that failed. {@code synced} runs after
     * 0..9, {@code unsynced} after 10..14.
     */
    private static void failAfterTen(Path dir, JournalOptions faulty, AtomicBoolean failing, Runnable synced,
            Runnable unsynced) {
        Journal a = Journal.open(dir, faulty);
        for (int i = 0; i < 10; i++) {
            a.append(Payloads.of(i, SIZE));
        }
        a.sync();
        synced.run();
        for (int i = 10; i < 15; i++) {
            a.append(Payloads.of(i, SIZE));
        }
        unsynced.run();
        failing.set(true);
        assertThrows(IolabException.class, a::sync);
        try {
            a.close();
        } catch (IolabException refused) {
            // a failed journal may refuse its close
        }
        failing.set(false);
    }

    /** The next writer: its open cuts at 10; it appends 10 new records, payloads of 1000 + their sequence. */
    private static void reopenAndAppend(Path dir, JournalOptions plain) {
        try (Journal b = Journal.open(dir, plain)) {
            assertEquals(10, b.nextSequence(), "the open cut the records no sync covered");
            for (int i = 10; i < 20; i++) {
                b.append(Payloads.of(1000 + i, SIZE));
            }
            b.sync();
        }
    }

    private static void assertNewJournal(Journal ro, long from) {
        try (Tailer t = ro.tailer(from)) {
            for (long seq = from; seq < 20; seq++) {
                Record r = t.poll(Duration.ofSeconds(5));
                assertNotNull(r, "record " + seq + " of the new writer");
                assertEquals(seq, r.sequence());
                assertArrayEquals(Payloads.of(seq < 10 ? seq : 1000 + seq, SIZE), r.payload(), "record " + seq);
            }
        }
        assertEquals(20, ro.nextSequence());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aTailerThatReturnedCutRecordsIsToldWhereToReadAgain(Backend backend) {
        AtomicBoolean failing = new AtomicBoolean();
        JournalOptions plain = plain(backend, 1L << 20);
        List<Tailer> tailers = new ArrayList<>();
        Journal[] ro = new Journal[1];
        failAfterTen(tmp, faulty(plain, backend, failing), failing, () -> { }, () -> {
            ro[0] = Journal.openReadOnly(tmp, plain);
            tailers.add(ro[0].tailer(0));
        });
        try (Journal r = ro[0]; Tailer tailer = tailers.getFirst()) {
            for (long seq = 0; seq < 15; seq++) {
                Record rec = tailer.poll(Duration.ofSeconds(5));
                assertNotNull(rec, "record " + seq);
                assertEquals(seq, rec.sequence());
                assertArrayEquals(Payloads.of(seq, SIZE), rec.payload());
            }
            reopenAndAppend(tmp, plain);
            IolabException e = assertThrows(IolabException.class, () -> tailer.poll(Duration.ofSeconds(5)));
            assertTrue(e.getMessage().contains("was cut at sequence 10 by its writer"), e.getMessage());
            assertTrue(e.getMessage().contains("records 10 to 14"), e.getMessage());
            assertTrue(e.getMessage().contains("read again from sequence 10"), e.getMessage());
            assertThrows(IolabException.class, () -> tailer.poll(Duration.ofMillis(10)), "it stays told");
            assertNewJournal(r, 10);
            assertNewJournal(r, 0);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CHANNEL_HEAP", "SEGMENT"})
    void aReaderThatHadNotReachedTheCutGoesOnWithTheNewRecords(Backend backend) {
        AtomicBoolean failing = new AtomicBoolean();
        JournalOptions plain = plain(backend, 1L << 20);
        Journal[] ro = new Journal[1];
        Tailer[] tailer = new Tailer[1];
        // the reader has read 0..9 and not looked again before the cut: it never saw 10..14
        failAfterTen(tmp, faulty(plain, backend, failing), failing, () -> {
            ro[0] = Journal.openReadOnly(tmp, plain);
            tailer[0] = ro[0].tailer(0);
            for (long seq = 0; seq < 10; seq++) {
                assertEquals(seq, tailer[0].poll(Duration.ofSeconds(5)).sequence());
            }
        }, () -> { });
        try (Journal r = ro[0]; Tailer t = tailer[0]) {
            reopenAndAppend(tmp, plain);
            for (long seq = 10; seq < 20; seq++) {
                Record rec = t.poll(Duration.ofSeconds(5));
                assertNotNull(rec, "record " + seq);
                assertEquals(seq, rec.sequence());
                assertArrayEquals(Payloads.of(1000 + seq, SIZE), rec.payload(), "the new writer's record " + seq);
            }
            // a visitor's replay reads the new view too
            List<Long> seen = new ArrayList<>();
            r.read(8, (seq, payload) -> {
                byte[] b = new byte[payload.remaining()];
                payload.get(b);
                assertArrayEquals(Payloads.of(seq < 10 ? seq : 1000 + seq, SIZE), b, "record " + seq);
                seen.add(seq);
                return true;
            });
            assertEquals(List.of(8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L), seen);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CHANNEL_HEAP", "MAPPED"})
    void aCutThatDeletesTheFollowedSegmentIsToldToo(Backend backend) throws Exception {
        // 4 KiB segments: the records after the failed sync fill later segments, which the cut deletes; the reader
        // holds no old file of the segment the cut is in to compare, so it is told to read again from that segment's
        // first record (at or before the cut: nothing it returned that is gone goes unreported)
        AtomicBoolean failing = new AtomicBoolean();
        JournalOptions plain = plain(backend, 4096);
        Journal a = Journal.open(tmp, faulty(plain, backend, failing));
        for (int i = 0; i < 10; i++) {
            a.append(Payloads.of(i, SIZE));
        }
        a.sync();
        try (Journal ro = Journal.openReadOnly(tmp, plain); Tailer tailer = ro.tailer(0)) {
            failing.set(true); // the seals of the full segments fail as well as the sync
            long n = 10;
            while (a.segmentCount() < 4) {
                try {
                    a.append(Payloads.of(n, SIZE));
                    n++;
                } catch (IolabException sealFailed) {
                    break;
                }
            }
            for (long seq = 0; seq < n; seq++) {
                Record rec = tailer.poll(Duration.ofSeconds(5));
                assertNotNull(rec, "record " + seq);
                assertEquals(seq, rec.sequence());
            }
            assertThrows(IolabException.class, a::sync);
            try {
                a.close();
            } catch (IolabException refused) {
                // failed
            }
            failing.set(false);
            long cut = FailedSync.read(tmp);
            assertTrue(cut >= 10 && cut < n, "the note: " + cut);
            long kept;
            try (Journal b = Journal.open(tmp, plain)) {
                kept = b.nextSequence();
                assertEquals(cut, kept);
                for (long i = kept; i < kept + 5; i++) {
                    b.append(Payloads.of(1000 + i, SIZE));
                }
                b.sync();
            }
            IolabException e = assertThrows(IolabException.class, () -> tailer.poll(Duration.ofSeconds(5)));
            long from = Long.parseLong(e.getMessage().replaceAll(".*read again from sequence (\\d+).*", "$1"));
            assertTrue(from <= cut, e.getMessage());
            try (Tailer again = ro.tailer(from)) {
                for (long seq = from; seq < kept + 5; seq++) {
                    Record rec = again.poll(Duration.ofSeconds(5));
                    assertNotNull(rec, "record " + seq);
                    assertArrayEquals(Payloads.of(seq < kept ? seq : 1000 + seq, SIZE), rec.payload(), "record " + seq);
                }
            }
        }
        assertFalse(Files.exists(FailedSync.of(tmp)));
    }
}
