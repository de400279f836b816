package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.testing.DirtyPages;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The synced mark in the last segment's header: records below it were synced, so damage to them is refused by
 * {@code open} (and a read-only open), reported by {@code verify} and cut by {@code repair}, instead of being cut
 * silently as a crash's torn tail; and a sync moves it, without ever claiming more than it synced.
 */
class JournalSyncedMarkTest {
    private static final int RECORDS = 20;
    private static final int PAYLOAD = 300;
    private static final long FRAME = Format.align(Format.FRAME_HEADER + PAYLOAD);

    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(1 << 20).withDurability(Durability.NONE)
                .withPreallocation(Preallocation.FALLOCATE);
    }

    private static Path build(Path dir, JournalOptions o) {
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < RECORDS; i++) {
                j.append(Payloads.of(i, PAYLOAD));
            }
        }
        return Journal.listSegments(dir).getFirst();
    }

    private static long start(int record) {
        return Format.HEADER_SIZE + record * FRAME;
    }

    private static void write(Path file, long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    private static List<Long> sequences(Journal j) {
        List<Long> seqs = new ArrayList<>();
        j.read(0, (seq, payload) -> seqs.add(seq));
        return seqs;
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void damageBelowAClosedJournalsMarkIsRefusedReportedAndCutByRepair(Backend backend) throws IOException {
        JournalOptions o = options(backend);
        Path dir = tmp.resolve("j");
        Path segment = build(dir, o);
        assertEquals(start(RECORDS), SyncedMarks.get(segment), "the close marks every record synced");
        write(segment, start(17) + Format.FRAME_HEADER + 5, new byte[] {(byte) 0xA5}); // bit rot in record 17

        JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> Journal.open(dir, o));
        assertEquals(segment, e.file());
        assertEquals(start(17), e.offset());
        assertTrue(e.getMessage().contains("synced mark") && e.getMessage().contains("repair"), e.getMessage());
        // a reader opens it and reads the records before the damage, then is told (the open refused, and 'journal
        // read' printed nothing)
        List<Long> before = new ArrayList<>();
        try (Journal ro = Journal.openReadOnly(dir, o)) {
            assertEquals(17, ro.nextSequence(), "the readable records end at the damage");
            JournalCorruptedException read = assertThrows(JournalCorruptedException.class,
                    () -> ro.read(0, (seq, payload) -> before.add(seq)));
            assertEquals(segment, read.file());
            assertEquals(start(17), read.offset());
            try (Tailer t = ro.tailer(15)) {
                assertEquals(15, t.poll(java.time.Duration.ofSeconds(5)).sequence());
                assertEquals(16, t.poll(java.time.Duration.ofSeconds(5)).sequence());
                assertThrows(JournalCorruptedException.class, () -> t.poll(java.time.Duration.ofSeconds(5)),
                        "a tailer does not wait at damage");
            }
        }
        assertEquals(java.util.stream.LongStream.range(0, 17).boxed().toList(), before);
        VerifyReport report = Journal.verify(dir);
        assertFalse(report.ok());
        VerifyReport.Problem first = report.problems().getFirst();
        assertFalse(first.recoverable(), first.toString());
        assertEquals(start(17), first.offset());

        Journal.repair(dir);
        assertEquals(start(17), SyncedMarks.get(segment), "repair marks what it kept, not more");
        assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).problems().toString());
        // bit rot in a payload costs its record: 18 on stay (in a segment of their own), and the next append takes
        // the sequence after them
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(RECORDS - 1, sequences(j).size());
            assertEquals(RECORDS, j.append(Payloads.of(RECORDS, PAYLOAD)));
        }
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(RECORDS, sequences(j).size());
        }
        assertEquals(start(17), SyncedMarks.get(segment), "the cut segment takes no appends: it is sealed");
    }

    @Test
    void zerosWhereSyncedRecordsWereAreDamageNotTheEndOfTheData() throws IOException {
        JournalOptions o = options(Backend.DEFAULT);
        Path dir = tmp.resolve("j");
        Path segment = build(dir, o);
        write(segment, start(10), new byte[(int) (start(RECORDS) - start(10))]);
        JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> Journal.open(dir, o));
        assertEquals(start(10), e.offset());
        VerifyReport.Problem first = Journal.verify(dir).problems().getFirst();
        assertEquals(start(10), first.offset());
        assertFalse(first.recoverable());
    }

    @Test
    void damageAfterTheMarkIsStillATornTail() throws IOException {
        JournalOptions o = options(Backend.DEFAULT);
        Path dir = tmp.resolve("j");
        Path segment = build(dir, o);
        SyncedMarks.set(segment, start(15)); // as a crash after the sync of record 14 leaves it
        write(segment, start(17) + Format.FRAME_HEADER + 5, new byte[] {(byte) 0xA5});
        assertTrue(Journal.verify(dir).ok());
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(17, sequences(j).size(), "cut at the torn record");
        }
    }

    @Test
    void aMarkWhoseCheckFailsIsNoMark() throws IOException {
        JournalOptions o = options(Backend.DEFAULT);
        Path dir = tmp.resolve("j");
        Path segment = build(dir, o);
        write(segment, Format.MARK_OFFSET + 9, new byte[] {0x11}); // its CRC
        assertEquals(Format.HEADER_SIZE, SyncedMarks.get(segment));
        write(segment, start(17) + Format.FRAME_HEADER + 5, new byte[] {(byte) 0xA5});
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(17, sequences(j).size(), "without a mark, the damaged record is a tail to cut");
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aSyncMovesTheMarkToWhatItSyncedAndTheNextSyncWritesIt(Backend backend) {
        JournalOptions o = options(backend);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            Path segment = dir.resolve(Format.fileName(0));
            int n = (int) ((1 << 20) / 4 / FRAME) + 1; // past a quarter of the segment
            for (int i = 0; i < n; i++) {
                j.append(Payloads.of(i, PAYLOAD));
            }
            assertEquals(Format.HEADER_SIZE, SyncedMarks.get(segment), "no mark before a sync");
            j.sync();
            assertEquals(start(n), SyncedMarks.get(segment), "the sync's mark");
            j.append(Payloads.of(n, PAYLOAD));
            j.sync();
            long mark = SyncedMarks.get(segment);
            assertTrue(mark == start(n) || mark == start(n + 1), "a mark only ever says what a sync covered: " + mark);
            if (mark == start(n)) {
                long dirty = DirtyPages.count(segment, 0, 4096);
                Assumptions.assumeTrue(dirty >= 0, "needs cachestat (Linux 6.5+)");
                assertEquals(0, dirty, "the next sync wrote the header's page with the mark");
            }
        }
    }
}
