package org.iolab.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.content.Content;
import org.iolab.os.PageCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * odirect / odirect-write claim to bypass the page cache. The contract tests only check checksums, so they passed
 * just as well when O_DIRECT was silently not applied (mutation: drop DIRECT in DirectIo.open). This checks the
 * claim: a cold file stays cold after an O_DIRECT read, and an O_DIRECT write leaves (almost) nothing cached. Skipped
 * where the file system has no O_DIRECT (tmpfs).
 */
class DirectIoBypassesCacheTest {
    private static final long SIZE = (4 << 20) + 4097;

    @TempDir
    Path dir;

    /** Skips the test where the temporary folder's file system has no O_DIRECT. */
    private void assumeDirectIo() throws IOException {
        Path probe = dir.resolve("probe");
        Files.write(probe, new byte[4096]);
        try (var ch = org.iolab.os.DirectIo.open(probe, java.nio.file.StandardOpenOption.READ)) {
            org.junit.jupiter.api.Assumptions.assumeTrue(ch.isOpen());
        } catch (IOException | org.iolab.IolabException e) {
            org.junit.jupiter.api.Assumptions.abort("no O_DIRECT in " + dir + ": " + e.getMessage());
        }
    }

    @Test
    void odirectReadLeavesAColdFileCold() throws IOException {
        assumeDirectIo();
        Path file = dir.resolve("cold.dat");
        byte[] bytes = new byte[(int) SIZE];
        Content.DEFAULT.fill(0, bytes, 0, bytes.length);
        Files.write(file, bytes);
        PageCache.evict(file);
        assertEquals(Content.DEFAULT.checksum(SIZE), Catalogue.read("odirect").read(file, 1 << 16));
        PageCache.Residency after = PageCache.residency(file);
        assertTrue(after.fraction() <= PageCache.COLD_TOLERANCE, "odirect read went through the page cache: " + after);
    }

    @Test
    void odirectWriteLeavesNothingCached() throws IOException {
        assumeDirectIo();
        Path file = dir.resolve("w.dat");
        Catalogue.write("odirect-write").write(file, SIZE, 1 << 16, Content.DEFAULT, true);
        PageCache.Residency after = PageCache.residency(file);
        // the last partial block may be touched by the truncate; everything else must have bypassed the cache
        assertTrue(after.residentPages() <= 1, "odirect-write went through the page cache: " + after);
    }
}
