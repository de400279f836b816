package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code iolab report} on a results file made by iolab (iolab-report's test sample) and on bad input. */
class ReportIT {
    private static final Path SAMPLE = Path.of("..", "iolab-report", "src", "test", "resources", "org", "iolab",
            "report", "html", "quick").toAbsolutePath().normalize();

    @Test
    void rendersACopyOfTheSample(@TempDir Path tmp) throws Exception {
        Path run = Files.createDirectories(tmp.resolve("run"));
        for (String f : List.of("results.json", "machine.json", "limits.json", "notes.json")) {
            Files.copy(SAMPLE.resolve(f), run.resolve(f));
        }
        CliIT.Run r = CliIT.iolab(tmp, "report", run.resolve("results.json").toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("report: " + run.resolve("report.html")), r.out());
        assertTrue(Files.size(run.resolve("report.html")) > 10_000);
        assertTrue(Files.size(run.resolve("charts").resolve("read-vs-buffer.svg")) > 1000);
        assertTrue(Files.size(run.resolve("charts").resolve("read-vs-buffer.png")) > 1000);

        Path other = tmp.resolve("elsewhere");
        CliIT.Run o = CliIT.iolab(tmp, "report", run.resolve("results.json").toString(), "--out", other.toString());
        assertEquals(0, o.exit(), o.out() + o.err());
        assertTrue(Files.isRegularFile(other.resolve("report.html")));
    }

    @Test
    void missingOrWrongFileIsOneLineAndExitTwo(@TempDir Path tmp) throws Exception {
        Path missing = tmp.resolve("nope.json");
        Path notJmh = Files.writeString(tmp.resolve("other.json"), "{\"hello\": 1}");
        Path garbage = Files.writeString(tmp.resolve("garbage.json"), "not json at all");
        for (Path bad : List.of(missing, notJmh, garbage, tmp)) {
            CliIT.Run r = CliIT.iolab(tmp, "report", bad.toString());
            assertEquals(2, r.exit(), bad + ": " + r.out() + r.err());
            List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
            assertEquals(1, lines.size(), r.err());
            assertTrue(lines.getFirst().startsWith("iolab: "), lines.getFirst());
            assertTrue(lines.getFirst().contains(bad.getFileName().toString()), lines.getFirst());
            assertFalse(r.err().contains("\tat "), r.err());
        }
    }
}
