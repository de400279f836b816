package org.iolab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** I/O failures read as what the system said, in plain words, with what to do: no Java class names. */
class IolabExceptionTest {
    @TempDir
    Path tmp;

    @Test
    void messagesSayWhatTheSystemSaidWithoutJavaClassNames() {
        Path f = Path.of("/data/s.store");
        IolabException denied = IolabException.io("open for writing", f, new AccessDeniedException(f.toString()));
        assertEquals("cannot open for writing /data/s.store: permission denied; check its permissions (and that it"
                + " is not immutable, chattr +i)", denied.getMessage());
        IolabException readOnly = IolabException.io("open the lock file", f,
                new FileSystemException(f.toString(), null, "Read-only file system"));
        assertEquals("cannot open the lock file /data/s.store: Read-only file system; its file system is mounted"
                + " read-only; use a writable one", readOnly.getMessage());
        IolabException full = IolabException.io("write the index checkpoint", f,
                new IOException("No space left on device"));
        assertTrue(full.getMessage().endsWith("No space left on device; free some space on its disk, or use"
                + " another one"), full.getMessage());
        IolabException missing = IolabException.io("open the lock file", f,
                new NoSuchFileException("/data/nope/s.store.lock"));
        assertEquals("cannot open the lock file /data/s.store: no such file or folder (/data/nope/s.store.lock)",
                missing.getMessage());
        for (IolabException e : new IolabException[] {denied, readOnly, full, missing}) {
            assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        }
        assertNull(IolabException.hint(new IOException("Input/output error")));
    }

    @Test
    void aRealFailureReadsTheSame() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        try {
            Files.createDirectory(file.resolve("sub"));
        } catch (IOException e) {
            String message = IolabException.io("create the folder", file.resolve("sub"), e).getMessage();
            assertTrue(message.startsWith("cannot create the folder " + file.resolve("sub") + ": "), message);
            assertFalse(message.contains("Exception"), message);
            return;
        }
        throw new AssertionError("a folder was made inside a file");
    }
}
