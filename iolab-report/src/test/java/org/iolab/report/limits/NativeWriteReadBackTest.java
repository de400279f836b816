package org.iolab.report.limits;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.iolab.content.Content;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C write baseline's own checksum is of the buffers it wrote: the file is read back, so a pass that left nothing
 * (or other bytes) on disk never becomes a limit.
 */
class NativeWriteReadBackTest {
    @TempDir
    Path dir;

    @Test
    void aWritePassThatWritesNothingIsRefused() throws Exception {
        long size = 1 << 20;
        String expected = String.format("%016x", Content.DEFAULT.checksum(size));
        // stands in for iolab-native whose write() silently went nowhere: it prints what the real program prints
        // (the checksum of the buffer it filled) but the file stays empty/absent
        Path fake = dir.resolve("iolab-native");
        Files.writeString(fake, "#!/bin/sh\n: > \"$2\"\necho '{\"mode\":\"'$1'\",\"bytes\":" + size
                + ",\"seconds\":0.0001,\"checksum\":\"" + expected + "\"}'\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));
        Path out = Files.createDirectory(dir.resolve("out"));
        assertThrows(NativeBaseline.WrongChecksumException.class,
                () -> NativeBaseline.measureWrite(fake, out, size, List.of(8192L), 1),
                "a C write pass whose file holds none of the bytes became a limit");
        assertFalse(Files.exists(out.resolve("iolab-native-write-" + size + ".dat")));
    }
}
