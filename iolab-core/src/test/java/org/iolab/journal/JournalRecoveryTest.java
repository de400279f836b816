package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Torn tails are truncated; damage anywhere else raises {@link JournalCorruptedException}. */
class JournalRecoveryTest {
    private static final int N = 100;
    private static final int MAX = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend, Preallocation p) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(4096).withPreallocation(p)
                .withDurability(Durability.NONE);
    }

    /** Writes N records; returns the segment files in order. */
    private static List<Path> build(Path dir, JournalOptions o) throws IOException {
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < N; i++) {
                j.append(Payloads.of(i, Payloads.size(i, MAX)));
            }
        }
        return Journal.listSegments(dir);
    }

    private static void copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
    }

    private static void write(Path file, long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    /** @return the records readable from 0 (throws on corruption) */
    private static List<Record> readAll(Journal j) {
        List<Record> out = new ArrayList<>();
        try (JournalReader r = j.reader(0)) {
            while (r.hasNext()) {
                out.add(r.next());
            }
        }
        return out;
    }

    private static void assertOriginal(List<Record> records) {
        for (int i = 0; i < records.size(); i++) {
            assertEquals(new Record(i, Payloads.of(i, Payloads.size(i, MAX))), records.get(i), "record " + i);
        }
    }

    /** The offset of the last record in the last segment (walking the frames). */
    private static long lastRecordStart(Path segment) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
        long pos = Format.HEADER_SIZE;
        long last = -1;
        while (pos + 16 <= b.capacity() && b.getInt((int) pos) != 0) {
            last = pos;
            pos += Format.align(b.getInt((int) pos));
        }
        return last;
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"SEGMENT", "RANDOM_ACCESS_FILE"})
    void aTornLastRecordIsTruncatedAtEveryByteOffset(Backend backend) throws IOException {
        for (Preallocation p : new Preallocation[] {Preallocation.NONE, Preallocation.FALLOCATE}) {
            JournalOptions o = options(backend, p);
            Path pristine = tmp.resolve("pristine-" + p.label());
            List<Path> segs = build(pristine, o);
            Path lastSeg = segs.getLast();
            long start = lastRecordStart(lastSeg);
            // as a crash leaves it: the last record written after the last synced mark
            SyncedMarks.set(lastSeg, start);
            ByteBuffer whole = ByteBuffer.wrap(Files.readAllBytes(lastSeg)).order(ByteOrder.LITTLE_ENDIAN);
            long end = start + Format.align(whole.getInt((int) start));
            for (long cut = start; cut < end; cut++) {
                Path dir = tmp.resolve("cut-" + p.label() + "-" + cut);
                copyDir(pristine, dir);
                Path seg = dir.resolve(lastSeg.getFileName());
                if (p == Preallocation.NONE) {
                    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
                        ch.truncate(cut);
                    }
                } else {
                    byte[] garbage = new byte[(int) (end - cut)];
                    if (cut % 2 == 0) {
                        new SplittableRandom(cut).nextBytes(garbage);
                    }
                    write(seg, cut, garbage);
                }
                boolean padding = cut >= start + 16 + Payloads.size(N - 1, MAX);
                long expect = padding ? N : N - 1;
                try (Journal j = Journal.open(dir, o)) {
                    assertEquals(expect, j.nextSequence(), "cut at " + cut);
                    List<Record> records = readAll(j);
                    assertEquals(expect, records.size());
                    assertOriginal(records);
                    assertEquals(expect, j.append(Payloads.of(expect, Payloads.size(expect, MAX))));
                }
                try (Journal j = Journal.open(dir, o)) {
                    List<Record> records = readAll(j);
                    assertEquals(expect + 1, records.size());
                    assertOriginal(records);
                }
                assertTrue(Journal.verify(dir).ok());
            }
        }
    }

    /** By the reader and by the visitor, whether the backend reads through a buffer or in place from a mapping. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"SEGMENT", "MAPPED", "RANDOM_ACCESS_FILE"})
    void aFlippedByteInASealedSegmentIsReportedWithFileAndOffset(Backend backend) throws IOException {
        Path pristine = tmp.resolve("pristine");
        List<Path> segs = build(pristine, options(backend, Preallocation.FALLOCATE));
        assertTrue(segs.size() >= 3);
        // a payload byte of the second record of the first segment
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segs.getFirst())).order(ByteOrder.LITTLE_ENDIAN);
        long second = Format.HEADER_SIZE + Format.align(b.getInt(Format.HEADER_SIZE));
        Path dir = tmp.resolve("flip");
        copyDir(pristine, dir);
        Path seg = dir.resolve(segs.getFirst().getFileName());
        write(seg, second + 8, new byte[] {(byte) (b.get((int) second + 8) ^ 0x10)});
        try (Journal j = Journal.open(dir, options(backend, Preallocation.FALLOCATE))) {
            JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> readAll(j));
            assertEquals(seg, e.file());
            assertEquals(second, e.offset());
            assertTrue(e.getMessage().contains(seg.toString()) && e.getMessage().contains("offset " + second)
                    && e.getMessage().contains("iolab journal verify"), e.getMessage());
            List<Record> first = new ArrayList<>();
            j.read(0, (seq, payload) -> first.add(new Record(seq, new byte[0])) && false);
            assertEquals(1, first.size(), "the records before the damage are still readable");
            List<Long> seen = new ArrayList<>();
            JournalCorruptedException byVisitor = assertThrows(JournalCorruptedException.class,
                    () -> j.read(0, (seq, payload) -> seen.add(seq)));
            assertEquals(seg, byVisitor.file());
            assertEquals(second, byVisitor.offset());
            assertEquals(List.of(0L), seen, "the visitor saw the record before the damage and nothing after it");
        }
        VerifyReport report = Journal.verify(dir);
        assertFalse(report.ok());
        assertEquals(seg, report.problems().getFirst().file());
        assertEquals(second, report.problems().getFirst().offset());

        Path header = tmp.resolve("header");
        copyDir(pristine, header);
        write(header.resolve(segs.getFirst().getFileName()), 20, new byte[] {42});
        JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                () -> Journal.open(header, options(Backend.DEFAULT, Preallocation.FALLOCATE)).close());
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("header"), e.getMessage());
    }

    @Test
    void everySegmentButTheLastIsSealedAfterAClose() throws IOException {
        List<Path> segs = build(tmp.resolve("j"), options(Backend.DEFAULT, Preallocation.FALLOCATE));
        assertTrue(segs.size() >= 3);
        for (int i = 0; i < segs.size(); i++) {
            ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(segs.get(i)), 0, Format.HEADER_SIZE)
                    .order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(i < segs.size() - 1, Format.sealed(h, Format.parseName(segs.get(i))), segs.get(i).toString());
        }
    }

    /**
     * A crash while the segment before the last was being sealed: its marker is missing and its tail is torn. Open
     * cuts it there and deletes the last segment (nothing in either was acknowledged as durable); verify calls
     * the damage recoverable. With the marker present the same damage is corruption.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"SEGMENT", "CHANNEL_HEAP"})
    void anUnsealedSegmentBeforeTheLastIsCutAtItsTornTail(Backend backend) throws IOException {
        JournalOptions o = options(backend, Preallocation.FALLOCATE);
        Path pristine = tmp.resolve("pristine-" + backend);
        List<Path> segs = build(pristine, o);
        int n = segs.size();
        Path previous = segs.get(n - 2);
        long tornAt = lastRecordStart(previous);
        long firstOfPrevious = Format.parseName(previous);
        long recordsBefore;
        {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(previous)).order(ByteOrder.LITTLE_ENDIAN);
            long count = 0;
            for (long pos = Format.HEADER_SIZE; pos < tornAt; pos += Format.align(b.getInt((int) pos))) {
                count++;
            }
            recordsBefore = firstOfPrevious + count;
        }
        // sealed: the same tear is damage to durable records
        Path sealed = tmp.resolve("sealed-" + backend);
        copyDir(pristine, sealed);
        write(sealed.resolve(previous.getFileName()), tornAt + 20, new byte[] {1, 2, 3});
        assertFalse(Journal.verify(sealed).problems().stream().allMatch(VerifyReport.Problem::recoverable));
        try (Journal j = Journal.open(sealed, o)) {
            assertThrows(JournalCorruptedException.class, () -> readAll(j));
        }
        // a seal marker whose write began (torn by a power loss, or a flipped bit): the segment was synced whole
        // before it, so the same tear is damage too, never a torn tail to cut with the records after it
        for (byte[] marker : new byte[][] {{1, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, (byte) 0x80}}) {
            Path begun = tmp.resolve("seal-begun-" + backend + "-" + marker[0]);
            copyDir(pristine, begun);
            write(begun.resolve(previous.getFileName()), Format.SEAL_OFFSET, marker);
            write(begun.resolve(previous.getFileName()), tornAt + 20, new byte[] {1, 2, 3});
            assertFalse(Journal.verify(begun).problems().stream().allMatch(VerifyReport.Problem::recoverable));
            try (Journal j = Journal.open(begun, o)) {
                assertThrows(JournalCorruptedException.class, () -> readAll(j));
            }
            assertEquals(n, Journal.listSegments(begun).size(), "open deleted a segment after a begun seal");
        }
        // unsealed: recoverable, cut at the torn record, last segment gone
        Path dir = tmp.resolve("unsealed-" + backend);
        copyDir(pristine, dir);
        Path prev = dir.resolve(previous.getFileName());
        write(prev, Format.SEAL_OFFSET, new byte[8]);
        write(prev, tornAt + 20, new byte[] {1, 2, 3});
        VerifyReport report = Journal.verify(dir);
        assertFalse(report.problems().isEmpty());
        assertTrue(report.problems().stream().allMatch(VerifyReport.Problem::recoverable), report.toString());
        try (Journal j = Journal.open(dir, o)) {
            List<Record> records = readAll(j);
            assertEquals(recordsBefore, records.size());
            assertOriginal(records);
            assertEquals(n - 1, Journal.listSegments(dir).size());
            assertEquals(recordsBefore, j.append(new byte[] {9}));
        }
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(recordsBefore + 1, readAll(j).size());
        }
        assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).problems().toString());

        // unsealed but intact: nothing is lost, and open seals it
        Path intact = tmp.resolve("intact-" + backend);
        copyDir(pristine, intact);
        write(intact.resolve(previous.getFileName()), Format.SEAL_OFFSET, new byte[8]);
        try (Journal j = Journal.open(intact, o)) {
            assertEquals(N, readAll(j).size());
        }
        ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(intact.resolve(previous.getFileName())), 0,
                Format.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        assertTrue(Format.sealed(h, firstOfPrevious));
    }

    /** Large records are checked straight from the mapping (no copy): a flipped byte there is still caught. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"SEGMENT", "MAPPED", "CHANNEL_DIRECT"})
    void aFlippedByteInALargeRecordIsCaught(Backend backend) throws IOException {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withSegmentSize(64 * 1024)
                .withDurability(Durability.NONE);
        Path dir = tmp.resolve("large-" + backend);
        byte[][] payloads = new byte[12][];
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < payloads.length; i++) {
                payloads[i] = Payloads.of(i, 10_000 + i);
                j.append(payloads[i]);
            }
        }
        try (Journal j = Journal.open(dir, o)) {
            List<Record> all = readAll(j);
            assertEquals(payloads.length, all.size());
            for (int i = 0; i < payloads.length; i++) {
                assertEquals(new Record(i, payloads[i]), all.get(i));
            }
        }
        Path first = Journal.listSegments(dir).getFirst();
        long second = Format.HEADER_SIZE + Format.align(Format.FRAME_HEADER + payloads[0].length);
        byte[] bytes = Files.readAllBytes(first);
        write(first, second + 5000, new byte[] {(byte) (bytes[(int) second + 5000] ^ 0x40)});
        try (Journal j = Journal.open(dir, o)) {
            JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> readAll(j));
            assertEquals(first, e.file());
            assertEquals(second, e.offset());
        }
    }

    @Test
    void repairCutsTheFirstDamageAndTheJournalGoesOnAfterTheGap() throws IOException {
        JournalOptions o = options(Backend.DEFAULT, Preallocation.FALLOCATE);
        Path dir = tmp.resolve("j");
        List<Path> segs = build(dir, o);
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segs.get(1))).order(ByteOrder.LITTLE_ENDIAN);
        long firstOfSecond = Format.parseName(segs.get(1));
        long third = Format.HEADER_SIZE + Format.align(b.getInt(Format.HEADER_SIZE));
        third += Format.align(b.getInt((int) third));
        write(segs.get(1), third + 12, new byte[] {(byte) (b.get((int) third + 12) ^ 1)});
        try (Journal j = Journal.open(dir, o)) {
            assertThrows(JournalLockedException.class, () -> Journal.repair(j.directory()));
        }
        VerifyReport before = Journal.repair(dir);
        assertFalse(before.ok());
        assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).problems().toString());
        // the damage is in the third record's sequence field: its header is not intact, so where the record after
        // it begins is not known, and the rest of the segment goes with it; the later segments stay
        assertEquals(segs, Journal.listSegments(dir));
        long firstOfThird = Format.parseName(segs.get(2));
        try (Journal j = Journal.open(dir, o)) {
            List<Record> records = readAll(j);
            assertEquals(N - (firstOfThird - firstOfSecond - 2), records.size());
            assertOriginal(records.subList(0, (int) firstOfSecond + 2));
            assertEquals(firstOfThird, records.get((int) firstOfSecond + 2).sequence());
            for (Record r : records) {
                assertEquals(new Record(r.sequence(), Payloads.of(r.sequence(), Payloads.size(r.sequence(), MAX))), r);
            }
            assertEquals(N, j.append(new byte[] {7}));
        }
    }

    @Test
    void aGarbageLengthNeverAllocatesOrHangs() throws IOException {
        JournalOptions o = options(Backend.DEFAULT, Preallocation.FALLOCATE);
        Path pristine = tmp.resolve("pristine");
        List<Path> segs = build(pristine, o);
        byte[] huge = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 0x7fffffff).array();
        byte[] negative = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 0x80000000).array();
        for (byte[] length : new byte[][] {huge, negative}) {
            // in the last segment: a torn tail, truncated
            Path tail = tmp.resolve("tail" + length[3]);
            copyDir(pristine, tail);
            Path last = tail.resolve(segs.getLast().getFileName());
            SyncedMarks.set(last, lastRecordStart(last)); // a crash: the last record after the last synced mark
            write(last, lastRecordStart(last), length);
            try (Journal j = Journal.open(tail, o)) {
                assertEquals(N - 1, j.nextSequence());
                assertOriginal(readAll(j));
            }
            // in a sealed segment: corruption
            Path sealed = tmp.resolve("sealed" + length[3]);
            copyDir(pristine, sealed);
            write(sealed.resolve(segs.get(1).getFileName()), Format.HEADER_SIZE, length);
            try (Journal j = Journal.open(sealed, o)) {
                JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> readAll(j));
                assertEquals(Format.HEADER_SIZE, e.offset());
                assertTrue(e.getMessage().contains("length"), e.getMessage());
            }
            assertFalse(Journal.verify(sealed).ok());
        }
    }

    @Test
    void anInterruptedSegmentCreationIsDeleted() throws IOException {
        JournalOptions o = options(Backend.DEFAULT, Preallocation.FALLOCATE);
        Path dir = tmp.resolve("j");
        build(dir, o);
        Path ghost = dir.resolve(Format.fileName(N));
        Files.write(ghost, new byte[4096]);
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(N, j.nextSequence());
            assertOriginal(readAll(j));
        }
    }

    /**
     * Property: whatever is flipped, zeroed, truncated or overwritten with a garbage length, open, read and
     * verify return only original records or throw {@link JournalCorruptedException}; damage in a sealed
     * segment is never skipped.
     */
    @Test
    void randomDamageNeverYieldsAWrongRecord() throws IOException {
        JournalOptions o = options(Backend.DEFAULT, Preallocation.FALLOCATE);
        Path pristine = tmp.resolve("pristine");
        List<Path> segs = build(pristine, o);
        for (int seed = 0; seed < 300; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            Path dir = tmp.resolve("r" + seed);
            copyDir(pristine, dir);
            int which = rnd.nextInt(segs.size());
            Path seg = dir.resolve(segs.get(which).getFileName());
            long size = Files.size(seg);
            long at = rnd.nextLong(size);
            byte[] before = Files.readAllBytes(seg);
            switch (rnd.nextInt(4)) {
                case 0 -> write(seg, at, new byte[] {(byte) (before[(int) at] ^ (1 << rnd.nextInt(8)))});
                case 1 -> write(seg, at & -512, new byte[(int) Math.min(512, size - (at & -512))]);
                case 2 -> {
                    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
                        ch.truncate(at);
                    }
                }
                default -> write(seg, at & -8, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                        .putInt(0, rnd.nextInt()).array());
            }
            boolean changed = !java.util.Arrays.equals(before, Files.readAllBytes(seg));
            boolean sealed = which < segs.size() - 1;
            VerifyReport report = Journal.verify(dir);
            List<Record> records = new ArrayList<>();
            boolean corrupt = false;
            try (Journal j = Journal.open(dir, o); JournalReader r = j.reader(0)) {
                while (r.hasNext()) {
                    records.add(r.next());
                }
            } catch (JournalCorruptedException e) {
                corrupt = true;
            } catch (RuntimeException e) {
                fail("seed " + seed + ": unexpected " + e, e);
            }
            assertOriginal(records);
            if (sealed && changed && !corrupt) {
                assertEquals(N, records.size(), "seed " + seed + ": damage in a sealed segment was skipped");
            }
            if (corrupt) {
                assertFalse(report.ok(), "seed " + seed + ": verify missed what open/read found");
            }
        }
    }
}
