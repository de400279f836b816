package org.iolab.catalogue;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.content.Content;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A buffer size below 1 (the contract says "at least 1") is refused with an IolabException naming the method and
 * the size, before the file is touched. Most buffered methods used to loop for ever on 0 (read(byte[0]) returns 0,
 * never -1) and threw JDK exceptions (NegativeArraySizeException, IllegalArgumentException) on negatives.
 */
class BadBufferSizeTest {
    @TempDir
    static Path dir;

    static Stream<Arguments> readCases() {
        List<Arguments> out = new ArrayList<>();
        for (ReadMethod m : Catalogue.reads()) {
            if (m.info().usesBuffer()) {
                out.add(Arguments.of(m.info().id(), 0));
                out.add(Arguments.of(m.info().id(), -1));
            }
        }
        return out.stream();
    }

    static Stream<Arguments> writeCases() {
        List<Arguments> out = new ArrayList<>();
        for (WriteMethod m : Catalogue.writes()) {
            if (m.info().usesBuffer()) {
                out.add(Arguments.of(m.info().id(), 0));
                out.add(Arguments.of(m.info().id(), -1));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} bufferSize={1}")
    @MethodSource("readCases")
    void readRefusesABufferBelowOne(String id, int bufferSize) throws IOException {
        Path file = dir.resolve("r-" + id + bufferSize);
        byte[] bytes = new byte[10_000];
        Content.DEFAULT.fill(0, bytes, 0, bytes.length);
        Files.write(file, bytes);
        assertTimeoutPreemptively(Duration.ofSeconds(3), () -> {
            IolabException e = assertThrows(IolabException.class, () -> Catalogue.read(id).read(file, bufferSize));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains(id)
                    && e.getMessage().contains("buffer size " + bufferSize), e.getMessage());
        });
    }

    @ParameterizedTest(name = "{0} bufferSize={1}")
    @MethodSource("writeCases")
    void writeRefusesABufferBelowOne(String id, int bufferSize) {
        Path file = dir.resolve("w-" + id + bufferSize);
        assertTimeoutPreemptively(Duration.ofSeconds(3), () -> {
            assertThrows(IolabException.class,
                    () -> Catalogue.write(id).write(file, 10_000, bufferSize, Content.DEFAULT, false));
        });
    }

    @org.junit.jupiter.api.Test
    void aNegativeWriteSizeIsRefusedBeforeTheFileIsMade() {
        for (WriteMethod m : Catalogue.writes()) {
            Path file = dir.resolve("neg-" + m.info().id());
            assertThrows(IolabException.class, () -> m.write(file, -1, 4096, Content.DEFAULT, false),
                    m.info().id());
            org.junit.jupiter.api.Assertions.assertFalse(Files.exists(file), m.info().id());
        }
    }
}
