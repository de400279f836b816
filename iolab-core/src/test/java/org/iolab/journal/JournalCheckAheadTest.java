package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToIntFunction;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Replays long enough for {@link CheckAhead} (runs of at least {@link CheckAhead#MIN_RUN} bytes in a mapping, whose
 * frames another thread checks ahead of the one handing them out): every record once, in order, intact; nothing at
 * or after a damaged frame; a visitor that stops or throws gets what it was handed and leaves the journal readable.
 * Run over every backend: those without a mapping check every frame themselves, and must behave the same.
 */
class JournalCheckAheadTest {
    private static final int SEGMENT = 4 << 20;
    private static final int MAX = 300;
    /** About 9.5 MiB of frames: two full segments and most of a third, each run well over MIN_RUN. */
    private static final int N = 60_000;

    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(SEGMENT)
                .withDurability(Durability.NONE);
    }

    private static void build(Journal j) {
        for (int i = 0; i < N; i++) {
            j.append(Payloads.of(i, Payloads.size(i, MAX)));
        }
    }

    /** Reads from {@code from}, checking each record as it comes; returns the sequences seen. */
    private static List<Long> readChecked(Journal j, long from) {
        List<Long> seen = new ArrayList<>();
        readInto(j, from, seq -> Payloads.size(seq, MAX), seen);
        return seen;
    }

    /**
     * Reads from {@code from}, checking each record's payload (record {@code seq} holds {@code size(seq)} bytes) and
     * adding its sequence to {@code seen} as it comes, so a replay that throws leaves what it handed out.
     */
    private static void readInto(Journal j, long from, LongToIntFunction size, List<Long> seen) {
        j.read(from, (seq, payload) -> {
            byte[] got = new byte[payload.remaining()];
            payload.get(got);
            assertArrayEquals(Payloads.of(seq, size.applyAsInt(seq)), got, "record " + seq);
            seen.add(seq);
            return true;
        });
    }

    private static void assertRun(List<Long> seen, long from, long to) {
        assertEquals(to - from, seen.size(), "records handed out");
        for (int i = 0; i < seen.size(); i++) {
            assertEquals(from + i, seen.get(i), "sequence at " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aLongReplayHandsOutEveryRecordOnceInOrderBeforeAndAfterAReopen(Backend backend) {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, options(backend))) {
            build(j);
            assertTrue(Journal.listSegments(dir).size() >= 3, "the records fill several segments");
            assertRun(readChecked(j, 0), 0, N);
            assertRun(readChecked(j, 12_345), 12_345, N);
        }
        try (Journal j = Journal.open(dir, options(backend))) {
            // sealed by an earlier process: their ends are found by a zero length, a word at a page start is
            // left to the single-frame reader
            assertRun(readChecked(j, 0), 0, N);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aDamagedFrameInALongRunStopsTheReplayThereAndIsReported(Backend backend) throws IOException {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, options(backend))) {
            build(j);
        }
        Path second = Journal.listSegments(dir).get(1);
        long firstSeq = Format.parseName(second);
        // the frame of a record with a payload about 2 MiB into the second (sealed) segment
        long offset = Format.HEADER_SIZE;
        long seq = firstSeq;
        try (FileChannel ch = FileChannel.open(second, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer word = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            for (;;) {
                ch.read(word.clear(), offset);
                int length = word.getInt(0);
                if (offset >= (2 << 20) && length > Format.FRAME_HEADER + 1) {
                    ByteBuffer b = ByteBuffer.allocate(1);
                    ch.read(b, offset + Format.FRAME_HEADER + 1);
                    b.put(0, (byte) ~b.get(0));
                    ch.write(b.flip(), offset + Format.FRAME_HEADER + 1);
                    break;
                }
                offset += Format.align(length);
                seq++;
            }
        }
        long damaged = seq;
        long damagedAt = offset;
        try (Journal j = Journal.open(dir, options(backend))) {
            List<Long> seen = new ArrayList<>();
            JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                    () -> readInto(j, 0, s -> Payloads.size(s, MAX), seen));
            assertRun(seen, 0, damaged);
            assertEquals(second, e.file());
            assertEquals(damagedAt, e.offset());
            // a replay from a later record of that segment walks its frames from the start: it meets the damage too
            assertThrows(JournalCorruptedException.class, () -> readChecked(j, damaged + 1));
            // the next segment's records are all there
            long third = Format.parseName(Journal.listSegments(dir).get(2));
            assertRun(readChecked(j, third), third, N);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aVisitorThatStopsOrThrowsInALongRunGetsWhatItWasHandedAndLeavesTheJournalReadable(Backend backend) {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, options(backend))) {
            build(j);
            List<Long> seen = new ArrayList<>();
            long handed = j.read(0, (seq, payload) -> {
                seen.add(seq);
                return seq < 20_000;
            });
            assertEquals(20_001, handed);
            assertRun(seen, 0, 20_001);
            RuntimeException boom = new IllegalStateException("visitor failed");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> j.read(0, (seq, payload) -> {
                if (seq == 30_000) {
                    throw boom;
                }
                return true;
            }));
            assertSame(boom, thrown);
            assertRun(readChecked(j, 30_000), 30_000, N);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"MAPPED", "SEGMENT"})
    void aMappedReplayChecksOnASecondThreadWhenThereIsASecondProcessor(Backend backend) {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "one processor: the reader checks every frame");
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, options(backend))) {
            build(j);
            assertRun(readChecked(j, 0), 0, N);
        }
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("iolab-journal-check")), "no check thread ran");
    }

    /**
     * A segment sealed by an earlier process whose data ends on a page boundary, where the seal cut the file (as seals
     * did before writers kept the length; the test cuts it as they did): the
     * check thread reads the length word there through the descriptor (a mapped read would fault past the end).
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aSealedSegmentWhoseDataEndsOnAPageBoundaryIsReplayedWhole(Backend backend) throws IOException {
        Path dir = tmp.resolve("j");
        // without preallocation a mapped backend grows the file in steps and cuts its zero tail at the seal
        JournalOptions o = options(backend).withSegmentSize(2 << 20).withPreallocation(Preallocation.NONE);
        int pages = 300;
        try (Journal j = Journal.open(dir, o)) {
            // the first frame fills the header's page, each next one a page: the data ends at page 301
            j.append(Payloads.of(0, 4096 - Format.HEADER_SIZE - Format.FRAME_HEADER));
            for (int i = 1; i <= pages; i++) {
                j.append(Payloads.of(i, 4096 - Format.FRAME_HEADER));
            }
            // does not fit in what is left: rolls, sealing the first segment at its data end
            j.append(Payloads.of(pages + 1, 900 << 10));
        }
        Path first = Journal.listSegments(dir).get(0);
        // the seal keeps the length now (a follower may have the file mapped); one before that cut it at its data
        // end, as the test does here, and a replay must still cope with such a file
        assertTrue(Files.size(first) >= 4096L * (pages + 1), "the seal keeps the segment's length: " + Files.size(first));
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(first,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(4096L * (pages + 1));
        }
        try (Journal j = Journal.open(dir, o)) {
            List<Long> seen = new ArrayList<>();
            readInto(j, 0, seq -> seq == 0 ? 4096 - Format.HEADER_SIZE - Format.FRAME_HEADER
                    : seq <= pages ? 4096 - Format.FRAME_HEADER : 900 << 10, seen);
            assertRun(seen, 0, pages + 2);
        }
    }
}
