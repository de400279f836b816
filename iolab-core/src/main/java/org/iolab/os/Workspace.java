package org.iolab.os;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.iolab.IolabException;

/**
 * A folder of test files that iolab creates and removes: at {@link #close()}, and on Ctrl-C or any other
 * JVM shutdown. The folder is new and iolab's alone (a benchmark, in this JVM or a forked one, writes its files
 * there), so everything under it goes with it, including what a benchmark interrupted by Ctrl-C left half
 * written; nothing outside it is touched (a symbolic link in it is deleted, never followed).
 */
public final class Workspace implements AutoCloseable {
    private final Path dir;
    private final Thread hook;
    /** Standard error as it was when the workspace was made: a run may redirect System.err while a point runs. */
    private final PrintStream err = System.err;
    private boolean closed;

    private Workspace(Path dir) {
        this.dir = dir;
        this.hook = new Thread(this::cleanUp, "iolab-workspace-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Makes a new folder {@code iolab-*} inside {@code parent}.
     *
     * @param parent an existing, writable directory
     * @return the workspace
     * @throws IolabException naming {@code parent} when it is missing, not a directory or read-only
     */
    public static Workspace create(Path parent) {
        Path p = parent.toAbsolutePath().normalize();
        if (!Files.exists(p)) {
            throw new IolabException("--dir " + parent + " does not exist; create it or choose another folder");
        }
        if (!Files.isDirectory(p)) {
            throw new IolabException("--dir " + parent + " is not a directory; choose a folder");
        }
        if (!Files.isWritable(p)) {
            throw new IolabException("--dir " + parent + " is not writable; choose a folder you can write to");
        }
        try {
            return new Workspace(Files.createTempDirectory(p, "iolab-"));
        } catch (IOException e) {
            throw IolabException.io("create a work folder in", p, e);
        }
    }

    /** @return the folder */
    public Path dir() {
        return dir;
    }

    /**
     * Names a file in the workspace (deleted with it).
     *
     * @param name a plain file name (no separators)
     * @return its path
     */
    public Path file(String name) {
        if (name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IllegalArgumentException("workspace file names are plain names: " + name);
        }
        return dir.resolve(name);
    }

    /** Deletes the folder and everything under it. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        cleanUp();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run; nothing left to do
        }
    }

    private synchronized void cleanUp() {
        if (closed) {
            return;
        }
        closed = true;
        // a forked benchmark JVM stopped by the same Ctrl-C may still be creating a file: a few tries
        for (int attempt = 0; ; attempt++) {
            IOException last = deleteTree();
            if (last == null || !Files.exists(dir)) {
                return;
            }
            if (attempt == 4) {
                err.println("iolab: could not delete the work folder " + dir + " (" + last.getMessage()
                        + "); delete it yourself");
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                err.println("iolab: left the work folder " + dir + " in place (interrupted); delete it yourself");
                return;
            }
        }
    }

    private IOException deleteTree() {
        return deleteTree(dir);
    }

    /**
     * Deletes a file, or a folder and everything under it (a symbolic link is deleted, never followed).
     *
     * @param path the file or folder; nothing happens when it does not exist
     * @return the last failure to delete an entry, or null when all went
     */
    public static IOException deleteTree(Path path) {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        List<Path> entries;
        try (Stream<Path> walk = Files.walk(path)) {
            entries = walk.sorted(Comparator.reverseOrder()).toList(); // children before their folder
        } catch (IOException | UncheckedIOException e) {
            return e instanceof IOException io ? io : ((UncheckedIOException) e).getCause();
        }
        IOException last = null;
        for (Path p : entries) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                last = e;
            }
        }
        return last;
    }
}
