package org.iolab.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iolab.IolabException;

/** The single-writer lock the journal and the store take: an exclusive lock on a lock file. */
public final class FileLocks {
    private FileLocks() {
    }

    /**
     * Takes an exclusive lock on {@code lockFile} (created if missing) without waiting.
     *
     * @param lockFile the lock file
     * @return the lock (its channel is {@link FileLock#acquiredBy()}; close that to release), or null when
     *     another holder, in this process or another, has it
     * @throws IolabException when the file cannot be opened or locked
     */
    public static FileLock tryLock(Path lockFile) {
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw IolabException.io("open the lock file", lockFile, e);
        }
        FileLock fileLock;
        try {
            fileLock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            fileLock = null;
        } catch (IOException e) {
            close(channel);
            throw IolabException.io("lock", lockFile, e);
        }
        if (fileLock == null) {
            close(channel);
        }
        return fileLock;
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
