package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the report the shaded jar writes in headless Chromium: the charts are laid out with a real size and
 * the console stays clean. The top of the page is kept as target/report-screenshot.png.
 *
 * <p>Needs Chromium (apt-get install -y chromium); without it this fails, or is skipped with
 * -Diolab.browser.optional=true.
 */
class ReportBrowserIT {
    static final int MIN_CHARTS = 4;
    static final int MIN_SIDE = 100;

    static Path target() {
        return Path.of(System.getProperty("iolab.target", "target"));
    }

    @Test
    void reportHasChartsAndACleanConsole(@TempDir Path tmp) throws Exception {
        Path binary = Chromium.required();
        SmokeBench smoke = SmokeBench.get();
        Path benchOut = smoke.out();
        CliIT.Run bench = smoke.run();
        assertEquals(0, bench.exit(), bench.out() + bench.err());
        Path results = benchOut.resolve("results.json");
        assertTrue(Files.isRegularFile(results), results + "\n" + bench.out());

        Path reportOut = tmp.resolve("report");
        CliIT.Run report = CliIT.iolab(tmp, "report", results.toString(), "--out", reportOut.toString());
        assertEquals(0, report.exit(), report.out() + report.err());
        Path html = reportOut.resolve("report.html");
        assertTrue(Files.isRegularFile(html), html + "\n" + report.out() + report.err());

        Path shot = tmp.resolve("report.png");
        Chromium.Page page;
        Chromium.Page benchPage;
        try (Chromium browser = Chromium.start(binary)) {
            page = browser.open(html, shot);
            // bench writes the same report next to its results
            benchPage = browser.open(benchOut.resolve("report.html"), tmp.resolve("bench-report.png"));
        }
        Path kept = target().resolve("report-screenshot.png");
        Files.createDirectories(target());
        Files.copy(shot, kept, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("report.html: '" + page.title() + "', " + page.charts().size() + " charts, screenshot "
                + kept.toAbsolutePath());

        assertClean(page, html, MIN_CHARTS);
        assertClean(benchPage, benchOut.resolve("report.html"), MIN_CHARTS);
        ChromiumTest.assertScreenshot(kept, 1280, 900);
    }

    /** Enough charts, each laid out larger than MIN_SIDE both ways, and no console or loading problems. */
    static void assertClean(Chromium.Page page, Path html, int minCharts) {
        String charts = String.join("\n  ", page.charts().stream().map(Chromium.Chart::toString).toList());
        String problems = String.join("\n  ", page.problems());
        assertEquals(List.of(), page.problems(), page.problems().size()
                + " console errors, uncaught exceptions or failed loads in " + html + ":\n  " + problems + "\n");
        assertTrue(page.charts().size() >= minCharts, "at least " + minCharts + " charts in " + html + ", found "
                + page.charts().size() + ":\n  " + charts);
        for (Chromium.Chart c : page.charts()) {
            assertTrue(c.width() > MIN_SIDE && c.height() > MIN_SIDE && !c.broken(),
                    "every chart larger than " + MIN_SIDE + "x" + MIN_SIDE + " in " + html + ":\n  " + charts);
        }
    }
}
