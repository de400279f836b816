package org.iolab.storage;

import java.nio.channels.FileLock;
import java.nio.file.Path;

/** Run in a child JVM: tries to lock the file given as argument; prints "locked" or "refused". */
public final class LockFileProbe {
    private LockFileProbe() {
    }

    /** @param args "exclusive" or "shared", then the lock file */
    public static void main(String[] args) {
        Path file = Path.of(args[1]);
        if (args[0].equals("shared")) {
            FileLocks.Shared s = FileLocks.tryShared(file);
            System.out.println(s == null ? "refused" : "locked");
            if (s != null) {
                s.close();
            }
            return;
        }
        FileLock l = FileLocks.tryLock(file);
        System.out.println(l == null ? "refused" : "locked");
        if (l != null) {
            FileLocks.release(l);
        }
    }
}
