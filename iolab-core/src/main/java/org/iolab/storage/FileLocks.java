package org.iolab.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.iolab.IolabException;

/**
 * The locks the journal and the store take on a lock file: the single writer's exclusive lock, and readers' shared
 * lock ({@link #tryShared}), which keeps a writer out while they read.
 */
public final class FileLocks {
    /**
     * The shared locks this process holds, by lock file. The JDK refuses a second lock over the same bytes of a file
     * in one process, shared or not, so readers in one process share one lock and count themselves on it.
     */
    private static final Map<Path, Shared> SHARED = new HashMap<>();

    private FileLocks() {
    }

    /** A reader's hold on a shared lock; {@link #close()} lets go of it (the last holder in the process unlocks). */
    public static final class Shared implements AutoCloseable {
        private final Path lockFile;
        private final FileLock lock;
        private final boolean created;
        private int holders = 1;

        private Shared(Path lockFile, FileLock lock, boolean created) {
            this.lockFile = lockFile;
            this.lock = lock;
            this.created = created;
        }

        /** @return the lock file, or null when none could be made (see {@link #tryShared}) */
        public Path lockFile() {
            return lock == null ? null : lockFile;
        }

        /**
         * Releases this hold, once per {@link #tryShared}; the last one in the process unlocks, and deletes the lock
         * file when its lock made it and {@code deleteIfMade} (a reader that found nothing to read leaves nothing
         * behind).
         *
         * @param deleteIfMade delete the lock file if this process's shared lock created it
         */
        public void release(boolean deleteIfMade) {
            synchronized (SHARED) {
                if (holders == 0 || --holders > 0) {
                    return;
                }
                SHARED.remove(lockFile);
                if (lock == null) {
                    return;
                }
                if (created && deleteIfMade) {
                    try {
                        Files.deleteIfExists(lockFile); // while still locked: a writer that opened it is refused
                    } catch (IOException ignored) {
                        // an empty lock file left behind is harmless
                    }
                }
                FileLocks.close(lock.channel());
            }
        }

        @Override
        public void close() {
            release(false);
        }
    }

    /**
     * Takes a shared lock on {@code lockFile} without waiting, or joins this process's: readers hold it together,
     * and a writer's {@link #tryLock} is refused while they do. A missing lock file is created (and remembered, see
     * {@link Shared#release}); where it cannot be (a read-only folder or file system, where no writer can work
     * either), the reader goes on without a lock.
     *
     * @param lockFile the lock file
     * @return the hold (close it), or null when a writer, in this process or another, has the lock
     * @throws IolabException when an existing lock file cannot be opened or locked
     */
    public static Shared tryShared(Path lockFile) {
        Path key = lockFile.toAbsolutePath().normalize();
        synchronized (SHARED) {
            Shared held = SHARED.get(key);
            if (held != null) {
                held.holders++;
                return held;
            }
            FileChannel channel;
            boolean created = false;
            try {
                try {
                    channel = FileChannel.open(key, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
                    created = true;
                } catch (FileAlreadyExistsException e) {
                    channel = FileChannel.open(key, StandardOpenOption.READ);
                }
            } catch (java.nio.file.AccessDeniedException | java.nio.file.ReadOnlyFileSystemException e) {
                Shared none = new Shared(key, null, false);
                SHARED.put(key, none);
                return none;
            } catch (IOException e) {
                if (Files.isDirectory(key.getParent()) && !Files.exists(key) && !Files.isWritable(key.getParent())) {
                    Shared none = new Shared(key, null, false);
                    SHARED.put(key, none);
                    return none;
                }
                throw IolabException.io("open the lock file", key, e);
            }
            FileLock fileLock;
            try {
                fileLock = channel.tryLock(0, Long.MAX_VALUE, true);
            } catch (OverlappingFileLockException e) {
                fileLock = null; // this process's writer holds it
            } catch (IOException e) {
                close(channel);
                throw IolabException.io("lock", key, e);
            }
            if (fileLock == null) {
                close(channel);
                return null;
            }
            Shared hold = new Shared(key, fileLock, created);
            SHARED.put(key, hold);
            return hold;
        }
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
