package org.iolab.bench;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.iolab.IolabException;
import org.iolab.journal.JournalOptions;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/** Shared by the journal benchmarks: parameter parsing and the trial's journal folder. */
final class JournalFolder {
    private JournalFolder() {
    }

    /**
     * @param backend the {@code backend} parameter
     * @param durability the {@code durability} parameter
     * @param segmentSize the {@code segmentSize} parameter
     * @return the journal options
     * @throws IolabException naming the bad parameter
     */
    static JournalOptions options(String backend, String durability, String segmentSize) {
        Backend b;
        try {
            b = Backend.parse(backend);
        } catch (IolabException e) {
            throw new IolabException("bad backend '" + backend + "': " + e.getMessage());
        }
        Durability d = Durability.parse(durability);
        long size = Params.fileSize(segmentSize, "segmentSize");
        JournalOptions o;
        try {
            o = JournalOptions.defaults().withSegmentSize(size);
        } catch (IolabException e) {
            throw new IolabException("bad segmentSize '" + segmentSize + "': " + e.getMessage());
        }
        return o.withBackend(b).withDurability(d);
    }

    /**
     * @param home the trial's home
     * @return a new, empty sub-folder of it for one journal
     */
    static Path create(FileHome home) {
        try {
            return Files.createTempDirectory(home.dir(), "journal-");
        } catch (IOException e) {
            throw IolabException.io("create a journal folder", home.dir(), e);
        }
    }

    /**
     * Deletes {@code dir} and everything in it; {@code null} is ignored.
     *
     * @param dir the folder
     */
    static void delete(Path dir) {
        if (dir == null || Files.notExists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.err.println("iolab: could not delete " + dir + ": " + e.getMessage());
        }
    }
}
