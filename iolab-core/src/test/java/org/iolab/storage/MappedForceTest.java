package org.iolab.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The windowed {@code MappedByteBuffer} backend's {@code force} against a write made while it runs (the journal's
 * group commit syncs on one thread while the appender writes on another): the next force must sync that write.
 * Before the fix, the window's dirty flag was cleared after its {@code msync}, so a write that landed during it was
 * never synced, and its record was reported durable. Pages left dirty are read from {@code /proc/self/smaps}.
 */
@Timeout(120)
class MappedForceTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    /** @return kB of this process's mappings of {@code file} that are dirty (not yet written back by an msync) */
    private static long dirtyKb(Path file) throws IOException {
        String target = file.toRealPath().toString();
        long kb = 0;
        boolean in = false;
        for (String l : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            if (l.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                in = l.endsWith(target);
            } else if (in && l.matches("^(Shared|Private)_Dirty:.*")) {
                kb += Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        return kb;
    }

    @Test
    void aWriteMadeWhileAForceRunsIsSyncedByTheNextForce() throws Exception {
        Path file = dir.resolve("m.bin");
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/smaps")), "needs /proc/self/smaps");
        int caught = 0;
        try (StorageFile f = Backend.MAPPED.open(file, true)) {
            ByteBuffer big = ByteBuffer.allocateDirect(MIB);
            for (int round = 0; round < 5 && caught < 2; round++) {
                for (int i = 0; i < 64; i++) {
                    f.write(4096 + ((long) i << 20), big.clear().putLong(0, round * 100L + i));
                }
                Thread flusher = Thread.ofPlatform().start(() -> f.force(false));
                Thread.sleep(3);
                f.write(0, ByteBuffer.allocate(8).putLong(0, 42 + round)); // the appender, meanwhile
                boolean during = flusher.isAlive();
                flusher.join();
                f.force(false); // the sync that covers that write
                assertEquals(0, dirtyKb(file), "a page written before this force was called is still dirty after it"
                        + " (round " + round + ", written while the first force ran: " + during + ")");
                caught += during ? 1 : 0;
            }
        }
        Assumptions.assumeTrue(caught > 0, "no write landed while a force ran: the case was not exercised");
    }
}
