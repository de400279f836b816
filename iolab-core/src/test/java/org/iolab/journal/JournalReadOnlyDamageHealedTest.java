package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records below the synced mark were missing when a read-only journal first looked (zeros there: a copy of the
 * journal still being written, say), then they are there, in the same file: the tip moves past where the damage was,
 * and every record reads (the damage first seen was still reported, at the new tip: a review found it).
 */
class JournalReadOnlyDamageHealedTest {
    @TempDir
    Path tmp;

    @Test
    void damageOnceSeenIsNotReportedAfterTheRecordsAreThere() throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP).withSegmentSize(1 << 20)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.FALLOCATE);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < 20; i++) {
                j.append(Payloads.of(i, 96));
            }
        }
        Path seg = Journal.listSegments(dir).getFirst();
        long at = Format.HEADER_SIZE + 15 * 112L;
        long end = Format.HEADER_SIZE + 20 * 112L;
        byte[] saved = new byte[(int) (end - at)];
        try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.read(ByteBuffer.wrap(saved), at);
            ch.write(ByteBuffer.wrap(new byte[saved.length]), at); // not there yet
        }
        try (Journal ro = Journal.openReadOnly(dir, o)) {
            assertEquals(15, ro.nextSequence());
            // the bytes arrive (in place, same file)
            try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(saved), at);
            }
            assertTrue(Journal.verify(dir).ok(), "the journal is whole now");
            assertEquals(20, ro.nextSequence(), "the tip moved past the old damage");
            List<Long> seqs = new ArrayList<>();
            ro.read(0, (s, p) -> seqs.add(s)); // threw the old damage at offset 1744
            assertEquals(20, seqs.size());
        }
    }
}
