package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.catalogue.Preallocation;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's redo reader took for granted that its log starts at journal sequence 0: a trimmed log failed. */
class RedoTrimmedLogTest {
    @TempDir
    Path tmp;

    @Test
    void aRedoLogTrimmedBeforeItsCheckpointStillReplays() {
        JournalOptions o = JournalOptions.defaults().withSegmentSize(8192).withDurability(Durability.NONE)
                .withPreallocation(Preallocation.NONE);
        try (Journal j = Journal.open(tmp, o)) {
            for (long seq = 1; seq <= 200; seq++) { // store sequence seq at journal sequence seq - 1
                ByteBuffer r = ByteBuffer.allocate(Redo.HEADER).order(ByteOrder.LITTLE_ENDIAN);
                r.put(0, (byte) Redo.DELETE).putLong(8, seq);
                j.append(r);
            }
            // a checkpoint at store sequence 150 made the records up to it redundant: "how a redo log drops them"
            assertTrue(j.deleteBefore(150) > 0);
            List<ByteBuffer> out = new ArrayList<>();
            Redo.read(j, 150, tmp, out);
            assertEquals(50, out.size());
        }
    }
}
