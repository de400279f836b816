package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An open that rebuilds a clean store's index because {@code FILE.idx} is damaged writes a new one. */
@Timeout(120)
class StoreIndexRewriteTest {
    @TempDir
    Path tmp;

    /**
     * Verify calls a damaged FILE.idx "recovered on open"; the open of a clean store rebuilds the index by a scan but
     * never writes a new FILE.idx (dirtyOnDisk stays false, so close does not checkpoint): every later open scans
     * the whole file again and verify keeps reporting the same problem.
     */
    @Test
    void aDamagedIndexCheckpointIsNeverRewrittenByTheOpenThatRecoversFromIt() throws Exception {
        Path f = tmp.resolve("i.store");
        try (Store s = Store.open(f, StoreOptions.defaults())) {
            for (int i = 0; i < 100; i++) {
                s.put(("k" + i).getBytes(StandardCharsets.UTF_8), new byte[50]);
            }
        }
        try (FileChannel ch = FileChannel.open(IndexFile.of(f), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 200); // bit rot in FILE.idx
        }
        StoreReport before = Store.verify(f);
        assertTrue(before.ok() && before.problems().size() == 1, before.toString()); // "recovered on open"
        try (Store s = Store.open(f, StoreOptions.defaults())) {
            s.get("k1".getBytes(StandardCharsets.UTF_8));
        }
        StoreReport after = Store.verify(f);
        assertTrue(after.problems().isEmpty(), "the open should have recovered it: " + after);
    }
}
