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
