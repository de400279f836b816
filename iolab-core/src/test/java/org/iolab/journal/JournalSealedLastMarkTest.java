package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sealed last segment (the journal was cut at a segment boundary, by repair or a lost successor) whose
 * records end below its synced mark lost synced records: open refuses it, so verify must report it (it said ok) and
 * repair must cut there (it did nothing), or the journal could be neither opened nor repaired with its own tools.
 */
class JournalSealedLastMarkTest {
    private static final int PAYLOAD = 300;
    private static final long FRAME = Format.align(Format.FRAME_HEADER + PAYLOAD);

    @TempDir
    Path tmp;

    @Test
    void verifyReportsItAndRepairCutsItWhereOpenRefuses() throws IOException {
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP).withSegmentSize(4096)
                .withDurability(Durability.ALWAYS).withPreallocation(Preallocation.NONE);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < 30; i++) { // 12 records a segment: three segments
                j.append(Payloads.of(i, PAYLOAD));
            }
        }
        List<Path> segs = Journal.listSegments(dir);
        assertEquals(3, segs.size());
        Path sealed = segs.get(1);
        Path last = segs.get(2);
        long mark = SyncedMarks.get(sealed);
        assertTrue(mark > Format.HEADER_SIZE + FRAME, "segment 1 carries a mark from its syncs: " + mark);

        // damage 1: the last segment's header and its first record's CRC (repair cannot write the header again over
        // no intact record: it moves that segment aside, segment 1 is then the sealed last one)
        try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0x55}), 2);
            ch.write(ByteBuffer.wrap(new byte[] {0x55}), Format.HEADER_SIZE + 4);
        }
        assertTrue(!Journal.verify(dir).ok());
        Journal.repair(dir);
        // the repair made an empty segment after segment 1, so that the next appends take none of the moved
        // segment's sequences; that one is lost too (deleted by hand), and segment 1 is the sealed last one
        List<Path> now = Journal.listSegments(dir);
        assertEquals(3, now.size(), now.toString());
        Files.delete(now.getLast());
        // damage 2: segment 1 loses its end (a file truncated by the file system) below its mark
        long cut = mark - FRAME;
        try (FileChannel ch = FileChannel.open(sealed, StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }

        VerifyReport report = Journal.verify(dir);
        String before = tryOpen(dir, o);
        Journal.repair(dir);
        String after = tryOpen(dir, o);
        assertTrue(before.startsWith("refused"), before);
        assertTrue(!report.ok() && !report.problems().getFirst().recoverable(), "verify says ok, but open: " + before);
        assertEquals(sealed, report.problems().getFirst().file());
        assertTrue(after.startsWith("opened, next "), "repair left a journal that open refuses: " + after);
        long next = Long.parseLong(after.substring("opened, next ".length()));
        assertTrue(next >= 24, "the next append takes " + next + ", a sequence segment 1 had (12 to 23)");
    }

    private static String tryOpen(Path dir, JournalOptions o) {
        try (Journal j = Journal.open(dir, o)) {
            return "opened, next " + j.nextSequence();
        } catch (JournalCorruptedException e) {
            return "refused: " + e.what();
        }
    }
}
