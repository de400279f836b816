package org.iolab.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.IolabException;

/**
 * A folder of test files that iolab creates and removes: at {@link #close()}, and on Ctrl-C or any other
 * JVM shutdown. It only ever deletes files it recorded as its own and the folder it made; nothing else
 * in the parent folder is touched.
 */
public final class Workspace implements AutoCloseable {
    private final Path dir;
    private final List<Path> owned = new ArrayList<>();
    private final Thread hook;
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
     * Names a file in the workspace and records it as iolab's, so it is deleted with the workspace.
     *
     * @param name a plain file name (no separators)
     * @return its path
     */
    public synchronized Path file(String name) {
        if (name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IllegalArgumentException("workspace file names are plain names: " + name);
        }
        Path f = dir.resolve(name);
        if (!owned.contains(f)) {
            owned.add(f);
        }
        return f;
    }

    /** Deletes the recorded files and the folder (if nothing else was put in it). */
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
        for (Path f : owned) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                System.err.println("iolab: could not delete " + f + ": " + e.getMessage());
            }
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            System.err.println("iolab: left " + dir + " in place: it holds files iolab did not create");
        }
    }
}
