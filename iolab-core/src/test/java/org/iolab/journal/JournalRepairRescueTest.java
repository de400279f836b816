package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repair's rescue of the intact records after damage ({@link RunFinder}), as a review of 9d9e6ef probed it: frame
 * images inside a damaged payload are not records, the search costs a bounded amount of reading per candidate, a run
 * may end at a gap an earlier repair marked, and rescued segments behave as any other.
 */
class JournalRepairRescueTest {
    private static final int MAX = 300;

    @TempDir
    Path tmp;

    /** @return the segments of a journal of 300 records of 0 to {@link #MAX} bytes in 8 KiB segments */
    private List<Path> fill() {
        try (Journal j = Journal.open(tmp, options(8192))) {
            Payloads.append(j, 0, 300, MAX);
        }
        return Journal.listSegments(tmp);
    }

    private static JournalOptions options(int segmentSize) {
        return JournalOptions.defaults().withBackend(Backend.DEFAULT).withSegmentSize(segmentSize)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
    }

    static byte[] fake(long seq) {
        return ("FAKE" + seq).getBytes();
    }

    static int realSize(long seq) {
        return seq == 1 ? 16384 : seq == 0 ? 8 : 200;
    }

    /**
     * The damaged record's payload holds frames (e.g. an application that journals the bytes of a replica's segment):
     * frames of sequences 2 .. next-1, then zeros. The chain of those frames ends at a zero length inside the payload
     * (an END for the cursor, not the end of the segment's data) with next-1 its last: runEnd accepts it, and the
     * repair writes the FAKE records into the rescued segment instead of the real records 2 .. next-1.
     */
    @Test
    void framesInsideTheDamagedPayloadAreNotRescuedAsRecords() throws IOException {
        Path dry = tmp.resolve("dry");
        try (Journal j = Journal.open(dry, options(65536))) {
            for (long s = 0; s < 600; s++) {
                j.append(Payloads.of(s, realSize(s)));
            }
        }
        long next = Format.parseName(Journal.listSegments(dry).get(1));
        assertTrue((next - 2) * 24 < realSize(1) - 8, "the fake frames fit: " + next);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, options(65536))) {
            for (long s = 0; s < 600; s++) {
                if (s == 1) {
                    ByteBuffer p = ByteBuffer.allocate(realSize(1)); // zeros after the frames
                    for (long f = 2; f < next; f++) {
                        p.put(Frames.frame(f, fake(f)));
                    }
                    j.append(p.array());
                } else {
                    j.append(Payloads.of(s, realSize(s)));
                }
            }
        }
        List<Path> files = Journal.listSegments(dir);
        assertEquals(next, Format.parseName(files.get(1)));
        // record 1's CRC: its frame starts after record 0's (24 bytes)
        Frames.writeAt(files.get(0), Format.HEADER_SIZE + 24 + 4, new byte[] {0x7f, 0x7f});
        List<String> done = new ArrayList<>();
        Journal.repair(dir, done::add);
        assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).toString());
        try (Journal j = Journal.open(dir, options(65536)); JournalReader r = j.reader(2)) {
            Record rec = r.next();
            assertEquals(2, rec.sequence());
            assertArrayEquals(Payloads.of(2, realSize(2)), rec.payload(),
                    "record 2 after the repair holds '" + new String(rec.payload()) + "'; " + done);
        }
    }

    /**
     * Repeated damage: a first repair cuts the last record of segment 2 (a gap of one, marked on segment 3); then a
     * byte of segment 2's first record flips. Its records 1 .. last-1 are intact and run up to the marked gap; a run
     * had to end at next-1 (the gap's record, already gone), so all of them were cut. Same with a middle segment deleted by hand (the successor's marker names the gap).
     */
    @Test
    void aSecondDamageBeforeAMarkedGapCostsOnlyItsRecord() throws IOException {
        List<Path> files = fill();
        Path seg = files.get(2);
        long s2 = Format.parseName(seg);
        long s3 = Format.parseName(files.get(3));
        long last = Frames.lastStart(seg);
        Frames.writeAt(seg, last + 4, new byte[] {0x7f});
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        Frames.writeAt(seg, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        List<Long> read = new ArrayList<>();
        try (Journal j = Journal.open(tmp, options(8192))) {
            j.read(0, (s, p) -> read.add(s));
        }
        List<Long> expected = new ArrayList<>();
        for (long s = 0; s < 300; s++) {
            if (s != s2 && s != s3 - 1) {
                expected.add(s);
            }
        }
        assertEquals(expected, read, done.toString());
    }

    /** The same with a middle segment deleted by hand and repaired first (the successor's marker names the gap). */
    @Test
    void aDamageBeforeAMissingSegmentsGapCostsOnlyItsRecord() throws IOException {
        List<Path> files = fill();
        long s2 = Format.parseName(files.get(2));
        long s3 = Format.parseName(files.get(3));
        long s4 = Format.parseName(files.get(4));
        Files.delete(files.get(3));
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        Frames.writeAt(files.get(2), Format.HEADER_SIZE + 4, new byte[] {0x7f});
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        List<Long> read = new ArrayList<>();
        try (Journal j = Journal.open(tmp, options(8192))) {
            j.read(0, (s, p) -> read.add(s));
        }
        List<Long> expected = new ArrayList<>();
        for (long s = 0; s < 300; s++) {
            if (s != s2 && (s < s3 || s >= s4)) {
                expected.add(s);
            }
        }
        assertEquals(expected, read, done.toString());
    }

    /**
     * The damaged record's payload holds many 16-byte words that look like frame headers (an application index of
     * (length, crc, sequence) entries with sequences of this journal), each claiming 16 bytes or 4 MiB. A search over
     * candidates read each one's claimed length and took 16.8 s in a review's run; there is no search now, and the
     * bytes read (counted, not timed) stay within a few times the segment's size.
     */
    @Test
    void manyCandidatesCostTheirHeadersNotTheirClaimedLengths() throws IOException {
        for (int claimed : new int[] {16, 4 << 20}) {
            Path dir = tmp.resolve("claimed-" + claimed);
            LongFunction<byte[]> payload = s -> {
                if (s != 0) {
                    return Payloads.of(s, 4096);
                }
                ByteBuffer b = ByteBuffer.allocate(256 << 10).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < b.capacity(); i += 16) {
                    b.putInt(i, claimed).putInt(i + 4, 0).putLong(i + 8, 1);
                }
                return b.array();
            };
            try (Journal j = Journal.open(dir, options(8 << 20))) {
                for (long s = 0; s < 2200; s++) {
                    j.append(payload.apply(s));
                }
            }
            List<Path> files = Journal.listSegments(dir);
            Path segment = files.get(0);
            long next = Format.parseName(files.get(1));
            Frames.writeAt(segment, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // record 0's CRC
            long[] read = {0};
            try (org.iolab.storage.StorageFile f = Backend.CHANNEL_HEAP.open(segment, false)) {
                org.iolab.storage.StorageFile counting = (org.iolab.storage.StorageFile) java.lang.reflect.Proxy
                        .newProxyInstance(getClass().getClassLoader(),
                                new Class<?>[] {org.iolab.storage.StorageFile.class}, (proxy, method, args) -> {
                                    if (method.getName().equals("read") && args.length == 2
                                            && args[1] instanceof ByteBuffer b) {
                                        read[0] += b.remaining();
                                    }
                                    try {
                                        return method.invoke(f, args);
                                    } catch (java.lang.reflect.InvocationTargetException e) {
                                        throw e.getCause();
                                    }
                                });
                long[] run = RunFinder.find(counting, Format.HEADER_SIZE, 0, next, 0);
                assertTrue(run != null && run[1] == 1 && run[3] == next, java.util.Arrays.toString(run));
                assertTrue(read[0] < 6 * f.size(), claimed + "-byte candidates: read " + read[0] + " bytes of a "
                        + f.size() + "-byte segment");
            }
            List<String> done = new ArrayList<>();
            Journal.repair(dir, done::add);
            try (Journal j = Journal.open(dir, options(8 << 20))) {
                assertEquals(2199, countFrom(j, 1), done.toString());
            }
        }
    }

    /**
     * The rescued segment (sealed, its capacity exactly its data) becomes the last: the successor, the last segment,
     * is lost after the repair. A writer opens, appends, closes; a read-only open, a second open and verify agree.
     */
    @Test
    void theRescuedSegmentAsTheLastTakesAppends() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(files.size() - 2);
        long sd = Format.parseName(damaged);
        long sl = Format.parseName(files.getLast());
        Frames.writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        Path rescued = tmp.resolve(Format.fileName(sd + 1));
        assertTrue(Files.exists(rescued), done.toString());
        Files.delete(files.getLast()); // the last segment lost (its records with it)
        VerifyReport v = Journal.verify(tmp);
        assertTrue(v.ok(), v.toString());
        try (Journal j = Journal.open(tmp, options(8192))) {
            assertEquals(sl, j.nextSequence());
            for (long s = sl; s < sl + 100; s++) {
                assertEquals(s, j.append(Payloads.of(s, Payloads.size(s, MAX))));
            }
        }
        v = Journal.verify(tmp);
        assertTrue(v.ok() && v.problems().isEmpty(), v.toString());
        List<Long> expected = new ArrayList<>();
        for (long s = 0; s < sl + 100; s++) {
            if (s != sd) {
                expected.add(s);
            }
        }
        for (boolean readOnly : new boolean[] {false, true}) {
            try (Journal j = readOnly ? Journal.openReadOnly(tmp, options(8192)) : Journal.open(tmp, options(8192))) {
                List<Long> read = new ArrayList<>();
                j.read(0, (s, p) -> {
                    byte[] b = new byte[p.remaining()];
                    p.get(b);
                    assertArrayEquals(Payloads.of(s, Payloads.size(s, MAX)), b);
                    return read.add(s);
                });
                assertEquals(expected, read);
            }
        }
    }

    /**
     * A second repair after a writer appended behind the rescued segment, the damage now in the rescued segment
     * itself (its first record): records before and after stay.
     */
    @Test
    void damageInTheRescuedSegmentIsRepairedAgain() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        long sd = Format.parseName(damaged);
        Frames.writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Journal.repair(tmp);
        Path rescued = tmp.resolve(Format.fileName(sd + 1));
        try (Journal j = Journal.open(tmp, options(8192).withDurability(Durability.ALWAYS))) {
            Payloads.append(j, 300, 350, MAX);
        }
        Frames.writeAt(rescued, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // record sd+1
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport v = Journal.verify(tmp);
        assertTrue(v.ok() && v.problems().isEmpty(), v + " " + done);
        List<Long> expected = new ArrayList<>();
        for (long s = 0; s < 350; s++) {
            if (s != sd && s != sd + 1) {
                expected.add(s);
            }
        }
        try (Journal j = Journal.open(tmp, options(8192))) {
            List<Long> read = new ArrayList<>();
            j.read(0, (s, p) -> read.add(s));
            assertEquals(expected, read, done.toString());
            assertEquals(sd + 2, j.reader(sd).next().sequence(), "from inside the gaps");
        }
    }

    private static long countFrom(Journal j, long from) {
        long[] n = {0};
        j.read(from, (s, p) -> {
            n[0]++;
            return true;
        });
        return n[0];
    }

    /**
     * A failed sync's note names a record after damage that the repair's rescue keeps (a third review): the rescued
     * segment's synced mark claimed it synced, and the next open refused the note as another journal's, telling the
     * user to delete it, which would have kept records no sync covered. Under a note the rescued segment has no mark.
     */
    @Test
    void aNoteOnARescuedRecordIsAppliedByTheOpenAfterTheRepair() throws IOException {
        try (Journal j = Journal.open(tmp, options(8192))) {
            Payloads.append(j, 0, 300, 300);
        }
        List<Path> files = Journal.listSegments(tmp);
        // the segment before the last, as a sealer whose sync failed leaves it: no seal, no mark
        Path s = files.get(files.size() - 2);
        long first = Format.parseName(s);
        Frames.writeAt(s, Format.SEAL_OFFSET, new byte[24]);
        List<Long> starts = Frames.starts(s);
        long noted = first + 5; // the note: records from here on were never covered by a completed sync
        FailedSync.record(tmp, noted);
        // damage before the noted record, where the note says a completed sync covered the records
        Frames.writeAt(s, starts.get(1) + 4, new byte[] {0x7f});
        assertThrows(JournalCorruptedException.class, () -> Journal.open(tmp, options(8192)));
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        // documented: "An open that cannot apply the note (damage before that record) refuses the journal and keeps
        // the note for the open after a repair"
        try (Journal j = Journal.open(tmp, options(8192))) {
            assertEquals(noted, j.nextSequence(), "the journal cut before the noted record: " + done);
            List<Long> read = new ArrayList<>();
            j.read(first - 1, (seq, p) -> read.add(seq));
            // the damaged record goes; the ones after it that a completed sync covered stay
            assertEquals(List.of(first - 1, first, first + 2, first + 3, first + 4), read, done.toString());
        }
        assertFalse(Files.exists(FailedSync.of(tmp)));
    }

    private static byte[] payload(long seq, long imageSeq) {
        byte[] plain = Payloads.of(seq, 100);
        if (imageSeq < 0) {
            return plain;
        }
        // the record's payload ends with the image of a frame (e.g. a replica's bytes): the frame of imageSeq
        byte[] image = Frames.frame(imageSeq, "IMAGE".getBytes());
        byte[] p = new byte[104 + image.length];
        System.arraycopy(plain, 0, p, 0, 100);
        System.arraycopy(image, 0, p, 104, image.length);
        return p;
    }

    /**
     * A frame image at the end of a segment's last record, of the sequence an earlier repair cut (the next segment's
     * marker names that gap): it ends the data and leads into the marked gap, and a third review had it rescued as
     * the cut record. A run now ends exactly where the marked gap begins.
     */
    @Test
    void aFrameImageAtTheEndOfTheLastRecordIsNotRescuedIntoAnEarlierGap() throws IOException {
        // a dry run finds where the second segment begins
        Path dry = tmp.resolve("dry");
        try (Journal j = Journal.open(dry, options(8192))) {
            for (long s = 0; s < 200; s++) {
                j.append(payload(s, s == 0 ? 0 : -1));
            }
        }
        long next = Format.parseName(Journal.listSegments(dry).get(1));
        long lastOfFirst = next - 1; // L
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, options(8192))) {
            for (long s = 0; s < 200; s++) {
                // record L-1 carries the image of a frame of sequence L (same sizes as the dry run's)
                j.append(payload(s, s == lastOfFirst - 1 ? lastOfFirst : s == 0 ? 0 : -1));
            }
        }
        Path seg = Journal.listSegments(dir).get(0);
        assertEquals(next, Format.parseName(Journal.listSegments(dir).get(1)));
        List<Long> starts = Frames.starts(seg);
        // first damage: record L (the segment's last); the repair cuts it, the successor's marker names the gap
        Frames.writeAt(seg, starts.get(starts.size() - 1) + 4, new byte[] {0x7f});
        Journal.repair(tmp.resolve("j"));
        assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).toString());
        // second damage: record L-1, now the segment's last (its CRC)
        Frames.writeAt(seg, starts.get(starts.size() - 2) + 4, new byte[] {0x7f});
        List<String> done = new ArrayList<>();
        Journal.repair(dir, done::add);
        assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).toString());
        List<Long> read = new ArrayList<>();
        List<String> bodies = new ArrayList<>();
        try (Journal j = Journal.open(dir, options(8192))) {
            j.read(lastOfFirst - 2, (s, p) -> {
                read.add(s);
                byte[] b = new byte[p.remaining()];
                p.get(b);
                bodies.add(new String(b, java.nio.charset.StandardCharsets.ISO_8859_1));
                return s < next;
            });
        }
        assertEquals(List.of(lastOfFirst - 2, next), read, "records L-1 and L are gone; " + done + " " + bodies);
    }

    // A fourth review's randomized stress (about 10,000 rounds) found frame images of the damaged records' own
    // sequences rescued as those records: after a zeroed header, two damages, or a file cut inside a record. The
    // rescue now starts only where an intact damaged header's length says the next record begins.

    @Test
    void anImageOfTheDamagedRecordIsNotRescuedAsIt() throws Exception {
        Path dir = tmp.resolve("j");
        JournalOptions options = options(4096).withBackend(Backend.CHANNEL_HEAP);
        Map<Long, byte[]> appended = new HashMap<>();
        try (Journal j = Journal.open(dir, options)) {
            appended.put(j.append(new byte[8]), new byte[8]);              // 0: offset 64..88
            appended.put(j.append(new byte[8]), new byte[8]);              // 1: offset 88..112
            byte[] image = Frames.frame(2, "FAKE-2!!".getBytes());                // 24 bytes: a frame of sequence 2
            appended.put(j.append(image), image);                          // 2: offset 112..152, image at 128
            appended.put(j.append(new byte[8]), new byte[8]);              // 3: offset 152..176
            appended.put(j.append(new byte[4000]), new byte[4000]);        // 4: rolls to segment 4
        }
        // one damage: 40 zeros over record 1 and record 2's header (the image at 128 stays)
        try (FileChannel ch = FileChannel.open(dir.resolve(Format.fileName(0)), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(40), 88);
        }
        assertEquals(5, repairedHoldsOnlyWhatWasAppended(dir, options, appended));
    }

    @Test
    void twoDamagesInASegmentMakeAnImageOfTheSecondDamagedRecordARecord() throws Exception {
        Path dir = tmp.resolve("j2");
        JournalOptions options = options(4096).withBackend(Backend.CHANNEL_HEAP);
        Map<Long, byte[]> appended = new HashMap<>();
        try (Journal j = Journal.open(dir, options)) {
            appended.put(j.append(new byte[8]), new byte[8]);              // 0: offset 64..88
            appended.put(j.append(new byte[8]), new byte[8]);              // 1: offset 88..112
            appended.put(j.append(new byte[8]), new byte[8]);              // 2: offset 112..136 (intact, lost)
            byte[] image = Frames.frame(3, "FAKE-3!!".getBytes());                // a frame of sequence 3
            appended.put(j.append(image), image);                          // 3: offset 136..176, image at 152
            appended.put(j.append(new byte[8]), new byte[8]);              // 4: offset 176..200
            appended.put(j.append(new byte[4000]), new byte[4000]);        // 5: rolls to segment 5
        }
        try (FileChannel ch = FileChannel.open(dir.resolve(Format.fileName(0)), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xFF}), 88 + 16);   // record 1's payload: its CRC fails
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xFF}), 136 + 4);   // record 3's CRC field
        }
        repairedHoldsOnlyWhatWasAppended(dir, options, appended);
    }

    @Test
    void aTruncationInsideARecordMakesTheImagesInItsPayloadRecords() throws Exception {
        Path dir = tmp.resolve("j3");
        JournalOptions options = options(4096).withBackend(Backend.CHANNEL_HEAP);
        Map<Long, byte[]> appended = new HashMap<>();
        try (Journal j = Journal.open(dir, options)) {
            appended.put(j.append(new byte[8]), new byte[8]);              // 0: offset 64..88
            byte[] payload = new byte[32];                                 // 1: offset 88..136
            System.arraycopy(Frames.frame(2, "FAKE-2!!".getBytes()), 0, payload, 0, 24); // image of 2 at 104..128
            appended.put(j.append(payload), payload);
            appended.put(j.append(new byte[8]), new byte[8]);              // 2: offset 136..160
            appended.put(j.append(new byte[4000]), new byte[4000]);        // 3: rolls to segment 3
        }
        // one damage: segment 0 cut short at 128, inside record 1 (right after the image)
        try (FileChannel ch = FileChannel.open(dir.resolve(Format.fileName(0)), StandardOpenOption.WRITE)) {
            ch.truncate(128);
        }
        repairedHoldsOnlyWhatWasAppended(dir, options, appended);
    }

    /**
     * Repairs {@code dir} and checks that it verifies clean and that every record it then holds is the one appended
     * with its sequence (no frame image taken for a record).
     *
     * @return the next append's sequence
     */
    private static long repairedHoldsOnlyWhatWasAppended(Path dir, JournalOptions options, Map<Long, byte[]> appended) {
        Journal.repair(dir);
        assertTrue(Journal.verify(dir).ok());
        try (Journal j = Journal.open(dir, options); JournalReader r = j.reader(0)) {
            while (r.hasNext()) {
                Record rec = r.next();
                assertArrayEquals(appended.get(rec.sequence()), rec.payload(),
                        "record " + rec.sequence() + " is not the one appended with its sequence");
            }
            return j.nextSequence();
        }
    }

    static byte[] small(long s) {
        return Arrays.copyOf(("rec-" + s).getBytes(), 24);
    }

    /**
     * (A fifth review; the CRC does not cover the length.) Record 1's payload (512 bytes) starts with a frame image of sequence 2 whose length runs over the rest of the
     * payload and the real frame 2 (its CRC matches those bytes). One flipped bit in record 1's length field
     * (0x210 -> 0x010) leaves a header that looks intact (length 16 fits, sequence 1 as expected) whose length points
     * into its own payload: the repair rescues the image as record 2.
     */
    @Test
    void aFlippedLengthBitPointingIntoTheOwnPayloadRescuesAnImage() throws IOException {
        byte[] p2 = Arrays.copyOf("the real record 2".getBytes(), 40);
        byte[] f2 = Frames.frame(2, p2); // 56 bytes, at 64 + 40 + 528 = 632
        byte[] filler = new byte[496];
        Arrays.fill(filler, (byte) 'I');
        ByteBuffer covered = ByteBuffer.allocate(filler.length + f2.length).put(filler).put(f2).flip();
        ByteBuffer p1 = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
        int imageLength = 16 + filler.length + f2.length; // from 120 to the end of frame 2 at 688
        p1.putInt(0, imageLength).putInt(4, Format.crc(2, covered)).putLong(8, 2).put(16, filler);
        long next;
        try (Journal j = Journal.open(tmp, options(4096).withBackend(Backend.CHANNEL_HEAP))) {
            j.append(small(0));
            j.append(p1.array());
            j.append(p2);
            for (long s = 3; Journal.listSegments(tmp).size() < 2 || s < 120; s++) {
                assertEquals(s, j.append(small(s)));
            }
        }
        List<Path> files = Journal.listSegments(tmp);
        next = Format.parseName(files.get(1));
        Path seg = files.get(0);
        byte[] b = Files.readAllBytes(seg);
        assertEquals(528, ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(104));
        Frames.writeAt(seg, 105, new byte[] {(byte) (b[105] ^ 0x02)}); // length 0x210 -> 0x010
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp,
                options(4096).withBackend(Backend.CHANNEL_HEAP)); JournalReader r = j.reader(0)) {
            while (r.hasNext()) {
                Record rec = r.next();
                if (rec.sequence() == 2) {
                    assertArrayEquals(p2, rec.payload(), "record 2 holds " + rec.payload().length + " bytes '"
                            + new String(rec.payload(), 0, 20) + "...' (next " + next + "); " + done);
                }
            }
        }
    }

    /**
     * A folder named as the rescued segment would be (listSegments passes over it): every repair failed on it and left
     * one more full copy of the damaged segment (a fifth review). The rescue is given up instead.
     */
    @Test
    void aFolderWithTheRescuedSegmentsNameFailsTheRepair() throws IOException {
        try (Journal j = Journal.open(tmp, options(4096).withBackend(Backend.CHANNEL_HEAP))) {
            for (long s = 0; Journal.listSegments(tmp).size() < 2 || s < 120; s++) {
                j.append(small(s));
            }
        }
        Path seg = Journal.listSegments(tmp).get(0);
        // record 1 (at 64 + 40) payload byte flipped: its header is intact, records 2.. are rescued into 2's segment
        Frames.writeAt(seg, 64 + 40 + 20, new byte[] {0x55});
        Files.createDirectory(tmp.resolve(Format.fileName(2)));
        assertTrue(Journal.verify(tmp).problems().size() >= 1);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(Files.isDirectory(tmp.resolve(Format.fileName(2))), "the folder is left as it was");
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
    }

    /**
     * Two faults: a middle segment is lost (deleted), and one bit of a length field flips in the last record of the
     * segment before it. That record's payload holds frame images (an application that journals frames), here of the
     * very sequences the lost segment held. The damaged header looks intact (length 16, sequence as expected), its
     * length points at the images inside its own payload, and they chain to the data's end and up to the successor's
     * first sequence: the repair writes them as records 95 and 96, which were never appended with those payloads.
     */
    @Test
    void aLostSegmentIsRefilledWithImagesFromTheDamagedRecordBeforeIt() throws IOException {
        byte[] image = ByteBuffer.allocate(256).put(Frames.frame(95, new byte[112])).put(Frames.frame(96, new byte[112])).array();
        try (Journal j = Journal.open(tmp, options(4096).withBackend(Backend.CHANNEL_HEAP))) {
            for (long s = 0; s < 94; s++) {
                j.append(small(s)); // 40-byte frames
            }
            assertEquals(94, j.append(image)); // 272 bytes: the segment is full (64 + 94 * 40 + 272 = 4096)
            byte[] big = new byte[2000];
            Arrays.fill(big, (byte) 'R');
            j.append(big); // 95 and 96 fill segment 95
            j.append(big);
            for (long s = 97; s < 105; s++) {
                j.append(small(s));
            }
        }
        List<Path> files = Journal.listSegments(tmp);
        assertEquals(List.of(0L, 95L, 97L), files.stream().map(Format::parseName).toList());
        Files.delete(files.get(1)); // the middle segment is lost
        Path seg = files.get(0);
        byte[] b = Files.readAllBytes(seg);
        assertEquals(272, ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(3824));
        Frames.writeAt(seg, 3825, new byte[] {(byte) (b[3825] ^ 0x01)}); // length 0x110 -> 0x010
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        List<Long> read = new ArrayList<>();
        try (Journal j = Journal.open(tmp, options(4096).withBackend(Backend.CHANNEL_HEAP))) {
            j.read(0, (s, p) -> read.add(s));
        }
        assertTrue(!read.contains(95L) && !read.contains(96L), "records 95, 96 read back from the images: " + done);
    }
}
