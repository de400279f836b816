package org.iolab.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.iolab.report.analysis.Advisor;
import org.iolab.report.analysis.StoreTargets;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.RunData;
import org.iolab.report.model.TargetCheck;
import org.iolab.report.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The store section, rendered from {@code store/results.json}, written by {@code ./iolab bench --workload store
 * --profile smoke --runs 3 --engines iolab,lmdb,sqlite,bruno-mbb --phases put,scan,reopen --durability
 * none,batch,always --records 1000}.
 */
class StoreReportTest {
    static Path sample() throws Exception {
        return Path.of(StoreReportTest.class.getResource("store/results.json").toURI());
    }

    private static Element section(Document doc, String title) {
        String id = "s" + (HtmlReport.SECTIONS.indexOf(title) + 1);
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
            if (t.getAttribute("class").equals(cssClass)) {
                return t;
            }
        }
        throw new AssertionError("no table " + cssClass + " in " + in.getAttribute("id"));
    }

    private static List<String> rowTexts(Element table) {
        NodeList rows = table.getElementsByTagName("tr");
        return java.util.stream.IntStream.range(1, rows.getLength()).mapToObj(i -> rows.item(i).getTextContent())
                .toList();
    }

    @Test
    void theStoreSectionHasATablePerDurabilityTheTargetsAndTheChart(@TempDir Path out) throws Exception {
        RunData run = RunData.load(sample());
        List<Measurement> store = run.results().store();
        assertFalse(store.isEmpty());
        assertTrue(run.results().measurements().isEmpty() && run.results().journal().isEmpty());
        Document doc = HtmlReportTest.parse(Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8));
        Element section = section(doc, "The store");
        assertEquals(StoreTargets.check(run).size(), rowTexts(table(section, "store-targets")).size());
        for (String d : List.of("none", "batch", "always")) {
            Set<String> engines = store.stream().filter(m -> d.equals(m.durability())).map(Measurement::method)
                    .collect(Collectors.toSet());
            List<String> rows = rowTexts(table(section, "store-" + d + "-1000"));
            // one row per engine, then iolab's ratios to the best peer
            assertEquals(engines.size() + 1, rows.size(), rows.toString());
            assertTrue(rows.getLast().startsWith("iolab vs best peer"), rows.getLast());
            for (Measurement m : store.stream().filter(m -> d.equals(m.durability())).toList()) {
                String row = rows.stream().filter(r -> r.startsWith(m.method())).findFirst().orElseThrow();
                assertTrue(row.contains(StoreTargets.figure(m.stats())), m.label() + " in " + row);
            }
        }
        // the best peer of each phase is marked: lmdb and sqlite are the only peers of the sample
        String none = table(section, "store-none-1000").getTextContent();
        assertEquals(3, none.chars().filter(c -> c == '★').count(), "one mark per phase: " + none);
        assertEquals(1, section.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength());
        assertTrue(Files.size(out.resolve("charts").resolve(Charts.STORE_PHASES + ".png")) > 0);
        Element charts = section(doc, "Charts");
        assertFalse(charts.getTextContent().contains("Store: time per phase"), "drawn in the store section only");
        assertTrue(section(doc, "The answer").getTextContent().contains(Advisor.EMBEDDED_STORE));
    }

    @Test
    void theSampleMeasuresEveryTargetButTheSkippedPhases() throws Exception {
        List<TargetCheck> checks = StoreTargets.check(RunData.load(sample()));
        for (TargetCheck c : checks) {
            boolean skipped = c.target().startsWith("get") || c.target().startsWith("delete")
                    || c.target().startsWith("reinsert");
            assertEquals(skipped, c.verdict() == Verdict.NOT_MEASURED, c.toString());
            if (!skipped) {
                assertTrue(c.ratio() > 0, c.toString());
            }
        }
        TargetCheck size = checks.stream().filter(c -> c.target().startsWith(StoreTargets.SIZE_TARGET)).findFirst()
                .orElseThrow();
        assertTrue(size.comparator().startsWith("live data "), size.comparator());
    }

    @Test
    void aRunWithoutTheStoreNamesTheOption(@TempDir Path out) throws Exception {
        RunData run = RunData.load(HtmlReportTest.sample());
        Document doc = HtmlReportTest.parse(Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8));
        Element store = section(doc, "The store");
        assertTrue(store.getTextContent().contains("--workload store"), store.getTextContent());
        assertEquals(0, store.getElementsByTagName("table").getLength());
    }
}
