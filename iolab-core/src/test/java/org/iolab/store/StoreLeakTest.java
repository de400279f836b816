package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.iolab.journal.JournalLeakTest;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A refused open of a store releases what it opened. */
class StoreLeakTest {
    @TempDir
    Path tmp;

    /**
     * A crashed store whose redo log is damaged: each refused read-only open left the log's segment open (and, on the
     * {@code segment} backend, a 64 MiB shared-arena mapping no collection releases).
     */
    @Test
    void aReadOnlyOpenOfACrashedStoreWithADamagedRedoLogLeavesNothingOpen() throws Exception {
        for (Backend b : List.of(Backend.CHANNEL_HEAP, Backend.SEGMENT)) {
            Path dir = Files.createDirectories(tmp.resolve("crashed-" + b.label()));
            Path f = dir.resolve("s");
            StoreOptions o = StoreOptions.defaults().withBackend(b).withDurability(Durability.BATCH)
                    .withJournalTweak(j -> j.withSegmentSize(256 << 10));
            Store s = Store.open(f, o);
            for (int i = 0; i < 100; i++) {
                s.put(("key-" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
            }
            s.abandon(); // the process dies; its redo log's close wrote the synced mark at its end
            Path seg;
            try (Stream<Path> in = Files.list(Store.walOf(f))) {
                seg = in.filter(p -> p.toString().endsWith(".seg")).findFirst().orElseThrow();
            }
            try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {0x55, 0x55}), 64 + 16 + 4); // the first record's payload
            }
            for (int i = 0; i < 10; i++) {
                assertThrows(StoreCorruptedException.class, () -> Store.openReadOnly(f, o));
            }
            assertEquals(List.of(), JournalLeakTest.fds(dir), b.toString());
        }
    }
}
