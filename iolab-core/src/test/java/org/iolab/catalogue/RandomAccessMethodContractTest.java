package org.iolab.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.iolab.checksum.Checksum64;
import org.iolab.content.Content;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every random-access method returns the checksum of exactly the bytes of {@link Content#DEFAULT} it was asked for. */
class RandomAccessMethodContractTest {
    private static final long SIZE = 1_000_003;

    @TempDir
    static Path dir;
    private static Path file;

    @BeforeAll
    static void writeFile() throws IOException {
        file = dir.resolve("content.dat");
        byte[] bytes = new byte[(int) SIZE];
        Content.DEFAULT.fill(0, bytes, 0, bytes.length);
        Files.write(file, bytes);
    }

    static Stream<String> ids() {
        return Catalogue.randomAccess().stream().map(m -> m.info().id());
    }

    private static long[] fisherStride() {
        return LongStream.iterate(0, p -> p < SIZE, p -> p + 20_000).toArray();
    }

    /** Ascending, non-overlapping random offsets (a stream cannot go back). */
    private static long[] randomAscending(int length) {
        long[] raw = new Random(7).longs(300, 0, SIZE - length + 1).sorted().toArray();
        long[] kept = new long[raw.length];
        int n = 0;
        for (long p : raw) {
            if (n == 0 || p >= kept[n - 1] + length) {
                kept[n++] = p;
            }
        }
        return Arrays.copyOf(kept, n);
    }

    private static long probe(String id, Path target, long[] positions, int length) throws IOException {
        return Catalogue.randomAccess(id).probe(target, positions, length);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void fisherStrideOfOneByte(String id) throws IOException {
        long[] positions = fisherStride();
        assertEquals(Content.DEFAULT.checksumAt(positions, 1), probe(id, file, positions, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void randomAscendingPages(String id) throws IOException {
        long[] positions = randomAscending(4096);
        assertEquals(Content.DEFAULT.checksumAt(positions, 4096), probe(id, file, positions, 4096));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void firstAndLastByte(String id) throws IOException {
        long[] positions = {0, SIZE - 1};
        assertEquals(Content.DEFAULT.checksumAt(positions, 1), probe(id, file, positions, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void lastFullPage(String id) throws IOException {
        long[] positions = {5, SIZE - 4096};
        assertEquals(Content.DEFAULT.checksumAt(positions, 4096), probe(id, file, positions, 4096));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void noPositions(String id) throws IOException {
        assertEquals(new Checksum64().value(), probe(id, file, new long[0], 8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void noticesAChangedByte(String id) throws IOException {
        long[] positions = fisherStride();
        long changed = positions[positions.length / 2];
        Path copy = dir.resolve(id + "-changed.dat");
        Files.copy(file, copy);
        try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) (Content.DEFAULT.byteAt(changed) ^ 0x01)}), changed);
        }
        assertNotEquals(Content.DEFAULT.checksumAt(positions, 1), probe(id, copy, positions, 1));
        // the unchanged bytes next to it still match
        long[] around = {changed - 1, changed + 1};
        assertEquals(Content.DEFAULT.checksumAt(around, 1), probe(id, copy, around, 1));
    }
}
