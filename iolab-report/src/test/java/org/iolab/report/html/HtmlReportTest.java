package org.iolab.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Renders the report from a small results file made by iolab (src/test/resources) and checks the page. */
class HtmlReportTest {
    private static final String SVG_NS = "http://www.w3.org/2000/svg";

    static Path sample() throws URISyntaxException {
        return Path.of(HtmlReportTest.class.getResource("quick/results.json").toURI());
    }

    static Document parse(String html) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        f.setExpandEntityReferences(false);
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(null);
        return b.parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aRenderIntoAFolderReplacesTheLastOneAndLeavesNothingElse(@TempDir Path out) throws Exception {
        RunData run = RunData.load(sample());
        Files.createDirectories(out.resolve("charts"));
        // a chart an earlier rendering drew (this run has no store phase to draw)
        Files.writeString(out.resolve("charts/store-phases.svg"), "<svg/>");
        Files.writeString(out.resolve("charts/notes.txt"), "mine");
        Files.writeString(out.resolve("charts/holiday.png"), "mine too"); // not a chart a report draws
        HtmlReport.write(run, out);
        HtmlReport.write(run, out);
        try (var top = Files.list(out)) {
            assertEquals(List.of("charts", "report.html"),
                    top.map(f -> f.getFileName().toString()).sorted().toList(), "no staging folder is left");
        }
        assertFalse(Files.exists(out.resolve("charts/store-phases.svg")), "a stale chart is removed");
        assertTrue(Files.exists(out.resolve("charts/notes.txt")), "what is not a chart is not touched");
        assertEquals("mine too", Files.readString(out.resolve("charts/holiday.png")),
                "an image the report did not draw is not touched");
        try (var charts = Files.list(out.resolve("charts"))) {
            for (Path f : charts.toList()) {
                String n = f.getFileName().toString();
                assertTrue(n.equals("notes.txt") || n.equals("holiday.png") || Charts.isChartFile(n),
                        n + " was drawn but is not known as a chart: a later rendering would not clean it up");
            }
        }
        try (var charts = Files.list(out.resolve("charts"))) {
            assertTrue(charts.anyMatch(f -> f.toString().endsWith(".png")));
        }
    }

    @Test
    void rendersEverySectionAsWellFormedSelfContainedPage(@TempDir Path out) throws Exception {
        RunData run = RunData.load(sample());
        assertFalse(run.limits().isEmpty(), "the sample has limits");
        Path page = HtmlReport.write(run, out);
        assertEquals(out.resolve("report.html"), page);
        String html = Files.readString(page, StandardCharsets.UTF_8);
        Document doc = parse(html); // strict XML: every tag closed, every entity known

        List<String> headings = new ArrayList<>();
        NodeList h2 = doc.getElementsByTagName("h2");
        for (int i = 0; i < h2.getLength(); i++) {
            headings.add(h2.item(i).getTextContent());
        }
        assertEquals(HtmlReport.SECTIONS.size(), headings.size(), headings.toString());
        for (int i = 0; i < headings.size(); i++) {
            assertTrue(headings.get(i).endsWith(HtmlReport.SECTIONS.get(i)), headings.get(i));
        }

        NodeList svgs = doc.getElementsByTagNameNS(SVG_NS, "svg");
        assertTrue(svgs.getLength() >= 4, "inline charts: " + svgs.getLength());
        List<String> ids = new ArrayList<>();
        collectIds(doc.getDocumentElement(), ids);
        assertEquals(ids.size(), ids.stream().distinct().count(), "ids are unique in the page");

        Matcher remote = Pattern.compile("(?i)(src|href)\\s*=\\s*[\"']?\\s*(https?:)?//").matcher(html);
        assertFalse(remote.find(), () -> "remote reference: " + html.substring(remote.start(),
                Math.min(html.length(), remote.start() + 80)));
        assertFalse(html.toLowerCase().contains("url(http"), "no remote CSS resource");
        assertFalse(html.contains("@import"), "no imported CSS");
        assertFalse(html.contains("<script"), "no script");

        NodeList figures = doc.getElementsByTagName("figure");
        int drawn = 0;
        for (int i = 0; i < figures.getLength(); i++) {
            Element f = (Element) figures.item(i);
            if (f.getElementsByTagNameNS(SVG_NS, "svg").getLength() > 0) {
                String name = f.getAttribute("id").substring("chart-".length());
                for (String ext : List.of(".png", ".svg")) {
                    Path file = out.resolve("charts").resolve(name + ext);
                    assertTrue(Files.isRegularFile(file) && Files.size(file) > 1000, file + " exists, not empty");
                }
                drawn++;
            }
        }
        assertTrue(drawn >= 4, "charts drawn: " + drawn);
        byte[] png = Files.readAllBytes(out.resolve("charts/read-methods.png"));
        assertEquals((byte) 0x89, png[0], "a PNG file");
        assertEquals('P', png[1]);

        assertTrue(tableCells(doc, "results").stream().anyMatch(c -> c.startsWith("served from memory")),
                "a warm read faster than the device is labelled served from memory");
        String answer = section(doc, "s1");
        assertTrue(answer.contains("sequential read (warm)"), answer);
        assertTrue(answer.contains("× C "), "ratio to C in the answer: " + answer);
        assertTrue(section(doc, "s8").contains("Thompson"), "claims table");
        assertTrue(section(doc, "s9").contains("./iolab bench --methods"), "the command to reproduce");
    }

    @Test
    void chartsWithoutDataSayWhichOptionMeasuresThem(@TempDir Path out) throws Exception {
        ResultSet all = ResultSet.load(sample());
        ResultSet writesOnly = new ResultSet(all.source(), all.where(m -> m.bench() == Bench.WRITE));
        String html = Files.readString(HtmlReport.write(new RunData(writesOnly, List.of(), List.of(), List.of()),
                out), StandardCharsets.UTF_8);
        Document doc = parse(html);
        String charts = section(doc, "s4");
        assertTrue(charts.contains("Not drawn: No read method was measured warm at two or more buffer sizes"),
                charts);
        assertTrue(charts.contains("--buffers"), charts);
        assertTrue(charts.contains("No random access was measured"), charts);
        assertEquals(1, doc.getElementsByTagNameNS(SVG_NS, "svg").getLength(), "only the write chart");
        assertTrue(section(doc, "s3").contains("No C or fio baseline"), "no limits: says so");
    }

    @Test
    void warmUpPassesAreDrawnBeforeTheMeasuredOnes(@TempDir Path out) throws Exception {
        Measurement m = new Measurement(Bench.READ, "fis-array", null, 8192, true, 1 << 20, "warm", null, false, 0,
                0, "B/s", List.of(2e9, 2.1e9, 2.2e9), List.of(4e8, 1.5e9), "25");
        List<Figure> figures = Charts.render(new ResultSet(out.resolve("r.json"), List.of(m)), out);
        Figure passes = figures.stream().filter(f -> f.name().equals("passes")).findFirst().orElseThrow();
        assertTrue(passes.present());
        assertTrue(passes.caption().contains("warm-up"), passes.caption());
        assertTrue(parse(passes.svg()).getDocumentElement().getLocalName().equals("svg"));
    }

    @Test
    void escapesText() {
        assertEquals("&lt;b class=&quot;x&quot;&gt;a &amp; b&#39;s&lt;/b&gt;", Text.esc("<b class=\"x\">a & b's</b>"));
        assertEquals("ab", Text.esc("a\u0000b"), "control characters are dropped (not allowed in XML)");
        assertEquals("", Text.esc(null));
    }

    private static void collectIds(Element e, List<String> ids) {
        if (e.hasAttribute("id")) {
            ids.add(e.getAttribute("id"));
        }
        NodeList children = e.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element c) {
                collectIds(c, ids);
            }
        }
    }

    private static String section(Document doc, String id) {
        NodeList sections = doc.getElementsByTagName("section");
        for (int i = 0; i < sections.getLength(); i++) {
            Element s = (Element) sections.item(i);
            if (s.getAttribute("id").equals(id)) {
                return s.getTextContent();
            }
        }
        throw new AssertionError("no section " + id);
    }

    private static List<String> tableCells(Document doc, String tableClass) {
        List<String> cells = new ArrayList<>();
        NodeList tables = doc.getElementsByTagName("table");
        for (int i = 0; i < tables.getLength(); i++) {
            Element t = (Element) tables.item(i);
            if (t.getAttribute("class").equals(tableClass)) {
                NodeList td = t.getElementsByTagName("td");
                for (int j = 0; j < td.getLength(); j++) {
                    cells.add(td.item(j).getTextContent());
                }
            }
        }
        return cells;
    }
}
