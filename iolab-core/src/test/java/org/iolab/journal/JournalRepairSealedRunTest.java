package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sealed last segment (every record in it was synced) with a flipped payload bit in one record, and its last
 * records lost to zeros (a lost page) further on: the intact records between end the data, and findLast takes that run
 * as the exact count. The records past it were synced (sealed) and may have been acknowledged and read: the journal
 * must go on past them.
 */
class JournalRepairSealedRunTest {
    private static final int MAX = 300;
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options() {
        return JournalOptions.defaults().withBackend(Backend.DEFAULT).withSegmentSize(8192)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
    }

    @Test
    void aSealedLastSegmentsRecordsPastAnIntactRunStayTaken() throws IOException {
        try (Journal j = Journal.open(tmp, options())) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        Path last = Journal.listSegments(tmp).getLast();
        List<Long> starts = Frames.starts(last);
        long dataEnd = Frames.dataEnd(last);
        assertTrue(starts.size() >= 8, starts.toString());
        long first = Format.parseName(last);
        // sealed, as a roll whose next segment could not be made leaves it: no synced mark
        Frames.writeAt(last, Format.SEAL_OFFSET, Format.sealMarker(first).array());
        SyncedMarks.set(last, Format.HEADER_SIZE);
        int k = -1;
        for (int i = 1; i < starts.size() - 5; i++) {
            if (Payloads.size(first + i, MAX) >= 8) {
                k = i;
                break;
            }
        }
        assertTrue(k > 0);
        // a flipped payload bit in record k
        long at = starts.get(k) + Format.FRAME_HEADER + 3;
        byte[] bytes = Files.readAllBytes(last);
        Frames.writeAt(last, at, new byte[] {(byte) (bytes[(int) at] ^ 0x10)});
        // the last records lost to zeros, two intact records after the damaged one
        long zeroFrom = starts.get(k + 3);
        Frames.writeAt(last, zeroFrom, new byte[(int) (dataEnd - zeroFrom)]);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok(), after + " after " + done);
        long next;
        try (Journal j = Journal.open(tmp, options())) {
            next = j.nextSequence();
        }
        assertTrue(next >= RECORDS, "the next append takes " + next + ", but the sealed segment held records up to "
                + (RECORDS - 1) + " (all synced): " + done);
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
        Frames.writeAt(last, Format.SEAL_OFFSET, Format.sealMarker(first).array());
        SyncedMarks.set(last, Format.HEADER_SIZE);
        Frames.writeAt(last, 0, "XXXXXXXX".getBytes());
        Frames.writeAt(last, Format.HEADER_SIZE, new byte[Format.FRAME_HEADER]);
        long zeroFrom = starts.get(50);
        Frames.writeAt(last, zeroFrom, new byte[(int) (dataEnd - zeroFrom)]);
        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        VerifyReport after = Journal.verify(tmp);
        assertTrue(after.ok(), after + " after " + done);
        long next;
        try (Journal j = Journal.open(tmp, options())) {
            next = j.nextSequence();
        }
        assertTrue(next >= total, "the next append takes " + next + ", but the sealed segment held records up to "
                + (total - 1) + " (all synced): " + done);
    }
}
