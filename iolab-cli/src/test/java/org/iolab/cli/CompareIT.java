package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code iolab compare} from target/iolab.jar. */
class CompareIT {
    private static final String ENTRY = "{\"benchmark\":\"org.iolab.bench.ReadBenchmark.pass\",\"params\":"
            + "{\"bufferSize\":\"8192\",\"cache\":\"warm\",\"fileSize\":\"268435456\",\"method\":\"%s\"},"
            + "\"secondaryMetrics\":{\"throughput\":{\"scoreUnit\":\"B/s\",\"rawData\":[[%s]]}}}";

    private static Path results(Path dir, String name, String... entries) throws Exception {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve(name), "[" + String.join(",", entries) + "]");
    }

    private static String entry(String method, String passes) {
        return ENTRY.formatted(method, passes);
    }

    @Test
    void twoFilesPrintTheTableAndCsv(@TempDir Path tmp) throws Exception {
        Path a = results(tmp.resolve("run1"), "results.json", entry("fis-array", "4.4e9,4.5e9,4.6e9"),
                entry("bis-array", "4.0e9,4.1e9,4.2e9"));
        Path b = results(tmp.resolve("run2"), "results.json", entry("fis-array", "5.4e9,5.5e9,5.6e9"),
                entry("raf-array", "4.0e9,4.1e9,4.2e9"));
        Path csv = tmp.resolve("csv");
        CliIT.Run r = CliIT.iolab(tmp, "compare", a.toString(), b.toString(), "--csv", csv.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("+22% significant"), r.out());
        assertTrue(r.out().contains("missing"), r.out());
        List<String> lines = Files.readAllLines(csv.resolve("run1.csv"));
        assertEquals(1 + 6, lines.size(), String.join("\n", lines));
        assertTrue(lines.getFirst().startsWith("file,bench,method,kind,bufferSize"), lines.getFirst());
        assertTrue(lines.get(1).contains(",read,fis-array,read,8192,268435456,warm,,false,0,0,B/s,1,4400000000"),
                lines.get(1));
        assertTrue(Files.isRegularFile(csv.resolve("run2.csv")));
        // again into the same directory: refused before anything is written (the CSVs were silently replaced)
        Files.writeString(csv.resolve("run1.csv"), "mine");
        Files.delete(csv.resolve("run2.csv"));
        CliIT.Run again = CliIT.iolab(tmp, "compare", a.toString(), b.toString(), "--csv", csv.toString());
        assertEquals(2, again.exit(), again.out() + again.err());
        assertTrue(again.err().contains("already holds run1.csv"), again.err());
        assertEquals("mine", Files.readString(csv.resolve("run1.csv")));
        assertFalse(Files.exists(csv.resolve("run2.csv")), "nothing written when one name is taken");
    }

    @Test
    void aMissingFileIsOneLineAndExitTwo(@TempDir Path tmp) throws Exception {
        Path a = results(tmp, "a.json", entry("fis-array", "4.4e9,4.5e9,4.6e9"));
        Path missing = tmp.resolve("nope.json");
        CliIT.Run r = CliIT.iolab(tmp, "compare", a.toString(), missing.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.getFirst().startsWith("iolab: ") && lines.getFirst().contains("nope.json"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());

        Path bad = Files.writeString(tmp.resolve("bad.json"), "{not json");
        CliIT.Run r2 = CliIT.iolab(tmp, "compare", a.toString(), bad.toString());
        assertEquals(2, r2.exit(), r2.out() + r2.err());
        assertTrue(r2.err().startsWith("iolab: ") && r2.err().contains("bad.json"), r2.err());
        assertEquals(1, r2.err().lines().filter(l -> !l.isBlank()).count(), r2.err());

        Path other = Files.writeString(tmp.resolve("other.json"), "[{\"benchmark\":\"org.example.Other.run\"}]");
        CliIT.Run r3 = CliIT.iolab(tmp, "compare", a.toString(), other.toString());
        assertEquals(2, r3.exit(), r3.out() + r3.err());
        assertTrue(r3.err().contains("other.json") && r3.err().contains("no iolab benchmark results"), r3.err());

        // no point in common: the table holds only "missing" cells, and the command said nothing and exited 0
        Path disjoint = results(tmp.resolve("run3"), "results.json", entry("raf-array", "4.0e9,4.1e9,4.2e9"));
        Path csv = tmp.resolve("csv");
        CliIT.Run r4 = CliIT.iolab(tmp, "compare", a.toString(), disjoint.toString(), "--csv", csv.toString());
        assertEquals(2, r4.exit(), r4.out() + r4.err());
        assertTrue(r4.err().contains("no point is in more than one of these files"), r4.err());
        try (var written = Files.list(csv)) {
            assertEquals(0, written.count(), "no CSV written for a comparison of nothing");
        }
    }
}
