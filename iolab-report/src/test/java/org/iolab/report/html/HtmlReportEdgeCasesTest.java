package org.iolab.report.html;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;

/** What a reader of the report sees on edge inputs: partial runs, spread, markup in the results, tiny rates. */
class HtmlReportEdgeCasesTest {
    private static Measurement read(String method, long buffer, String cache, List<Double> passes) {
        return new Measurement(Bench.READ, method, org.iolab.catalogue.Kind.READ, buffer, true, 256L << 20, cache,
                null, false, 0, 0, "B/s", passes, List.of(), "25");
    }

    private static Measurement random(String method, String cache, List<Double> passes) {
        return new Measurement(Bench.RANDOM, method, null, 0, false, 64L << 20, cache, null, false, 1 << 20, 1,
                "probes/s", passes, List.of(), "25");
    }

    private static Measurement store(String engine, String durability, String phase, List<Double> ms) {
        return new Measurement(Bench.STORE, engine, null, 0, false, 0, null, null, false, 0, 0, "ms", ms, List.of(),
                "25", durability, 1000, phase);
    }

    private static String render(Path out, List<Measurement> catalogue, List<Measurement> store) throws Exception {
        ResultSet rs = new ResultSet(out.resolve("results.json"), catalogue, List.of(), store);
        Path page = HtmlReport.write(new RunData(rs, List.of(), List.of(), List.of()), out.resolve("report"));
        return Files.readString(page, StandardCharsets.UTF_8);
    }

    /** Drives Charts.Bars (private) exactly as readBars/randomBars do, and returns each series' bars and whiskers. */
    private static CategoryChart bars(List<Measurement> ms, double scale, boolean log) throws Exception {
        Class<?> bars = Class.forName("org.iolab.report.html.Charts$Bars");
        Method of = bars.getDeclaredMethod("of", List.class, Function.class, List.class);
        of.setAccessible(true);
        Function<Measurement, String> cache = Measurement::cache;
        Object b = of.invoke(null, ms, cache, List.of("warm", "cold"));
        Method addTo = bars.getDeclaredMethod("addTo", CategoryChart.class, double.class, Map.class, boolean.class);
        addTo.setAccessible(true);
        CategoryChart chart = new CategoryChartBuilder().build();
        addTo.invoke(b, chart, scale, Map.of(), log);
        return chart;
    }

    private static List<Double> values(java.util.Collection<? extends Number> c) {
        List<Double> out = new ArrayList<>();
        c.forEach(n -> out.add(n.doubleValue()));
        return out;
    }

    @Test
    void theBarChartsSayTheirWhiskersAreSymmetric(@TempDir Path out) throws Exception {
        // XChart's whiskers are symmetric: drawn as far as the pass furthest from the median on both sides, so one
        // side reaches where no pass was (passes 4.35, 25.7, 25.8 GB/s draw a whisker up to 47 GB/s); the caption
        // must say so, and point at the table's exact min–max
        String html = render(out, List.of(read("segment-mapped", 8192, "warm", List.of(4.35e9, 25.7e9, 25.8e9))),
                List.of());
        assertFalse(html.contains("whiskers reach the pass furthest"), "a caption claims the whiskers reach a pass");
        assertTrue(html.contains("on both sides alike (the full results table gives the exact min–max)"),
                "the read chart's caption");
    }

    @Test
    void aColdRandomRateUnderOneThousandPerSecondStillGetsABar() throws Exception {
        // a cold seek on a spinning disk: 150–170 probes/s, measured; the chart must not show it as "not measured"
        List<Measurement> ms = List.of(random("raf-seek", "warm", List.of(8e5, 8.2e5, 8.3e5)),
                random("raf-seek", "cold", List.of(150.0, 160.0, 170.0)));
        CategoryChart chart = bars(ms, Charts.logFloor(ms, 1e3), true);
        double cold = values(chart.getSeriesMap().get("cold").getYData()).getFirst();
        assertTrue(cold > 0, "the measured cold bar has height " + cold + " (same as a method never measured cold)");
    }

    @Test
    void aPointWithoutPassesDoesNotBreakTheWholeReport(@TempDir Path out) {
        // the report guards "!m.passes().isEmpty()" everywhere else (Advisor, PageCacheTruth, store, journal)
        List<Measurement> ms = List.of(read("fis-array", 8192, "warm", List.of(4e9, 4.1e9, 4.2e9)),
                read("mapped-array", 8192, "warm", List.of()));
        assertDoesNotThrow(() -> render(out, ms, List.of()));
    }

    @Test
    void aStoreDurabilityFromResultsJsonCannotInjectMarkup(@TempDir Path out) throws Exception {
        String evil = "none\"><script>alert(1)</script><i class=\"";
        String html = render(out, List.of(), List.of(store("iolab", evil, "put", List.of(1.0, 1.1, 1.2)),
                store("lmdb", evil, "put", List.of(2.0, 2.1, 2.2))));
        assertFalse(html.contains("<script>"), "durability written into a class attribute unescaped");
    }

    @Test
    void theOnlyMethodMeasuredIsNotColouredAsTied(@TempDir Path out) throws Exception {
        String html = render(out, List.of(read("fis-array", 8192, "warm", List.of(4e9, 4.1e9, 4.2e9))), List.of());
        Matcher m = Pattern.compile("<td(?: class=\"([^\"]*)\")?>only method measured</td>").matcher(html);
        assertTrue(m.find(), () -> html.substring(html.indexOf("<section id=\"s1\""),
                html.indexOf("<section id=\"s2\"")));
        assertFalse("tied".equals(m.group(1)), "'only method measured' carries the amber 'tied' class");
    }

    @Test
    void aStoreOnlyRunIsNotSummarisedAsZeroPointsNorGivenABrokenCommand(@TempDir Path out) throws Exception {
        String html = render(out, List.of(), List.of(store("iolab", "none", "put", List.of(1.0, 1.1, 1.2)),
                store("lmdb", "none", "put", List.of(2.0, 2.1, 2.2))));
        assertFalse(html.contains("0 methods, 0 points"), "lead line of a run with 2 store points");
        assertFalse(html.contains("--methods  --runs"), "reproduce command with an empty --methods");
        assertFalse(html.contains("Passes:  measured per point"), "empty pass count");
        assertTrue(html.contains("2 store points"), "lead line");
        assertTrue(html.contains("./iolab bench --workload store"), "reproduce command");
    }
}
