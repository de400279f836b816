package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.nio.file.attribute.PosixFilePermissions;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceTest {
    @TempDir
    Path parent;

    @Test
    void deletesEverythingUnderItsFolderAndNothingOutside() throws IOException {
        Path dir;
        Path outside = parent.resolve("user-file");
        Files.writeString(outside, "not iolab's");
        try (Workspace ws = Workspace.create(parent)) {
            dir = ws.dir();
            Files.writeString(ws.file("a.dat"), "named");
            // what a benchmark interrupted by Ctrl-C leaves: a half-written file and a folder it never named
            Files.write(dir.resolve("write-x-1048576.dat"), new byte[4096]);
            Files.createDirectories(dir.resolve("journal-1/sub"));
            Files.writeString(dir.resolve("journal-1/sub/00000000.seg"), "segment");
            Files.createSymbolicLink(dir.resolve("link"), outside);
        }
        assertFalse(Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS), "the work folder is gone");
        assertEquals("not iolab's", Files.readString(outside), "a link's target outside the folder survives");
    }

    @Test
    void removesItsFolderWhenEmpty() throws IOException {
        Path dir;
        try (Workspace ws = Workspace.create(parent)) {
            dir = ws.dir();
            Files.writeString(ws.file("x"), "1");
        }
        assertFalse(Files.exists(dir));
        try (var s = Files.list(parent)) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void refusesMissingOrUnusableParents() throws IOException {
        IolabException missing = assertThrows(IolabException.class,
                () -> Workspace.create(parent.resolve("nope")));
        assertTrue(missing.getMessage().contains("nope") && missing.getMessage().contains("does not exist"));

        Path file = Files.writeString(parent.resolve("plain"), "x");
        assertTrue(assertThrows(IolabException.class, () -> Workspace.create(file))
                .getMessage().contains("not a directory"));

        Path ro = Files.createDirectory(parent.resolve("ro"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            if (!Files.isWritable(ro)) { // root can write anywhere; the check only means something for users
                assertTrue(assertThrows(IolabException.class, () -> Workspace.create(ro))
                        .getMessage().contains("not writable"));
            }
        } finally {
            Files.setPosixFilePermissions(ro, Set.copyOf(PosixFilePermissions.fromString("rwxr-xr-x")));
        }
    }

    @Test
    void refusesPathsOutsideTheFolder() {
        try (Workspace ws = Workspace.create(parent)) {
            assertThrows(IllegalArgumentException.class, () -> ws.file("../escape"));
            assertThrows(IllegalArgumentException.class, () -> ws.file(".hidden"));
        }
    }
}
