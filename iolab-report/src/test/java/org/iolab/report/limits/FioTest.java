package org.iolab.report.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.iolab.IolabException;
import org.iolab.report.model.Limit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FioTest {
    private static String sample(String name) throws IOException {
        try (InputStream in = FioTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void parsesReadBandwidth() throws IOException {
        Limit l = Fio.parse(sample("fio-read-buffered.json"), Fio.READ_BUFFERED, 1 << 20, 16 << 20, "cold",
                Fio.COLD_NOTE);
        assertEquals("fio", l.tool());
        assertEquals(Fio.READ_BUFFERED, l.operation());
        assertEquals(List.of(1_525_201_454.0), l.passes());
        assertEquals(1 << 20, l.blockSize());
        assertEquals(16 << 20, l.fileSize());
        assertEquals("cold", l.cache());
        assertNull(l.checksum());
    }

    @Test
    void parsesWriteBandwidthIgnoringLeadingWarnings() throws IOException {
        String json = "fio: some warning\n" + sample("fio-write-direct.json");
        Limit l = Fio.parse(json, Fio.WRITE_DIRECT, 1 << 20, 16 << 20, null, Fio.WRITE_NOTE);
        assertEquals(List.of(2_396_745_142.0), l.passes());
        assertNull(l.cache());
    }

    @Test
    void aReadSampleHasNoWriteBandwidth() throws IOException {
        String json = sample("fio-read-buffered.json");
        IolabException e = assertThrows(IolabException.class,
                () -> Fio.parse(json, Fio.WRITE_BUFFERED, 4096, 16 << 20, null, ""));
        assertTrue(e.getMessage().contains("write.bw_bytes"), e::getMessage);
    }

    @Test
    void aFailedJobIsAnError() throws IOException {
        String json = sample("fio-error.json");
        IolabException e = assertThrows(IolabException.class,
                () -> Fio.parse(json, Fio.READ_DIRECT, 1000, 16 << 20, "cold", ""));
        assertTrue(e.getMessage().contains("error 22"), e::getMessage);
        assertTrue(e.getMessage().contains("O_DIRECT"), e::getMessage);
    }

    @Test
    void badInputIsAnError() {
        assertThrows(IolabException.class, () -> Fio.parse("fio: command not found", Fio.READ_DIRECT, 4096, 1,
                "cold", ""));
        assertThrows(IolabException.class, () -> Fio.parse("{\"jobs\": [}", Fio.READ_DIRECT, 4096, 1, "cold", ""));
        assertThrows(IolabException.class, () -> Fio.parse("{}", Fio.READ_DIRECT, 4096, 1, "cold", ""));
        assertTrue(assertThrows(IolabException.class, () -> Fio.parse("{}", "randread", 4096, 1, "cold", ""))
                .getMessage().contains("randread"));
    }

    @Test
    void realRunGivesPositiveBandwidths(@TempDir Path dir) throws IOException {
        Assumptions.assumeTrue(Fio.available(), "fio is not installed");
        List<String> notes = new ArrayList<>();
        List<Limit> limits = Fio.measure(dir, 16 << 20, List.of(1L << 20, 1000L), 1, notes::add);
        Set<String> kinds = limits.stream().map(l -> l.operation() + "/" + l.cache() + "/" + l.blockSize())
                .collect(Collectors.toSet());
        for (String op : List.of("write-buffered/null/1048576", "read-buffered/cold/1048576",
                "read-buffered/warm/1048576", "write-buffered/null/1000", "read-buffered/cold/1000")) {
            assertTrue(kinds.contains(op), op + " in " + kinds + ", notes " + notes);
        }
        // O_DIRECT may be refused by the filesystem (tmpfs); then it is a note, not a result
        assertTrue(kinds.contains("read-direct/cold/1048576")
                || notes.stream().anyMatch(n -> n.contains("read-direct")), () -> kinds + " " + notes);
        assertTrue(notes.stream().anyMatch(n -> n.contains("block size 1000")), notes::toString);
        for (Limit l : limits) {
            assertEquals("fio", l.tool());
            assertEquals(1, l.passes().size());
            assertTrue(l.passes().get(0) > 0, l::toString);
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "fio's file is deleted");
        }
    }

    @Test
    void journalComparatorsWriteAtTheRecordSizeWithAndWithoutTheBatchCadence(@TempDir Path dir) throws IOException {
        Assumptions.assumeTrue(Fio.available(), "fio is not installed");
        List<String> notes = new ArrayList<>();
        // 4 KiB file; 64 KiB records need at least 16 records, so that job writes 1 MiB
        List<Limit> limits = Fio.measureJournal(dir, 4096, List.of(64L, 65536L), 1024, 2, notes::add);
        assertTrue(notes.isEmpty(), notes::toString);
        assertEquals(4, limits.size(), limits::toString);
        for (Limit l : limits) {
            assertEquals(2, l.passes().size(), l::toString);
            assertTrue(l.passes().stream().allMatch(v -> v > 0), l::toString);
            assertEquals(l.blockSize() == 64 ? 4096 : 16 * 65536, l.fileSize());
        }
        Limit synced = limits.stream().filter(l -> l.blockSize() == 64
                && l.operation().equals(Fio.JOURNAL_WRITE_FDATASYNC)).findFirst().orElseThrow();
        assertTrue(synced.note().startsWith("--fdatasync=16 "), synced.note());
        Limit big = limits.stream().filter(l -> l.blockSize() == 65536
                && l.operation().equals(Fio.JOURNAL_WRITE_FDATASYNC)).findFirst().orElseThrow();
        assertTrue(big.note().startsWith("--fdatasync=1 "), "a record larger than the threshold syncs every write");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "fio's file is deleted");
        }
        assertThrows(IolabException.class, () -> Fio.measureJournal(dir, 4096, List.of(64L), 0, 1, notes::add));
    }

    @Test
    void theDeviceSyncJobIsAWriteWhoseRateIsBytesOverTheBlock() {
        String json = "{\"jobs\":[{\"error\":0,\"write\":{\"bw_bytes\":16384000,\"iops\":4000.0},"
                + "\"sync\":{\"total_ios\":12000}}]}";
        Limit l = Fio.parse(json, Fio.STORE_WRITE_FDATASYNC, Fio.STORE_BLOCK, 64L << 20, null, "n");
        assertEquals(List.of(16_384_000.0), l.passes());
        assertEquals(4000.0, l.passes().getFirst() / l.blockSize(), 1e-9);
    }

    @Test
    void theDeviceSyncJobRunsForItsSecondsAndLeavesNoFile(@TempDir Path dir) throws IOException {
        Assumptions.assumeTrue(Fio.available(), "fio is not installed");
        List<String> notes = new ArrayList<>();
        // 1 MiB at most: on a fast device the size ends the pass before the second
        Limit l = Fio.measureDeviceSync(dir, 1 << 20, 1, 2, notes::add).orElseThrow(() -> new AssertionError(notes));
        assertTrue(notes.isEmpty(), notes::toString);
        assertEquals(Fio.STORE_WRITE_FDATASYNC, l.operation());
        assertEquals(4096, l.blockSize());
        assertEquals(2, l.passes().size(), l::toString);
        assertTrue(l.passes().stream().allMatch(v -> v > 0), l::toString);
        assertTrue(l.note().contains("--fdatasync=1 (every write)"), l.note());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "fio's file is deleted");
        }
        assertThrows(IolabException.class, () -> Fio.measureDeviceSync(dir, 4096, 1, 1, notes::add),
                "less than 16 blocks");
        assertThrows(IolabException.class, () -> Fio.measureDeviceSync(dir, 1 << 20, 0, 1, notes::add));
    }
}
