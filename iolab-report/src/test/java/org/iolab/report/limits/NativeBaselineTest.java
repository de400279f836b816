package org.iolab.report.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.content.Content;
import org.iolab.report.model.Limit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeBaselineTest {
    private static final long[] SIZES = {0, 1, 7, 8, 9, 4095, 1_000_003};
    private static final long[] BUFFERS = {1, 7, 8192};
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private static Path binary;

    @BeforeAll
    static void build() {
        Assumptions.assumeTrue(NativeBaseline.compiler().isPresent(), "no C compiler on the PATH");
        binary = NativeBaseline.build(dir);
    }

    private static Path dataFile(long size) throws IOException {
        Path f = dir.resolve("data-" + size + ".dat");
        if (!Files.exists(f)) {
            byte[] bytes = new byte[(int) size];
            Content.DEFAULT.fill(0, bytes, 0, bytes.length);
            Files.write(f, bytes);
        }
        return f;
    }

    private static JsonNode run(String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of(binary.toString()));
        command.addAll(List.of(args));
        Processes.Output out = Processes.run(command, "the C baseline");
        assertEquals(0, out.exitCode(), () -> String.join(" ", command) + ": " + out.both());
        return JSON.readTree(out.stdout());
    }

    private static String expected(long size) {
        return String.format("%016x", Content.DEFAULT.checksum(size));
    }

    @Test
    void everyModeComputesJavasChecksum() throws IOException {
        for (long size : SIZES) {
            Path data = dataFile(size);
            String want = expected(size);
            JsonNode expect = run("expect", Long.toString(size));
            assertEquals(want, expect.get("checksum").asText(), "expect " + size);
            assertEquals(size, expect.get("bytes").asLong());
            JsonNode mmap = run("mmap", data.toString());
            assertEquals(want, mmap.get("checksum").asText(), "mmap " + size);
            assertEquals(size, mmap.get("bytes").asLong());
            for (long buffer : BUFFERS) {
                for (String mode : List.of("read", "fread")) {
                    JsonNode r = run(mode, data.toString(), Long.toString(buffer));
                    assertEquals(want, r.get("checksum").asText(), mode + " size " + size + " buffer " + buffer);
                    assertEquals(size, r.get("bytes").asLong());
                    assertEquals(mode, r.get("mode").asText());
                }
                Path written = dir.resolve("written.dat");
                JsonNode w = run("write", written.toString(), Long.toString(buffer), Long.toString(size));
                assertEquals(want, w.get("checksum").asText(), "write size " + size + " buffer " + buffer);
                assertEquals(Content.DEFAULT.checksum(size), checksumOf(Files.readAllBytes(written)),
                        "bytes written, size " + size + " buffer " + buffer);
                Files.delete(written);
            }
        }
    }

    private static long checksumOf(byte[] bytes) {
        org.iolab.checksum.Checksum64 c = new org.iolab.checksum.Checksum64();
        c.update(bytes, 0, bytes.length);
        return c.value();
    }

    @Test
    void measureGivesOneLimitPerModeBufferAndCache() throws IOException {
        long size = 1_000_003;
        Path data = dataFile(size);
        List<Limit> limits = NativeBaseline.measure(binary, data, size, List.of(7L, 8192L), List.of("warm", "cold"),
                2);
        assertEquals(2 * (2 * 2 + 1), limits.size(), limits::toString);
        for (Limit l : limits) {
            assertEquals("c", l.tool());
            assertEquals(2, l.passes().size());
            assertTrue(l.passes().stream().allMatch(p -> p > 0), l::toString);
            assertEquals(expected(size), l.checksum());
            assertEquals(size, l.fileSize());
            assertEquals(l.cache().equals("cold") ? NativeBaseline.COLD_NOTE : "", l.note());
            assertEquals(l.operation().equals("mmap"), l.blockSize() == 0, l::toString);
        }
        assertTrue(limits.stream().anyMatch(l -> l.operation().equals("fread") && l.cache().equals("cold")));
    }

    @Test
    void measureWriteChecksAndDeletesItsFile() throws IOException {
        Path out = Files.createDirectory(dir.resolve("write-out"));
        List<Limit> limits = NativeBaseline.measureWrite(binary, out, 65_536, List.of(4096L, 65_536L), 2);
        assertEquals(4, limits.size(), "two buffer sizes, synced and not");
        assertEquals(List.of("write", "write", "write-nosync", "write-nosync"),
                limits.stream().map(Limit::operation).toList());
        for (Limit l : limits) {
            assertNull(l.cache());
            assertEquals(2, l.passes().size());
            assertEquals(expected(65_536), l.checksum());
        }
        try (var files = Files.list(out)) {
            assertEquals(0, files.count(), "the write file is deleted");
        }
    }

    @Test
    void corruptedDataFileIsAnErrorNamingTheFile() throws IOException {
        Path bad = dir.resolve("corrupt.dat");
        byte[] bytes = new byte[10_000];
        Content.DEFAULT.fill(0, bytes, 0, bytes.length);
        bytes[5_000] ^= 1;
        Files.write(bad, bytes);
        IolabException e = assertThrows(IolabException.class, () -> NativeBaseline.measure(binary, bad,
                bytes.length, List.of(4096L), List.of("warm"), 1));
        assertTrue(e.getMessage().contains(bad.toString()), e::getMessage);
        assertTrue(e.getMessage().contains("checksum"), e::getMessage);
        assertTrue(e.getMessage().contains("read"), e::getMessage);
    }

    @Test
    void shortDataFileIsAnError() throws IOException {
        Path data = dataFile(4095);
        IolabException e = assertThrows(IolabException.class, () -> NativeBaseline.measure(binary, data, 4096,
                List.of(8192L), List.of("cold"), 1));
        assertTrue(e.getMessage().contains(data.toString()), e::getMessage);
    }

    @Test
    void badArgumentsNameTheParameter() throws IOException {
        Path data = dataFile(8);
        assertTrue(assertThrows(IolabException.class, () -> NativeBaseline.measure(binary, data, 8, List.of(8L),
                List.of("lukewarm"), 1)).getMessage().contains("lukewarm"));
        assertTrue(assertThrows(IolabException.class, () -> NativeBaseline.measure(binary, data, 8, List.of(0L),
                List.of("warm"), 1)).getMessage().contains("buffer size 0"));
        Path missing = dir.resolve("missing.dat");
        assertTrue(assertThrows(IolabException.class, () -> NativeBaseline.measure(binary, missing, 8,
                List.of(8L), List.of("warm"), 1)).getMessage().contains(missing.toString()));
    }

    @Test
    void compilerIsOneOfTheKnownNames() {
        String name = NativeBaseline.compiler().orElseThrow().getFileName().toString();
        assertTrue(NativeBaseline.COMPILERS.contains(name), name);
        assertFalse(Files.isDirectory(binary));
        assertTrue(Files.isExecutable(binary));
    }
}
