package org.iolab.report.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file is replaced whole or left as it was, with no temporary file behind. */
class WholeFileTest {
    @TempDir
    Path dir;

    @Test
    void aWriteThatFailsPartWayLeavesTheOldFileAndNothingElse() throws IOException {
        Path f = Files.writeString(dir.resolve("limits.json"), "old");
        assertThrows(IOException.class, () -> WholeFile.write(f, out -> {
            out.write("half of the new".getBytes(StandardCharsets.UTF_8));
            throw new IOException("No space left on device");
        }));
        assertEquals("old", Files.readString(f));
        try (var in = Files.list(dir)) {
            assertEquals(List.of(f), in.toList(), "no temporary file left");
        }
    }

    /** Results were written readable by their owner only (a temporary file's 0600), whatever the umask. */
    @Test
    void theFileGetsTheDefaultPermissionsOfANewFile() throws IOException {
        Path plain = Files.createFile(dir.resolve("plain"));
        Path f = dir.resolve("results.json");
        WholeFile.write(f, out -> out.write('x'));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(f));
        assertEquals(List.of("plain", "results.json"), names(), "no temporary file left");
    }

    private List<String> names() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aBodyThatClosesItsStreamStillGetsItsBytesSynced() throws IOException {
        // Jackson closes the stream it writes to: the sync after it must still find the file open
        Path f = dir.resolve("machine.json");
        WholeFile.write(f, out -> ResultSet.JSON.writeValue(out, List.of(new Fact("cpu", "x"))));
        assertEquals(List.of(new Fact("cpu", "x")), ResultSet.JSON.readValue(f.toFile(),
                new com.fasterxml.jackson.core.type.TypeReference<List<Fact>>() { }));
        try (var in = Files.list(dir)) {
            assertEquals(List.of(f), in.toList());
        }
    }
}
