package org.iolab.bench.store;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import org.iolab.IolabException;

/** Folder helpers for the engines and the benchmark: size of a tree, delete a tree. */
final class Folders {
    private Folders() {
    }

    /**
     * @param dir a benchmark's {@code dir} parameter: a folder, or empty for {@code java.io.tmpdir}
     * @return that folder
     * @throws IolabException when it is not an existing, writable folder
     */
    static Path home(String dir) {
        Path home = dir == null || dir.isBlank() ? Path.of(System.getProperty("java.io.tmpdir"))
                : Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(home) || !Files.isWritable(home)) {
            throw new IolabException("bad dir '" + dir + "': not an existing, writable folder; give one, or an empty "
                    + "dir for java.io.tmpdir");
        }
        return home;
    }

    /**
     * @param dir a benchmark's {@code dir} parameter ({@link #home(String)})
     * @param prefix the new folder's name starts with it
     * @return a new, empty folder in it
     */
    static Path create(String dir, String prefix) {
        Path home = home(dir);
        try {
            return Files.createTempDirectory(home, prefix);
        } catch (IOException e) {
            throw IolabException.io("create a store folder in", home, e);
        }
    }

    /**
     * @param dir a folder
     * @return the summed lengths of the regular files under it (0 when it does not exist)
     */
    static long size(Path dir) {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // removed while walking (a store's temporary file)
                }
            }).sum();
        } catch (IOException e) {
            throw IolabException.io("measure", dir, e);
        }
    }

    /**
     * Deletes {@code dir} and everything in it; {@code null} or a missing folder is ignored.
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
            throw IolabException.io("delete", dir, e);
        }
    }
}
