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
    void deletesOnlyTheFilesItCreated() throws IOException {
        Path dir;
        Path foreign;
        try (Workspace ws = Workspace.create(parent)) {
            dir = ws.dir();
            Files.writeString(ws.file("a.dat"), "iolab's");
            foreign = dir.resolve("user-file");
            Files.writeString(foreign, "not iolab's");
        }
        assertFalse(Files.exists(dir.resolve("a.dat")));
        assertTrue(Files.exists(foreign), "a file iolab did not create must survive");
        assertTrue(Files.exists(dir), "a folder holding a foreign file is left in place");
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
