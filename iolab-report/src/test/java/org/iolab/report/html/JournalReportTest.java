package org.iolab.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.report.analysis.Advisor;
import org.iolab.report.analysis.JournalTargets;
import org.iolab.report.analysis.Rates;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Latency;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The journal section, rendered from {@code journal/results.json}, written by {@code ./iolab bench --workload
 * journal --profile smoke --runs 3 --record-sizes 64,64k --backends segment,mapped --durability none,batch}
 * (with the write-then-sync passes of segment at both levels and sizes).
 */
class JournalReportTest {
    static Path sample() throws Exception {
        return Path.of(JournalReportTest.class.getResource("journal/results.json").toURI());
    }

    private static Element section(Document doc, String id) {
        NodeList sections = doc.getElementsByTagName("section");
        for (int i = 0; i < sections.getLength(); i++) {
            Element s = (Element) sections.item(i);
            if (id.equals(s.getAttribute("id"))) {
                return s;
            }
        }
        throw new AssertionError("no section " + id);
    }

    private static Element table(Element in, String cssClass) {
        NodeList tables = in.getElementsByTagName("table");
        for (int i = 0; i < tables.getLength(); i++) {
            Element t = (Element) tables.item(i);
            if (t.getAttribute("class").contains(cssClass)) {
                return t;
            }
        }
        throw new AssertionError("no table " + cssClass + " in " + in.getAttribute("id"));
    }

    private static int rows(Element table) {
        return table.getElementsByTagName("tr").getLength() - 1;
    }

    @Test
    void theJournalSectionShowsEveryPointTargetAndComparator(@TempDir Path out) throws Exception {
        RunData run = RunData.load(sample());
        String html = Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8);
        Document doc = HtmlReportTest.parse(html);
        int n = HtmlReport.SECTIONS.indexOf("The journal") + 1;
        Element journal = section(doc, "s" + n);
        List<Measurement> points = run.results().journal();
        long appends = points.stream().filter(m -> m.bench() == Bench.JOURNAL_APPEND).count();
        assertEquals(appends, rows(table(journal, "journal-appends")));
        long replays = points.stream().filter(m -> m.bench().replay()).count();
        assertEquals(replays, rows(table(journal, "journal-replay")));
        List<Measurement> bulk = points.stream().filter(m -> m.bench() == Bench.JOURNAL_BULK).toList();
        assertEquals(points.size(), appends + replays + bulk.size(), "three kinds of journal point");
        Element bulkTable = table(journal, "journal-bulk");
        assertEquals(bulk.size(), rows(bulkTable));
        String bulkText = bulkTable.getTextContent();
        for (Measurement m : bulk) {
            assertTrue(bulkText.contains(Rates.format(m.byteStats().median(), "B/s")), m.label());
        }
        for (var l : run.limits()) {
            // fio's buffered and fdatasync figures sit beside the passes of the same record size
            assertTrue(bulkText.contains(Rates.format(l.stats().median(), "B/s")), l.operation() + " " + l.blockSize());
        }
        assertEquals(JournalTargets.check(run).size(), rows(table(journal, "targets")));
        long fio = run.limits().stream().filter(l -> l.operation().startsWith("journal-")).count();
        assertTrue(fio > 0, "the sample run had fio");
        assertEquals(fio, rows(table(journal, "journal-fio")));
        String text = journal.getTextContent();
        for (Measurement m : points) {
            assertTrue(text.contains(m.bench() == Bench.JOURNAL_BULK ? Rates.format(m.byteStats().median(), "B/s")
                    : Rates.format(m.stats().median(), m.unit())), m.label());
        }
        assertTrue(text.contains("Chronicle Queue not measured"), "the note says why Chronicle is missing");
        // two backends at 64 B and 64 KiB: the chart is drawn, in this section, not among the charts
        assertEquals(1, journal.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength());
        assertTrue(Files.size(out.resolve("charts").resolve(Charts.JOURNAL_APPENDS + ".png")) > 0);
        Element charts = section(doc, "s" + (HtmlReport.SECTIONS.indexOf("Charts") + 1));
        assertFalse(charts.getTextContent().contains("Journal appends per second"));
        Element answer = section(doc, "s1");
        assertTrue(answer.getTextContent().contains(Advisor.JOURNAL_BACKEND), "the answer names a journal backend");
    }

    @Test
    void latencyRunsGetTheirTable(@TempDir Path out) throws Exception {
        RunData loaded = RunData.load(sample());
        Latency durable = new Latency("durable", "segment", "batch", 64, 50000, 150000, 2.1e5, 4e5, 1.52e6, 3e6,
                9e6, 3e5, 49990);
        RunData run = new RunData(loaded.results(), loaded.machine(), loaded.limits(), loaded.notes(),
                List.of(durable));
        Document doc = HtmlReportTest.parse(Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8));
        Element journal = section(doc, "s" + (HtmlReport.SECTIONS.indexOf("The journal") + 1));
        Element t = table(journal, "journal-latency");
        assertEquals(1, rows(t));
        String row = t.getElementsByTagName("tr").item(1).getTextContent();
        assertTrue(row.contains("1.52 ms") && row.contains("210 µs") && row.contains("50000/s"), row);
    }

    @Test
    void aRunWithoutTheJournalNamesTheOption(@TempDir Path out) throws Exception {
        RunData run = RunData.load(HtmlReportTest.sample());
        Document doc = HtmlReportTest.parse(Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8));
        Element journal = section(doc, "s" + (HtmlReport.SECTIONS.indexOf("The journal") + 1));
        assertTrue(journal.getTextContent().contains("--workload journal"), journal.getTextContent());
        assertEquals(0, journal.getElementsByTagName("table").getLength());
    }
}
