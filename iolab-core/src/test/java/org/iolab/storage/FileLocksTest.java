package org.iolab.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The locks are POSIX record locks: closing any descriptor of a file releases all of the process's locks on it. A
 * refused attempt in the process that holds the lock opened a channel and closed it, which unlocked the file for
 * every other process while the holder went on (a second writer in another process then got in: lost writes).
 */
class FileLocksTest {
    @TempDir
    Path tmp;

    @Test
    void refusedAttemptsInTheHoldingProcessKeepTheWritersLockForOthers() throws Exception {
        Path file = tmp.resolve("a.lock");
        Path alias = Files.createSymbolicLink(tmp.resolve("alias.lock"), file.getFileName());
        FileLock writer = FileLocks.tryLock(file);
        assertNotNull(writer);
        try {
            assertNull(FileLocks.tryLock(file));
            assertNull(FileLocks.tryShared(file));
            assertNull(FileLocks.tryLock(alias), "the same file by another path");
            assertNull(FileLocks.tryShared(alias));
            assertEquals("refused", LockFileProbe.inChild("exclusive", file));
            assertEquals("refused", LockFileProbe.inChild("shared", file));
        } finally {
            FileLocks.release(writer);
        }
        assertEquals("locked", LockFileProbe.inChild("exclusive", file));
    }

    @Test
    void readersShareOneLockThatKeepsWritersOutUntilTheLastLetsGo() throws Exception {
        Path file = tmp.resolve("b.lock");
        FileLocks.Shared first = FileLocks.tryShared(file);
        assertNotNull(first);
        FileLocks.Shared second = FileLocks.tryShared(tmp.resolve(".").resolve("b.lock"));
        assertSame(first, second, "readers in one process share the lock");
        assertNull(FileLocks.tryLock(file));
        assertEquals("refused", LockFileProbe.inChild("exclusive", file));
        assertEquals("locked", LockFileProbe.inChild("shared", file));
        first.close();
        assertNull(FileLocks.tryLock(file), "the second reader still holds it");
        assertEquals("refused", LockFileProbe.inChild("exclusive", file));
        second.close();
        assertEquals("locked", LockFileProbe.inChild("exclusive", file));
        FileLock writer = FileLocks.tryLock(file);
        assertNotNull(writer);
        FileLocks.release(writer);
        FileLocks.release(writer); // idempotent
        FileLock again = FileLocks.tryLock(file);
        assertNotNull(again);
        FileLocks.release(again);
    }
}
