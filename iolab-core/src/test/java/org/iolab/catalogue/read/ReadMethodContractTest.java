package org.iolab.catalogue.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.ReadMethod;
import org.iolab.content.Content;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every read method must return the checksum of the whole file, for awkward sizes and buffer sizes. */
class ReadMethodContractTest {
    private static final int[] BUFFERS = {1, 4096, 8205};
    /** Buffer size 1 makes every method do one call per byte, so only on small files. */
    private static final long BUFFER_ONE_LIMIT = 64 * 1024;
    /** Methods that make one system call per byte run only on files up to this size. */
    private static final long SYSCALL_PER_BYTE_LIMIT = 1 << 20;
    private static final Set<String> SYSCALL_PER_BYTE = Set.of("fis-byte", "raf-byte", "filereader-char");

    @TempDir
    static Path dir;

    private static final Map<Long, Path> FILES = new ConcurrentHashMap<>();

    private static Path file(long size) throws IOException {
        Path existing = FILES.get(size);
        if (existing == null) {
            existing = TestFiles.write(dir.resolve("content-" + size), size, 1 << 16);
            FILES.put(size, existing);
        }
        return existing;
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (ReadMethod method : Catalogue.reads()) {
            MethodInfo info = method.info();
            for (int buffer : BUFFERS) {
                Set<Long> sizes = new LinkedHashSet<>(List.of(0L, 1L, buffer - 1L, (long) buffer, buffer + 1L,
                        3L * buffer + 7, 1_000_003L));
                for (long size : sizes) {
                    if (buffer == 1 && size > BUFFER_ONE_LIMIT) {
                        continue;
                    }
                    if (SYSCALL_PER_BYTE.contains(info.id()) && size > SYSCALL_PER_BYTE_LIMIT) {
                        continue;
                    }
                    // a method that ignores the buffer size needs each file size once
                    String key = info.id() + "/" + size + "/" + (info.usesBuffer() ? buffer : 0);
                    if (seen.add(key)) {
                        cases.add(Arguments.of(info.id(), size, buffer));
                    }
                }
            }
        }
        return cases.stream();
    }

    private static long read(ReadMethod method, Path file, int buffer) throws IOException {
        try {
            return method.read(file, buffer);
        } catch (IolabException e) {
            // O_DIRECT needs a disk file system; a tmpfs temporary directory cannot test it
            Assumptions.assumeFalse(method.info().id().equals("odirect")
                    && e.getMessage().contains("O_DIRECT is not supported"), e.getMessage());
            throw e;
        }
    }

    @ParameterizedTest(name = "{0} size={1} buffer={2}")
    @MethodSource("cases")
    void readsTheWholeFile(String id, long size, int buffer) throws IOException {
        ReadMethod method = Catalogue.read(id);
        long got = read(method, file(size), buffer);
        assertEquals(Content.DEFAULT.checksum(size), got,
                () -> "method " + id + " on a file of " + size + " bytes with buffer size " + buffer);
    }

    static Stream<String> ids() {
        return Catalogue.reads().stream().map(m -> m.info().id());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ids")
    void oneChangedByteChangesTheChecksum(String id) throws IOException {
        ReadMethod method = Catalogue.read(id);
        long size = 3 * 4096 + 7;
        long expected = Content.DEFAULT.checksum(size);
        for (long at : new long[] {0, 5000, size - 1}) {
            Path file = dir.resolve(id + "-changed-" + at);
            TestFiles.write(file, size, 4096);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {(byte) (Content.DEFAULT.byteAt(at) ^ 0x10)}), at);
            }
            assertNotEquals(expected, read(method, file, 4096),
                    () -> "method " + id + " missed a changed byte at offset " + at + " of " + size);
            Files.delete(file);
        }
    }

    @Test
    void catalogueListsEveryReadMethodInOrder() {
        assertEquals(List.of("fis-byte", "fis-array", "bis-byte", "bis-array", "raf-byte", "raf-array",
                        "channel-heap-byte", "channel-heap-array", "channel-wrapped", "channel-direct-byte",
                        "channel-direct-array", "mapped-byte", "mapped-array", "filereader", "filereader-char",
                        "bufferedreader", "segment-mapped", "channel-positional", "transferto", "odirect",
                        "files-newinputstream"),
                ids().toList());
        for (ReadMethod m : Catalogue.reads()) {
            assertTrue(m.info().kind() == Kind.READ || m.info().kind() == Kind.READ_CHARS, m.info().id());
            assertEquals(m.info().id().startsWith("filereader") || m.info().id().equals("bufferedreader"),
                    m.info().kind() == Kind.READ_CHARS, m.info().id());
        }
    }
}
