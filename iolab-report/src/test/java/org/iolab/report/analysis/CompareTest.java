package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.report.model.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareTest {
    private static Comparison ab() {
        return Compare.compare(List.of(ResultSet.load(Fixtures.path("compare-a.json")),
                ResultSet.load(Fixtures.path("compare-b.json"))));
    }

    private static Comparison.Row row(Comparison c, String method) {
        return c.rows().stream().filter(r -> r.label().startsWith(method + " ")).findFirst().orElseThrow();
    }

    @Test
    void rowsPerPointWithChangeAndSignificance() {
        Comparison c = ab();
        assertEquals(4, c.rows().size(), "3 in a, raf-seek only in b");
        Comparison.Row fis = row(c, "fis-array");
        assertEquals(Comparison.Status.BASELINE, fis.cells().get(0).status());
        assertEquals(Comparison.Status.SIGNIFICANT, fis.cells().get(1).status());
        assertEquals(22.2, fis.cells().get(1).changePercent(), 0.1);
        assertEquals(Comparison.Status.WITHIN_NOISE, row(c, "channel-heap-array").cells().get(1).status());
        Comparison.Row onlyA = row(c, "bis-skip");
        assertEquals(Comparison.Status.MISSING, onlyA.cells().get(1).status());
        Comparison.Row onlyB = row(c, "raf-seek");
        assertEquals(Comparison.Status.MISSING, onlyB.cells().get(0).status());
        assertEquals(Comparison.Status.NO_BASELINE, onlyB.cells().get(1).status());
    }

    @Test
    void alignedTable() {
        String t = Compare.table(ab());
        List<String> lines = t.lines().toList();
        assertEquals(5, lines.size(), t);
        assertTrue(lines.getFirst().contains("compare-a.json (baseline)"), t);
        int col = lines.getFirst().indexOf("compare-b.json");
        for (String l : lines.subList(1, lines.size())) {
            assertTrue(l.length() > col && l.charAt(col - 1) == ' ' && l.charAt(col) != ' ', "aligned:\n" + t);
        }
        assertTrue(t.contains("5.50 GB/s +22% significant"), t);
        assertTrue(t.contains("within noise"), t);
        assertTrue(t.contains("missing"), t);
    }

    /** A point whose run measured no pass reads "not measured", not "- -", and is no shared point. */
    @Test
    void aPointWithoutPassesIsNotMeasured(@TempDir Path tmp) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ArrayNode b = (ArrayNode) json.readTree(Fixtures.path("compare-b.json").toFile());
        for (JsonNode point : b) {
            ((ArrayNode) point.path("primaryMetric").path("rawData")).removeAll().addArray();
            ((ArrayNode) point.path("secondaryMetrics").path("throughput").path("rawData")).removeAll().addArray();
        }
        Path empty = tmp.resolve("compare-b.json");
        json.writeValue(empty.toFile(), b);
        Comparison c = Compare.compare(List.of(ResultSet.load(Fixtures.path("compare-a.json")),
                ResultSet.load(empty)));
        assertEquals(Comparison.Status.NOT_MEASURED, row(c, "fis-array").cells().get(1).status());
        assertEquals(false, c.anyShared(), "b measured nothing: no point to compare");
        String t = Compare.table(c);
        assertTrue(t.contains("not measured (no passes)") && !t.contains("- -"), t);
        Comparison reversed = Compare.compare(List.of(ResultSet.load(empty),
                ResultSet.load(Fixtures.path("compare-a.json"))));
        assertEquals(Comparison.Status.NO_BASELINE, row(reversed, "fis-array").cells().get(1).status());
    }

    /**
     * One pass a side has no spread to judge a change by: it was called "within noise", even a change of +233%
     * between two smoke runs (found by a review of the command line).
     */
    @Test
    void fewerThanThreePassesAreTooFewToTell(@TempDir Path tmp) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ArrayNode b = (ArrayNode) json.readTree(Fixtures.path("compare-b.json").toFile());
        for (JsonNode point : b) {
            for (JsonNode raw : List.of(point.path("primaryMetric").path("rawData"),
                    point.path("secondaryMetrics").path("throughput").path("rawData"))) {
                ArrayNode fork = (ArrayNode) raw.get(0);
                while (fork.size() > 1) {
                    fork.remove(fork.size() - 1);
                }
            }
        }
        Path one = tmp.resolve("compare-b.json");
        json.writeValue(one.toFile(), b);
        Comparison c = Compare.compare(List.of(ResultSet.load(Fixtures.path("compare-a.json")),
                ResultSet.load(one)));
        for (Comparison.Row r : c.rows()) {
            Comparison.Cell cell = r.cells().get(1);
            assertTrue(cell.status() == Comparison.Status.TOO_FEW_PASSES || cell.status() == Comparison.Status.NO_BASELINE
                    || cell.status() == Comparison.Status.MISSING, r.label() + ": " + cell.status());
        }
        String t = Compare.table(c);
        assertTrue(t.contains("too few passes to tell") && !t.contains("within noise") && !t.contains("significant"),
                t);
    }

    @Test
    void noFilesIsAnError() {
        assertThrows(IolabException.class, () -> Compare.compare(List.of()));
    }

    @Test
    void csvHasOneRowPerPass(@TempDir Path tmp) throws Exception {
        Path csv = tmp.resolve("a.csv");
        ResultSet a = ResultSet.load(Fixtures.path("compare-a.json"));
        Compare.writeCsv(a, csv);
        String text = Files.readString(csv);
        List<String> lines = List.of(text.split("\r\n"));
        assertEquals(Compare.CSV_HEADER, lines.getFirst());
        assertEquals(1 + 3 * 3, lines.size(), text);
        String[] first = lines.get(1).split(",", -1);
        assertEquals(Compare.CSV_HEADER.split(",").length, first.length, lines.get(1));
        assertEquals("0", first[first.length - 2], "no record count for files");
        assertEquals("", first[first.length - 1], "no phase for a file point");
        assertEquals("read", first[1]);
        assertEquals("fis-array", first[2]);
        assertEquals("8192", first[4]);
        assertEquals("warm", first[6]);
        assertEquals("1", first[12]);
        assertEquals("4400000000", first[13]);
        assertTrue(text.endsWith("\r\n"));
    }

    @Test
    void rfc4180Quoting() {
        assertEquals("plain", Compare.quote("plain"));
        assertEquals("\"a,b\"", Compare.quote("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", Compare.quote("say \"hi\""));
        assertEquals("\"two\nlines\"", Compare.quote("two\nlines"));
    }

    @Test
    void theCsvIsNeverWrittenThroughALinkBesideIt(@TempDir Path tmp) throws Exception {
        // the temporary file had a fixed name (a.csv.tmp): a link of that name sent the rows into the linked file
        Path precious = Files.writeString(tmp.resolve("precious.txt"), "mine");
        Files.createSymbolicLink(tmp.resolve("a.csv.tmp"), precious);
        Path csv = tmp.resolve("a.csv");
        Compare.writeCsv(ResultSet.load(Fixtures.path("compare-a.json")), csv);
        assertEquals("mine", Files.readString(precious));
        assertTrue(Files.isRegularFile(csv, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.readString(csv).startsWith("file,bench,method"));
    }

    @Test
    void unwritableCsvNamesTheFile(@TempDir Path tmp) {
        Path csv = tmp.resolve("missing-dir").resolve("a.csv");
        IolabException e = assertThrows(IolabException.class,
                () -> Compare.writeCsv(ResultSet.load(Fixtures.path("compare-a.json")), csv));
        assertTrue(e.getMessage().contains(csv.toString()), e.getMessage());
    }
}
