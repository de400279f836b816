package org.iolab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.os.Workspace;

/**
 * Where one trial's files live: the folder the {@code dir} parameter names, or (when it is empty) a
 * {@link Workspace} of its own in {@code java.io.tmpdir}. At {@link #close()} it deletes exactly the files
 * this trial created, and the workspace; files it found already there are left alone.
 */
final class FileHome implements AutoCloseable {
    private final Path dir;
    private final Workspace workspace;
    private final List<Path> created = new ArrayList<>();

    private FileHome(Path dir, Workspace workspace) {
        this.dir = dir;
        this.workspace = workspace;
    }

    /**
     * @param dir the {@code dir} parameter: an existing folder, or {@code ""} for a fresh workspace
     * @return the home
     * @throws IolabException naming {@code dir} when it is missing, not a folder or not writable
     */
    static FileHome open(String dir) {
        if (dir == null || dir.isBlank()) {
            return new FileHome(null, Workspace.create(Path.of(System.getProperty("java.io.tmpdir"))));
        }
        Path p = Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(p)) {
            throw new IolabException("bad dir '" + dir + "': " + (Files.exists(p) ? "not a directory" : "does not exist")
                    + "; give an existing folder, or an empty dir for a temporary one");
        }
        if (!Files.isWritable(p)) {
            throw new IolabException("bad dir '" + dir + "': not writable; choose a folder you can write to");
        }
        return new FileHome(p, null);
    }

    /** @return the folder the files are in */
    Path dir() {
        return workspace != null ? workspace.dir() : dir;
    }

    /**
     * @param name a plain file name
     * @return its path in this home (in a workspace it is recorded, so the workspace deletes it)
     */
    Path file(String name) {
        return workspace != null ? workspace.file(name) : dir.resolve(name);
    }

    /**
     * Records {@code file} as created by this trial, so {@link #close()} deletes it.
     *
     * @param file a file in this home
     */
    void created(Path file) {
        if (!created.contains(file)) {
            created.add(file);
        }
    }

    /** Deletes the files this trial created, and the workspace if there is one. */
    @Override
    public void close() {
        for (Path f : created) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                System.err.println("iolab: could not delete " + f + ": " + e.getMessage());
            }
        }
        created.clear();
        if (workspace != null) {
            workspace.close();
        }
    }
}
