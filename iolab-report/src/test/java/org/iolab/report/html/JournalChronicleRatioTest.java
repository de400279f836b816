package org.iolab.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Chronicle Queue never syncs: the journal section's Appends table sets its rate against NONE appends only, as the
 * targets do, never against a BATCH or ALWAYS append rate.
 */
class JournalChronicleRatioTest {
    private static Measurement append(Bench bench, String backend, String durability, double rate) {
        return new Measurement(bench, backend, null, 64, true, 0, null, null, false, 0, 0, "appends/s",
                List.of(rate, rate * 1.01, rate * 0.99), List.of(), "25", durability, 0);
    }

    @Test
    void aSyncedAppendRowGetsNoRatioToTheUnsyncedChronicle(@TempDir Path out) throws Exception {
        List<Measurement> journal = List.of(append(Bench.JOURNAL_APPEND, "segment", "none", 5e6),
                append(Bench.JOURNAL_APPEND, "segment", "always", 2e3),
                append(Bench.CHRONICLE_APPEND, "chronicle", null, 4e6));
        RunData run = new RunData(new ResultSet(out.resolve("results.json"), List.of(), journal), List.of(), List.of(),
                List.of());
        Document doc = HtmlReportTest.parse(Files.readString(HtmlReport.write(run, out), StandardCharsets.UTF_8));
        NodeList tables = doc.getElementsByTagName("table");
        Element appends = null;
        for (int i = 0; i < tables.getLength(); i++) {
            Element t = (Element) tables.item(i);
            if (t.getAttribute("class").contains("journal-appends")) {
                appends = t;
            }
        }
        assertNotNull(appends, "the journal's Appends table");
        NodeList rows = appends.getElementsByTagName("tr");
        int checked = 0;
        for (int i = 1; i < rows.getLength(); i++) {
            NodeList cells = ((Element) rows.item(i)).getElementsByTagName("td");
            String durability = cells.item(1).getTextContent();
            String vs = cells.item(cells.getLength() - 1).getTextContent();
            if (durability.equals("none")) {
                assertEquals("1.25x", vs, "NONE against Chronicle Queue");
            } else {
                assertEquals("-", vs, "a " + durability + " append rate divided by Chronicle's unsynced rate");
            }
            checked++;
        }
        assertEquals(2, checked, "append rows");
    }
}
