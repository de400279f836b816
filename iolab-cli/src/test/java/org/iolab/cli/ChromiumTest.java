package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** The browser helper itself, on hand-written pages: a clean one and one with every kind of problem. */
class ChromiumTest {
    private static Chromium browser;

    /** One browser for all tests, started by the first; each test fails (or is skipped) without Chromium. */
    private static Chromium browser() throws Exception {
        Path binary = Chromium.required();
        if (browser == null) {
            browser = Chromium.start(binary);
        }
        return browser;
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    static Path resource(String name) throws URISyntaxException {
        URL url = ChromiumTest.class.getResource("/browser/" + name);
        assertNotNull(url, name);
        return Path.of(url.toURI());
    }

    /** The PNG can be read, has the expected size, and is not blank: more than a handful of colours. */
    static void assertScreenshot(Path png, int width, int height) throws IOException {
        assertTrue(Files.isRegularFile(png), "screenshot " + png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "ImageIO reads " + png + " (" + Files.size(png) + " bytes)");
        assertEquals(width, image.getWidth(), "screenshot width");
        assertEquals(height, image.getHeight(), "screenshot height");
        int colours = distinctColours(image, 50);
        assertTrue(colours > 8, "screenshot is not blank: " + colours + " distinct colours in " + png);
    }

    private static int distinctColours(BufferedImage image, int enough) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                seen.add(image.getRGB(x, y));
                if (seen.size() >= enough) {
                    return seen.size();
                }
            }
        }
        return seen.size();
    }

    @Test
    void samplePageHasTwoChartsAndNoProblems(@TempDir Path tmp) throws Exception {
        Path html = resource("sample.html");
        Chromium.Page page = browser().open(html, tmp.resolve("sample.png"));
        assertEquals(List.of(), page.problems(), "console errors, exceptions, failed loads");
        ReportBrowserIT.assertClean(page, html, 2);
        assertEquals("iolab sample report", page.title());
        assertEquals(2, page.charts().size(), page.charts().toString());
        for (Chromium.Chart c : page.charts()) {
            assertEquals("svg", c.tag(), c.toString());
            assertEquals(640, c.width(), 1, c.toString());
            assertEquals(320, c.height(), 1, c.toString());
        }
        assertEquals("Read throughput", page.charts().getFirst().label());
        assertScreenshot(page.screenshot(), 1280, 900);
    }

    @Test
    void brokenPageShowsEveryKindOfProblem(@TempDir Path tmp) throws Exception {
        Chromium.Page page = browser().open(resource("broken.html"), tmp.resolve("broken.png"));
        String all = String.join("\n", page.problems());
        System.out.println("broken.html, as the browser saw it:\n" + all);
        assertTrue(page.problems().stream().anyMatch(p -> p.startsWith("console.error: ")
                && p.contains("intentional console error from broken.html")), all);
        assertTrue(page.problems().stream().anyMatch(p -> p.startsWith("uncaught exception: TypeError")), all);
        assertTrue(page.problems().stream().anyMatch(p -> p.startsWith("failed load: ")
                && p.contains("missing-chart.png")), all);
        assertEquals(2, page.charts().size(), page.charts().toString());
        assertTrue(page.charts().get(1).broken(), page.charts().toString());
        assertTrue(Files.size(page.screenshot()) > 0);
        // the report test's failure message lists every problem
        AssertionFailedError failed = assertThrows(AssertionFailedError.class,
                () -> ReportBrowserIT.assertClean(page, resource("broken.html"), 2));
        for (String problem : page.problems()) {
            assertTrue(failed.getMessage().contains(problem), failed.getMessage());
        }
    }

    @Test
    void missingPageIsAProblemNotAHang(@TempDir Path tmp) throws Exception {
        Chromium.Page page = browser().open(tmp.resolve("no-such-report.html"), tmp.resolve("none.png"));
        assertTrue(!page.problems().isEmpty(), "a missing file is reported");
        assertEquals(List.of(), page.charts());
    }
}
