package org.iolab.catalogue.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.catalogue.Catalogue;
import org.iolab.content.Content;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mapping methods on a file over 2 GiB: a {@code MappedByteBuffer} holds at most 2 GiB - 1 bytes, so
 * {@code mapped-*} must use windows, and {@code segment-mapped} must map it whole. Needs about 2 GiB of disk.
 */
@Tag("slow")
class LargeMappedFileTest {
    private static final long SIZE = (2L << 30) + 4097;

    @TempDir
    static Path dir;

    private static Path file;

    @BeforeAll
    static void writeFile() throws IOException {
        file = TestFiles.write(dir.resolve("large"), SIZE, 8 << 20);
        assertEquals(SIZE, Files.size(file));
    }

    @AfterAll
    static void deleteFile() throws IOException {
        Files.deleteIfExists(file);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mapped-byte", "mapped-array", "segment-mapped"})
    void readsAFileOver2GiB(String id) throws IOException {
        assertEquals(Content.DEFAULT.checksum(SIZE), Catalogue.read(id).read(file, 1 << 16),
                () -> id + " on a file of " + SIZE + " bytes");
    }
}
