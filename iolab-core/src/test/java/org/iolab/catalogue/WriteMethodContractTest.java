package org.iolab.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.checksum.Checksum64;
import org.iolab.content.Content;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every write method, on every preallocation, leaves a file of exactly {@code size} bytes of
 * {@link Content#DEFAULT}: sizes around the buffer size, zero, odd and large; with and without sync; and over a
 * longer file of other bytes.
 */
class WriteMethodContractTest {
    private static final int BUFFER = 4096;
    private static final long[] SIZES = {0, 1, BUFFER - 1, BUFFER, BUFFER + 1, 3 * BUFFER + 7, 1_000_003};
    private static final long[] TINY_BUFFER_SIZES = {0, 1, 7, BUFFER + 1};

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (WriteMethod m : Catalogue.writes()) {
            for (Preallocation pre : Preallocation.values()) {
                for (long size : SIZES) {
                    cases.add(Arguments.of(m.info().id(), pre, size, BUFFER, false));
                }
                cases.add(Arguments.of(m.info().id(), pre, (long) BUFFER + 1, BUFFER, true));
                if (m.info().usesBuffer()) {
                    for (long size : TINY_BUFFER_SIZES) {
                        cases.add(Arguments.of(m.info().id(), pre, size, 1, false));
                    }
                }
            }
        }
        return cases.stream();
    }

    static Stream<String> ids() {
        return Catalogue.writes().stream().map(m -> m.info().id());
    }

    @ParameterizedTest(name = "{0} {1} size={2} buffer={3} sync={4}")
    @MethodSource("cases")
    void writesExactlyTheContent(String id, Preallocation pre, long size, int bufferSize, boolean sync)
            throws IOException {
        Path file = dir.resolve(id + ".dat");
        pre.prepare(file, size);
        write(Catalogue.write(id), file, size, bufferSize, sync);
        assertContent(file, size);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void overwritesALongerFileInPlace(String id) throws IOException {
        Path file = dir.resolve(id + ".dat");
        long size = 3 * BUFFER + 7;
        byte[] old = new byte[(int) size * 3 + 5];
        new Random(42).nextBytes(old);
        Files.write(file, old);
        Object inode = Files.getAttribute(file, "unix:ino");
        write(Catalogue.write(id), file, size, BUFFER, false);
        assertEquals(inode, Files.getAttribute(file, "unix:ino"), "the file was replaced, not overwritten");
        assertContent(file, size);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void createsAMissingFile(String id) throws IOException {
        Path file = dir.resolve(id + ".dat");
        write(Catalogue.write(id), file, BUFFER + 1, BUFFER, false);
        assertContent(file, BUFFER + 1);
    }

    private static void write(WriteMethod method, Path file, long size, int bufferSize, boolean sync)
            throws IOException {
        try {
            method.write(file, size, bufferSize, Content.DEFAULT, sync);
        } catch (IolabException e) {
            Assumptions.assumeFalse(e.getMessage().contains("O_DIRECT is not supported"), e.getMessage());
            throw e;
        }
    }

    private static void assertContent(Path file, long size) throws IOException {
        assertEquals(size, Files.size(file), "file size");
        Checksum64 sum = new Checksum64();
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf.clear()) >= 0) {
                sum.update(buf.flip());
            }
        }
        assertEquals(size, sum.length(), "bytes read back");
        assertEquals(Content.DEFAULT.checksum(size), sum.value(), "checksum of the file");
        byte[] expected = new byte[(int) size];
        Content.DEFAULT.fill(0, expected, 0, expected.length);
        byte[] actual = Files.readAllBytes(file);
        int at = Arrays.mismatch(expected, actual);
        assertTrue(at < 0, () -> "first wrong byte at offset " + at);
    }
}
