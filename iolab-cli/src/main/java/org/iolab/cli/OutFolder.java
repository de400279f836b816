package org.iolab.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.report.model.WholeFile;

/**
 * The folder {@code iolab bench} writes its results into, claimed before anything runs: a run must not measure for
 * an hour and then find it cannot write, or write over another run's results or a user's files. A new folder is
 * created (the default one gets a suffix when another run made it in the same second); an existing one must be
 * empty. A marker file ({@value #MARKER}) holds it while the run lasts, locked, so two runs given the same
 * {@code --out} cannot both write there, and a marker a killed run left (its lock gone with its process) is taken
 * over. {@link #release} (also run on Ctrl-C) removes the marker, and the folders the claim created when the run
 * wrote nothing into them.
 */
final class OutFolder {
    /** Held while a run writes into the folder. */
    static final String MARKER = ".iolab-bench-running";
    /** Default folders tried with a suffix before giving up. */
    private static final int SUFFIXES = 100;

    private final Path path;
    /** The highest folder the claim created (the claimed one or an ancestor), or null when it existed. */
    private final Path topCreated;
    private final FileChannel marker;
    /** The marker's identity, so that {@link #release} deletes the marker only while its name is still this file. */
    private final Object markerKey;
    private final Thread hook;
    private boolean released;

    private OutFolder(Path path, Path topCreated, FileChannel marker, Object markerKey) {
        this.path = path;
        this.topCreated = topCreated;
        this.marker = marker;
        this.markerKey = markerKey;
        this.hook = new Thread(this::release, "iolab-out-release");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** @return the claimed folder */
    Path path() {
        return path;
    }

    /**
     * @param out the user's {@code --out}, or null for the default
     * @param fallback the default folder ({@code iolab-results/DATE-TIME})
     * @return the claimed folder
     * @throws IolabException naming the folder when it cannot be claimed: not a folder, not empty, held by another
     *     run, or not creatable (read-only, a dangling link)
     */
    static OutFolder claim(Path out, Path fallback) {
        if (out != null) {
            return claimGiven(out);
        }
        Path parent = fallback.toAbsolutePath().getParent();
        Path createdParents = firstMissing(parent);
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw IolabException.io("create the results folder", parent, e);
        }
        for (int i = 1; i <= SUFFIXES; i++) {
            Path p = i == 1 ? fallback : fallback.resolveSibling(fallback.getFileName() + "-" + i);
            try {
                Files.createDirectory(p);
            } catch (FileAlreadyExistsException e) {
                continue; // another run made it in the same second
            } catch (IOException e) {
                if (createdParents != null) {
                    removeEmpty(parent, createdParents);
                }
                throw IolabException.io("create the results folder", p, e);
            }
            return mark(p, createdParents != null ? createdParents : p.toAbsolutePath());
        }
        throw new IolabException("cannot create a results folder beside " + fallback + ": " + SUFFIXES
                + " of them exist; give one with --out");
    }

    private static OutFolder claimGiven(Path given) {
        if (Files.isSymbolicLink(given) && !Files.exists(given)) {
            throw new IolabException("--out " + given + " is a link to nothing; give a folder");
        }
        if (Files.exists(given) && !Files.isDirectory(given)) {
            throw new IolabException("--out " + given + " is a file, not a folder; choose a folder");
        }
        // the folder the file system means, links and '..' resolved as it resolves them (not as text: L/../new
        // with L a link is not ./new)
        Path out = real(given);
        Path top = firstMissing(out);
        try {
            // a marker alone: a run's, or one a killed run left (mark() tells them apart by its lock)
            if (top == null && !onlyMarker(out)) {
                throw new IolabException("--out " + out + " is not empty; iolab writes results.json, its sibling"
                        + " files, report.html and charts/ there and overwrites nothing; choose a new or empty"
                        + " folder");
            }
        } catch (IOException e) {
            throw IolabException.io("list", out, e);
        }
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw IolabException.io("create the --out folder", out, e);
        }
        return mark(out, top);
    }

    /**
     * @return {@code p} with its longest existing prefix replaced by that prefix's real path
     * @throws IolabException when a '..' follows a folder that does not exist yet (no file system meaning to take)
     */
    private static Path real(Path p) {
        Path abs = p.toAbsolutePath();
        int n = abs.getNameCount();
        for (int i = n; i >= 0; i--) {
            Path prefix = i == 0 ? abs.getRoot() : abs.getRoot().resolve(abs.subpath(0, i));
            if (!Files.exists(prefix)) {
                continue;
            }
            try {
                Path rest = i == n ? null : abs.subpath(i, n);
                if (rest != null) {
                    for (Path part : rest) {
                        if (part.toString().equals("..") || part.toString().equals(".")) {
                            throw new IolabException("--out " + p + " has '" + part + "' after " + prefix.resolve(
                                    rest.getName(0)) + ", which does not exist; give the folder without it");
                        }
                    }
                }
                Path r = prefix.toRealPath();
                return rest == null ? r : r.resolve(rest);
            } catch (IOException e) {
                throw IolabException.io("resolve", prefix, e);
            }
        }
        return abs.normalize();
    }

    /** @return the highest ancestor of {@code p} (or {@code p}) that does not exist, absolute; null when it exists */
    private static Path firstMissing(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path top = null;
        for (Path at = abs; at != null && !Files.exists(at, LinkOption.NOFOLLOW_LINKS); at = at.getParent()) {
            top = at;
        }
        return top;
    }

    private static OutFolder mark(Path folder, Path topCreated) {
        Path m = folder.resolve(MARKER);
        FileChannel ch = null;
        boolean made = false;
        try {
            try {
                ch = FileChannel.open(m, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS);
                made = true;
            } catch (FileAlreadyExistsException e) {
                ch = FileChannel.open(m, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            }
            Object key = keyOf(m);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held in this process
            }
            // locked, and still the file the name gives (a run that let go deletes its marker before unlocking it:
            // a lock taken on that one holds a file no one can see), and the folder holds nothing else (a run that
            // finished between this run's look and its lock has written its results there)
            if (lock == null || key == null || !key.equals(keyOf(m)) || !onlyMarker(folder)) {
                ch.close();
                ch = null;
                if (made && key != null && key.equals(keyOf(m))) {
                    Files.deleteIfExists(m);
                }
                if (topCreated != null) {
                    removeEmpty(folder, topCreated);
                }
                throw new IolabException("--out " + folder + " is being written, or was just written, by another"
                        + " iolab bench; choose another folder");
            }
            // a marker found unlocked was left by a run that was killed: this run takes the folder over
            return new OutFolder(folder, topCreated, ch, key);
        } catch (IOException e) {
            closeQuietly(ch);
            if (made) {
                deleteQuietly(m);
            }
            if (topCreated != null) {
                removeEmpty(folder, topCreated);
            }
            throw IolabException.io("write into the results folder", folder, e);
        }
    }

    /** @return the file's identity (device and inode), or null when it is gone */
    private static Object keyOf(Path p) {
        try {
            BasicFileAttributes a = p.getFileSystem().provider().readAttributesIfExists(p, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            return a == null ? null : a.fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean onlyMarker(Path folder) throws IOException {
        try (Stream<Path> in = Files.list(folder)) {
            return in.allMatch(p -> p.getFileName().toString().equals(MARKER));
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            System.err.println("iolab: could not delete " + p + ": " + e.getMessage());
        }
    }

    /**
     * Writes {@code results.json} whole or not at all ({@link WholeFile}). When the folder cannot take it (a full
     * disk), it goes into a new folder in the temporary folder instead, where the caller writes the rest of the run's
     * files too.
     *
     * @param folder the claimed folder
     * @param text the results
     * @return the file written: in {@code folder}, or in the folder it was saved aside to
     * @throws IolabException when the results could not be written anywhere
     */
    static Path writeResults(Path folder, String text) {
        try {
            return write(folder, text);
        } catch (IOException e) {
            IolabException here = IolabException.io("write", folder.resolve("results.json"), e);
            try {
                Path aside = Files.createTempDirectory("iolab-results-");
                Path json = write(aside, text);
                System.err.println("iolab: " + here.getMessage() + "; writing the results into " + aside
                        + " instead");
                return json;
            } catch (IOException again) {
                throw new IolabException(here.getMessage() + "; the results could not be saved in the temporary"
                        + " folder either (" + again.getMessage() + "): they are lost", e);
            }
        }
    }

    private static Path write(Path folder, String text) throws IOException {
        Path json = folder.resolve("results.json");
        WholeFile.write(json, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
        return json;
    }

    /**
     * Lets go of the folder: removes the marker, and the folders the claim created when the run left them empty.
     * Idempotent; also run by a shutdown hook (Ctrl-C).
     */
    synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        Path m = path.resolve(MARKER);
        if (markerKey.equals(keyOf(m))) {
            deleteQuietly(m); // only this run's: never a marker another run made since
        }
        closeQuietly(marker); // its lock with it, after the delete: no other run takes a marker about to go
        if (topCreated != null) {
            removeEmpty(path, topCreated);
        }
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or has run
            }
        }
    }

    /** Deletes {@code from} and its ancestors up to {@code top} while they are empty. */
    private static void removeEmpty(Path from, Path top) {
        Path stop = top.toAbsolutePath().normalize();
        for (Path at = from.toAbsolutePath().normalize(); at != null && at.startsWith(stop); at = at.getParent()) {
            try {
                Files.deleteIfExists(at);
            } catch (DirectoryNotEmptyException e) {
                return; // the run's results, or someone else's files: kept
            } catch (IOException e) {
                System.err.println("iolab: could not delete the empty folder " + at + ": " + e.getMessage());
                return;
            }
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // the marker's lock goes with the process anyway
            }
        }
    }
}
