package org.iolab.storage;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * A file's {@link FileChannel} that a thread's interrupt does not close for every thread.
 *
 * <p>A thread interrupted inside a {@code FileChannel} call (or entering one with its interrupt pending) closes the
 * channel: its own call throws {@link ClosedByInterruptException}, the other threads' calls in flight throw
 * {@link java.nio.channels.AsynchronousCloseException}, and every later call {@link ClosedChannelException}. A store
 * shared by request threads, one of them cancelled while it reads, would then fail for all of them until opened again.
 * Here such a call opens the same file again (a read-only file's identity is checked, so a file renamed over it since
 * is not taken for it: a writer replaces its files itself) and is made once more, with the calling thread's interrupt
 * status cleared meanwhile and given back after. Reads, positional writes (of the same bytes at the same place), sizes and maps are safe to repeat. A
 * sync is not: whether the interrupted {@code fsync} reached the device is unknown, so {@link #force} reports it as
 * failed (after opening the file again for the next syncs), as the callers' failed-sync handling requires; and it goes
 * through a descriptor of its own, so that only the syncing thread's interrupt can stop it.
 *
 * <p>Only {@link #close} closes it for good.
 */
final class ReopeningChannel {
    /**
     * How many times one call opens the file again before it gives up (each time, another thread's interrupt arriving
     * during a call closed it).
     */
    private static final int REOPENS = 1000;

    /** A call on the channel. */
    @FunctionalInterface
    interface Call<T> {
        T on(FileChannel channel) throws IOException;
    }

    private final Path path;
    private final boolean writable;
    private final Object identity;
    private final Object lock = new Object();
    private volatile FileChannel channel;
    private volatile boolean closed;
    /**
     * A writable file's syncs go through a descriptor of their own, which no reader uses: a reader's interrupt during
     * a writer's {@code fsync} would otherwise close the channel under it and hide its result (was it an I/O error?),
     * failing the writer for a reader's cancellation. Opened at the first sync (an open costs a reopened store's first
     * call): a descriptor opened after a write-back error that nobody has been told of yet is told of it, as any.
     * Null until then, and for a read-only file (it syncs through its channel).
     */
    private volatile ReopeningChannel syncs;

    /**
     * Opens {@code path} (created when {@code writable} and missing).
     *
     * @throws org.iolab.IolabException naming the file when it cannot be opened
     */
    ReopeningChannel(Path path, boolean writable) {
        this.path = path;
        this.writable = writable;
        this.channel = Problems.openChannel(path, writable);
        // a file is replaced under a reader (a journal's cut, a store's compaction, by their writer), never under its
        // writer, which replaces it itself under its lock and opens the new one: no identity to check (a stat that a
        // store's reopen would pay for)
        this.identity = writable ? null : identityOf(path);
    }

    /**
     * @param identity the identity of the file it must be (null: not checked)
     * @return a read-only channel of {@code path} for a file's syncs
     * @throws ClosedChannelException when {@code path} is no longer that file (replaced since: not the file to sync)
     */
    static ReopeningChannel forSyncs(Path path, Object identity) throws ClosedChannelException {
        if (identity != null && !Objects.equals(identity, identityOf(path))) {
            throw new ClosedChannelException();
        }
        return new ReopeningChannel(path, identity);
    }

    /** The read-only descriptor of a file's syncs. */
    private ReopeningChannel(Path path, Object identity) {
        this.path = path;
        this.writable = false;
        this.channel = Problems.openChannel(path, false);
        this.identity = identity;
    }

    /**
     * {@code fsync} ({@code metadata}) or {@code fdatasync} of the file, made {@link #once}: an interrupt of the
     * syncing thread hides whether it reached the device.
     */
    void force(boolean metadata) throws IOException {
        (writable ? syncs() : this).once(c -> {
            c.force(metadata);
            return null;
        });
    }

    private ReopeningChannel syncs() throws IOException {
        ReopeningChannel s = syncs;
        if (s == null) {
            synchronized (lock) {
                if (closed) {
                    throw new ClosedChannelException();
                }
                s = syncs;
                if (s == null) {
                    s = forSyncs(path, identity);
                    syncs = s;
                }
            }
        }
        return s;
    }

    /** @return the channel as it is now (the tests close it as an interrupt does) */
    FileChannel current() {
        return channel;
    }

    /**
     * Makes {@code call}, again on the file opened anew when an interrupt closed the channel under it.
     *
     * @throws IOException the call's own failure, or the closing one when the file cannot be opened again (it was
     *     closed, replaced or deleted meanwhile)
     */
    <T> T call(Call<T> call) throws IOException {
        return run(call, true);
    }

    /**
     * Makes {@code call} once: when an interrupt closed the channel under it, the file is opened again for the next
     * calls, and the failure is thrown all the same (for a sync, whose result the interrupt hid).
     */
    <T> T once(Call<T> call) throws IOException {
        return run(call, false);
    }

    private <T> T run(Call<T> call, boolean again) throws IOException {
        // a pending interrupt would close the channel on entry, for every thread: cleared here, given back after
        boolean interrupted = Thread.interrupted();
        try {
            for (int reopens = 0; ; reopens++) {
                FileChannel c = channel;
                try {
                    return call.on(c);
                } catch (ClosedChannelException e) {
                    // this thread's interrupt (its status is set) or another thread's: either way the channel is shut
                    interrupted |= Thread.interrupted();
                    if (closed || !reopen(c) || !again || reopens >= REOPENS) {
                        throw e;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return whether the channel is open on the same file again (by this thread or by another since) */
    private boolean reopen(FileChannel failed) {
        synchronized (lock) {
            if (closed) {
                return false;
            }
            if (channel != failed && channel.isOpen()) {
                return true;
            }
            if (channel.isOpen()) {
                return false; // the call failed on an open channel: not an interrupt's doing
            }
            FileChannel fresh;
            try {
                fresh = writable ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                        : FileChannel.open(path, StandardOpenOption.READ);
            } catch (IOException e) {
                return false;
            }
            if (identity != null && !Objects.equals(identity, identityOf(path))) {
                try {
                    fresh.close();
                } catch (IOException ignored) {
                    // not the file this was: the failure that brought us here is the one to report
                }
                return false;
            }
            channel = fresh;
            return true;
        }
    }

    /** @return the identity of the file {@code path} names now (an object no other equals when it cannot be read) */
    static Object identityOf(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return new Object(); // unknown: never equal, so the file is not opened again
        }
    }

    /** Closes the channel for good. */
    void close() throws IOException {
        try {
            synchronized (lock) {
                closed = true;
                channel.close();
            }
        } finally {
            ReopeningChannel s;
            synchronized (lock) {
                s = syncs;
            }
            if (s != null) {
                s.close();
            }
        }
    }

    Path path() {
        return path;
    }

}
