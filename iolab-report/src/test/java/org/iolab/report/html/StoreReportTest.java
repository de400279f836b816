package org.iolab.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.iolab.report.analysis.Advisor;
import org.iolab.report.analysis.StoreTargets;
import org.iolab.report.limits.Fio;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.PutLatency;
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
    void thePerPutLatencyTableShowsEachEnginesPercentilesAndItsRatioToTheDevice(@TempDir Path out) throws Exception {
        RunData sample = RunData.load(sample());
        List<Limit> limits = new ArrayList<>(sample.limits());
        limits.add(new Limit("fio", Fio.STORE_WRITE_FDATASYNC, 4096, 64L << 20, null,
                List.of(4096 * 4000.0, 4096 * 3900.0, 4096 * 3800.0), null,
                "4 KiB writes, --fdatasync=1 (every write), --runtime=3 or 64 MiB, new file"));
        List<PutLatency> latency = List.of(
                new PutLatency("sqlite", "always", PutLatency.PUT, 2000, 200, 1950, 450e3, 600e3, 1.2e6, 2.5e6, 4e6,
                        500e3),
                new PutLatency("iolab", "batch", PutLatency.DURABLE, 2000, 200, 250e3, 2.1e6, 2.8e6, 3.4e6, 4e6,
                        4.5e6, 2.2e6),
                new PutLatency("iolab", "always", PutLatency.PUT, 2000, 200, 3900, 230e3, 300e3, 518e3, 1.1e6, 2e6,
                        250e3),
                new PutLatency("iolab", "batch", PutLatency.PUT, 2000, 200, 250e3, 2.5e3, 3e3, 9e3, 30e3, 80e3, 4e3));
        RunData run = new RunData(sample.results(), sample.machine(), limits, sample.notes(), List.of(), latency);
        Document doc = HtmlReportTest.parse(Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8));
        Element section = section(doc, "The store");
        List<String> rows = rowTexts(table(section, "store-latency"));
        assertEquals(4, rows.size(), rows.toString());
        // by level as everywhere in the report (batch before always), iolab before the peers, put before durable
        assertTrue(rows.get(0).startsWith("iolabbatchput returned") && rows.get(0).endsWith("-"), rows.get(0));
        assertTrue(rows.get(1).startsWith("iolabbatchput durable") && rows.get(1).contains("3.40 ms"), rows.get(1));
        assertTrue(rows.get(2).startsWith("iolabalwaysput returned2000") && rows.get(2).contains("3.90 k puts/s")
                && rows.get(2).contains("518 µs") && rows.get(2).endsWith("1.00x"), rows.get(2));
        assertTrue(rows.get(3).startsWith("sqlitealways") && rows.get(3).contains("1.20 ms")
                && rows.get(3).endsWith("0.50x"), rows.get(3));
        String text = section.getTextContent();
        assertTrue(text.contains("ran at 3.90 k writes/s (3.80 k writes/s – 4.00 k writes/s, 3 passes)"), text);
        TargetCheck always = StoreTargets.check(run).stream().filter(c -> c.target().equals(StoreTargets.ALWAYS_TARGET))
                .findFirst().orElseThrow();
        assertTrue(always.journal().contains("p99 518 µs"), always.journal());
        assertTrue(rowTexts(table(section, "store-targets")).stream().anyMatch(r -> r.contains("p99 518 µs")));
    }

    @Test
    void withoutLatencyRunsOrFioTheSectionSaysSo(@TempDir Path out) throws Exception {
        Document doc = HtmlReportTest.parse(Files.readString(HtmlReport.write(RunData.load(sample()), out),
                StandardCharsets.UTF_8));
        String text = section(doc, "The store").getTextContent();
        assertTrue(text.contains("No per-put latency run in this run"), text);
        assertTrue(text.contains("The device's 4 KiB write+fdatasync rate was not measured"), text);
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
