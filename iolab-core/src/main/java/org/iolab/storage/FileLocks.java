package org.iolab.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.iolab.IolabException;

/**
 * The locks the journal and the store take on a lock file: the single writer's exclusive lock ({@link #tryLock}),
 * and readers' shared lock ({@link #tryShared}), which keeps a writer out while they read.
 *
 * <p>The locks are POSIX record locks ({@code fcntl}), which belong to the process, and closing <em>any</em>
 * descriptor of a file releases all of them. So this class keeps one registry of every lock the process holds, by
 * the lock file's identity (device and inode), and never opens a second channel on a file it holds a lock on: a
 * refused attempt that opened one and closed it again would silently have unlocked the file for every other
 * process while this one went on writing.
 */
public final class FileLocks {
    /** Every lock this process holds through this class: a {@link FileLock} (a writer's) or a {@link Shared}. */
    private static final Map<Object, Object> HELD = new HashMap<>();
    /** Each writer's lock: its registry key, its file, and whether taking it created the file. */
    private static final Map<FileLock, Writer> WRITERS = new IdentityHashMap<>();
    /**
     * Channels on a file that something else in this process locked without this class: closing them would release
     * that lock, so they are kept open (a refused attempt leaks one descriptor rather than a lock).
     */
    private static final List<FileChannel> KEPT_OPEN = new ArrayList<>();

    private FileLocks() {
    }

    private record Writer(Object key, Path lockFile, boolean created) {
    }

    /** A reader's hold on a shared lock; {@link #close()} lets go of it (the last holder in the process unlocks). */
    public static final class Shared implements AutoCloseable {
        private final Object key;
        private final Path lockFile;
        private final FileLock lock;
        private final boolean created;
        private int holders = 1;

        private Shared(Object key, Path lockFile, FileLock lock, boolean created) {
            this.key = key;
            this.lockFile = lockFile;
            this.lock = lock;
            this.created = created;
        }

        /**
         * Releases this hold, once per {@link #tryShared}; the last one in the process unlocks, and deletes the lock
         * file when its lock made it and {@code deleteIfMade}: for a reader that found no store there, so that it
         * leaves nothing behind (a writer that opens the file meanwhile is refused while it is locked, and one that
         * opens it after makes a new one).
         *
         * @param deleteIfMade delete the lock file if this process's shared lock created it
         */
        public void release(boolean deleteIfMade) {
            synchronized (HELD) {
                if (holders == 0 || --holders > 0) {
                    return;
                }
                HELD.remove(key);
                if (lock == null) {
                    return;
                }
                if (created && deleteIfMade) {
                    deleteQuietly(lockFile); // while still locked
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
     * @return the identity of {@code file} (device and inode, so that two paths to one file are one key), or its
     *         normalized absolute path when it has none or does not exist
     */
    private static Object keyOf(Path file) {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            if (key != null) {
                return key;
            }
        } catch (NoSuchFileException e) {
            // not there: not locked by this process either (a held lock file is only deleted by its holder)
        } catch (IOException e) {
            // unreadable attributes: the path has to do
        }
        return file.toAbsolutePath().normalize();
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
        Path path = lockFile.toAbsolutePath().normalize();
        synchronized (HELD) {
            Object held = HELD.get(keyOf(path));
            if (held instanceof Shared s) {
                s.holders++;
                return s;
            }
            if (held != null) {
                return null; // this process's writer
            }
            for (int attempt = 0; ; attempt++) {
                Object before = keyOf(path);
                Opened opened;
                try {
                    opened = open(path, StandardOpenOption.READ);
                } catch (IOException e) {
                    if (!Files.exists(path) && !Files.isWritable(path.getParent())) {
                        // a read-only folder or file system: no writer can lock or write here either
                        Shared none = new Shared(path, path, null, false);
                        HELD.put(path, none);
                        return none;
                    }
                    throw IolabException.io("open the lock file", path, e);
                }
                Object key = keyOf(path);
                FileLock fileLock = lockOpened(opened.channel(), path, key, true);
                if (fileLock == null) {
                    return null;
                }
                if (!stillNamed(path, before, key, opened.created())) {
                    unlockReplaced(fileLock, path, attempt);
                    continue;
                }
                Shared hold = new Shared(key, path, fileLock, opened.created());
                HELD.put(key, hold);
                return hold;
            }
        }
    }

    /**
     * Takes an exclusive lock on {@code lockFile} (created if missing) without waiting. Release it with
     * {@link #release(FileLock)}, never by closing its channel: the registry would still count it.
     *
     * @param lockFile the lock file
     * @return the lock (its channel is {@link FileLock#acquiredBy()}), or null when another holder, a writer or
     *     readers, in this process or another, has it
     * @throws IolabException when the file cannot be opened or locked
     */
    public static FileLock tryLock(Path lockFile) {
        Path path = lockFile.toAbsolutePath().normalize();
        synchronized (HELD) {
            if (HELD.containsKey(keyOf(path))) {
                return null; // held in this process: a channel opened and closed here would unlock it for others
            }
            for (int attempt = 0; ; attempt++) {
                Object before = keyOf(path);
                Opened opened;
                try {
                    opened = open(path, StandardOpenOption.WRITE);
                } catch (IOException e) {
                    throw IolabException.io("open the lock file", path, e);
                }
                Object key = keyOf(path);
                FileLock fileLock = lockOpened(opened.channel(), path, key, false);
                if (fileLock != null && !stillNamed(path, before, key, opened.created())) {
                    unlockReplaced(fileLock, path, attempt);
                    continue;
                }
                if (fileLock != null) {
                    HELD.put(key, fileLock);
                    WRITERS.put(fileLock, new Writer(key, path, opened.created()));
                }
                return fileLock;
            }
        }
    }

    /**
     * @return whether the file locked is still the one {@code path} names: a holder that created a lock file deletes
     *     it while still holding it when it lets go, so a file opened just before that delete and locked just after
     *     it is no lock at all (the next process creates a new file and locks that: two writers)
     */
    private static boolean stillNamed(Path path, Object before, Object key, boolean created) {
        if (key instanceof Path) {
            return true; // no file identity on this file system: nothing to compare
        }
        Object now = keyOf(path);
        return now.equals(key) && (created || before.equals(key));
    }

    /** Lets go of a lock on a file that was deleted or replaced under it, before trying the file named now. */
    private static void unlockReplaced(FileLock fileLock, Path path, int attempt) {
        try {
            fileLock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        close(fileLock.channel());
        if (attempt >= 3) {
            throw new IolabException("the lock file " + path + " was deleted or replaced each time it was locked;"
                    + " another program is removing it: stop it, then try again");
        }
    }

    /** A lock file's channel, and whether opening it created the file. */
    private record Opened(FileChannel channel, boolean created) {
    }

    /**
     * Opens {@code path}, creating it (for reading and writing) if missing, else with {@code existing}: a shared lock
     * needs the file readable, an exclusive one writable.
     */
    private static Opened open(Path path, StandardOpenOption existing) throws IOException {
        try {
            return new Opened(FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), true);
        } catch (FileAlreadyExistsException e) {
            return new Opened(FileChannel.open(path, existing), false);
        }
    }

    /**
     * Locks {@code channel}, just opened on {@code path} (whose key is {@code key}), without waiting. Caller holds
     * {@link #HELD}.
     *
     * @return the lock, or null when refused: the channel is then closed, or kept open where closing it would
     *         release a lock this process holds on the file
     */
    private static FileLock lockOpened(FileChannel channel, Path path, Object key, boolean shared) {
        if (HELD.containsKey(key)) {
            KEPT_OPEN.add(channel); // the file was replaced by one this process holds since the caller looked
            return null;
        }
        FileLock fileLock;
        try {
            fileLock = channel.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            KEPT_OPEN.add(channel); // locked in this process, not through this class: closing would unlock it
            return null;
        } catch (IOException e) {
            close(channel);
            throw IolabException.io("lock", path, e);
        }
        if (fileLock == null) {
            close(channel); // another process holds it; this process holds nothing on the file
        }
        return fileLock;
    }

    /**
     * Releases a lock {@link #tryLock} took and closes its channel. Idempotent.
     *
     * @param fileLock the lock
     */
    public static void release(FileLock fileLock) {
        release(fileLock, false);
    }

    /**
     * Releases a lock {@link #tryLock} took and closes its channel, first deleting its lock file if taking the lock
     * created it and {@code deleteIfMade}: for a writer's open that found no store there, so that it leaves nothing
     * behind. Idempotent.
     *
     * @param fileLock the lock
     * @param deleteIfMade delete the lock file if this lock created it
     */
    public static void release(FileLock fileLock, boolean deleteIfMade) {
        synchronized (HELD) {
            Writer w = WRITERS.remove(fileLock);
            if (w != null) {
                HELD.remove(w.key());
                if (w.created() && deleteIfMade) {
                    deleteQuietly(w.lockFile()); // while still locked
                }
            }
            try {
                fileLock.release();
            } catch (IOException ignored) {
                // closing the channel releases it too
            }
            close(fileLock.channel());
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // an empty lock file left behind is harmless
        }
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
