package org.iolab.cli;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.iolab.IolabException;

/**
 * The folder {@code iolab bench} writes its results into, claimed before anything runs: a run must not measure for
 * an hour and then find it cannot write, or write over another run's results or a user's files. A new folder is
 * created (the default one gets a suffix when another run made it in the same second); an existing one must be
 * empty. A marker file ({@value #MARKER}, made with {@code CREATE_NEW}) holds it while the run lasts, so two runs
 * given the same {@code --out} cannot both write there; {@link #release} removes it, and the folder too when the run
 * wrote nothing into a folder it created.
 */
final class OutFolder {
    /** Held while a run writes into the folder. */
    static final String MARKER = ".iolab-bench-running";
    /** Default folders tried with a suffix before giving up. */
    private static final int SUFFIXES = 100;

    private final Path path;
    private final boolean created;

    private OutFolder(Path path, boolean created) {
        this.path = path;
        this.created = created;
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
                throw IolabException.io("create the results folder", p, e);
            }
            return mark(p, true);
        }
        throw new IolabException("cannot create a results folder beside " + fallback + ": " + SUFFIXES
                + " of them exist; give one with --out");
    }

    private static OutFolder claimGiven(Path out) {
        if (Files.isSymbolicLink(out) && !Files.exists(out)) {
            throw new IolabException("--out " + out + " is a link to nothing; give a folder");
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new IolabException("--out " + out + " is a file, not a folder; choose a folder");
        }
        if (Files.exists(out.resolve(MARKER), LinkOption.NOFOLLOW_LINKS)) {
            throw new IolabException("--out " + out + " is being written by another iolab bench (or one was"
                    + " interrupted there: then delete " + out.resolve(MARKER) + "); choose another folder");
        }
        boolean created = !Files.exists(out);
        if (!created) {
            try (Stream<Path> in = Files.list(out)) {
                if (in.findAny().isPresent()) {
                    throw new IolabException("--out " + out + " is not empty; iolab writes results.json, its sibling"
                            + " files, report.html and charts/ there and overwrites nothing; choose a new or empty"
                            + " folder");
                }
            } catch (IOException e) {
                throw IolabException.io("list", out, e);
            }
        }
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw IolabException.io("create the --out folder", out, e);
        }
        return mark(out, created);
    }

    private static OutFolder mark(Path folder, boolean created) {
        try {
            Files.newByteChannel(folder.resolve(MARKER), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                    .close();
        } catch (FileAlreadyExistsException e) {
            throw new IolabException("--out " + folder + " is being written by another iolab bench; choose another"
                    + " folder");
        } catch (IOException e) {
            if (created) {
                deleteQuietly(folder);
            }
            throw IolabException.io("write into the results folder", folder, e);
        }
        return new OutFolder(folder, created);
    }

    /**
     * Writes {@code results.json} whole or not at all: into a temporary file beside it, then renamed. When the folder
     * cannot take it (a full disk), the results go to a file in the temporary folder, which the error names.
     *
     * @param folder the claimed folder
     * @param text the results
     * @return the file written
     * @throws IolabException saying where the results are, when they could not be written into the folder
     */
    static Path writeResults(Path folder, String text) {
        Path json = folder.resolve("results.json");
        Path tmp = folder.resolve("results.json.tmp");
        try {
            Files.writeString(tmp, text);
            Files.move(tmp, json, StandardCopyOption.ATOMIC_MOVE);
            return json;
        } catch (IOException e) {
            deleteQuietly(tmp);
            String saved;
            try {
                Path aside = Files.createTempFile("iolab-results-", ".json");
                Files.writeString(aside, text);
                saved = "the results are saved in " + aside + " instead: make room, then './iolab report " + aside
                        + " --out " + folder + "' draws the report";
            } catch (IOException again) {
                saved = "the results could not be saved elsewhere either (" + again.getMessage() + ")";
            }
            throw new IolabException(IolabException.io("write", json, e).getMessage() + "; " + saved, e);
        }
    }

    /** Lets go of the folder: removes the marker, and the folder when this run created it and left it empty. */
    void release() {
        deleteQuietly(path.resolve(MARKER));
        if (created) {
            try {
                Files.deleteIfExists(path);
            } catch (DirectoryNotEmptyException e) {
                // the run's results: kept
            } catch (IOException e) {
                System.err.println("iolab: could not delete the empty results folder " + path + ": " + e.getMessage());
            }
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            System.err.println("iolab: could not delete " + p + ": " + e.getMessage());
        }
    }
}
