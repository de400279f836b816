package org.iolab.report.html;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.report.analysis.Rates;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.Stats;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's charts, drawn with XChart and saved as PNG and SVG: read throughput against buffer size (and
 * its fast group), reads at the default buffer warm and cold, every pass in order, writes, random access.
 */
public final class Charts {
    /** Width of every chart, pixels. */
    static final int WIDTH = 1000;
    /** Height of every chart, pixels. */
    static final int HEIGHT = 560;
    /** The buffer size the bar charts prefer. */
    static final long DEFAULT_BUFFER = 8192;
    /** log2 of the largest buffer on the x axis (128 MiB). */
    private static final int MAX_LOG2 = 27;
    /** Share of the best median a method needs to be in the fast group. */
    private static final double FAST_SHARE = 0.25;
    private static final int TOP_PASSES = 10;
    private static final int MAX_PASS_SERIES = 14;
    private static final String FONT = Font.SANS_SERIF;
    private static final Color WARM = new Color(0xd9, 0x5f, 0x02);
    private static final Color COLD = new Color(0x1b, 0x6c, 0xa8);
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf),
        new Color(0x393b79), new Color(0xad494a), new Color(0x637939), new Color(0x843c39), new Color(0x5254a3),
        new Color(0x8ca252), new Color(0xbd9e39), new Color(0xa55194), new Color(0x6b6ecf), new Color(0x000000),
    };

    private Charts() {
    }

    /**
     * Draws every chart the results allow, saves each as {@code NAME.png} and {@code NAME.svg} in
     * {@code dir}, and returns them in report order (charts without data come back as omitted, with the
     * option that measures them).
     *
     * @param results the measurements
     * @param dir the charts folder (created when missing)
     * @return the figures
     * @throws IolabException naming the file when a chart cannot be written
     */
    public static List<Figure> render(ResultSet results, Path dir) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw IolabException.io("create the charts folder", dir, e);
        }
        // a point without passes has nothing to draw (the tables say it was not measured)
        List<Measurement> all = results.measurements().stream().filter(m -> !m.passes().isEmpty()).toList();
        List<Figure> out = new ArrayList<>();
        out.addAll(readVsBuffer(all, dir));
        out.add(readBars(all, dir));
        out.add(passes(all, dir));
        out.add(writeBars(all, dir));
        out.add(randomBars(all, dir));
        if (!results.journal().isEmpty()) {
            out.add(journalAppends(results.journal(), dir));
        }
        if (!results.store().isEmpty()) {
            out.add(storePhases(results.store(), dir));
        }
        return out;
    }

    // file names (without extension) of the charts other than the journal's and the store's
    private static final String READ_VS_BUFFER = "read-vs-buffer";
    private static final String READ_VS_BUFFER_FAST = "read-vs-buffer-fast";
    private static final String READ_METHODS = "read-methods";
    private static final String PASSES = "passes";
    private static final String WRITE_METHODS = "write-methods";
    private static final String RANDOM_ACCESS = "random-access";

    /**
     * @param fileName a file's name in a report's {@code charts/} folder
     * @return whether it is one of the charts a report draws (a file of another name there is the user's: it is
     *     left alone)
     */
    public static boolean isChartFile(String fileName) {
        int dot = fileName.lastIndexOf('.');
        String ext = dot < 0 ? "" : fileName.substring(dot);
        return (ext.equals(".png") || ext.equals(".svg")) && NAMES.contains(fileName.substring(0, dot));
    }

    // ---- the journal: appends per second against record size ----

    /** Name of the journal chart (shown in the report's journal section, not among the charts). */
    public static final String JOURNAL_APPENDS = "journal-appends";

    private static Figure journalAppends(List<Measurement> journal, Path dir) {
        String title = "Journal appends per second against record size (durability NONE)";
        Map<String, TreeMap<Long, Measurement>> byBackend = new LinkedHashMap<>();
        for (Measurement m : journal) {
            boolean none = m.bench() == Bench.JOURNAL_APPEND && "none".equals(m.durability());
            if ((none || m.bench() == Bench.CHRONICLE_APPEND) && !m.passes().isEmpty()) {
                byBackend.computeIfAbsent(m.bench().chronicle() ? "chronicle-queue" : m.method(),
                        k -> new TreeMap<>()).put(m.bufferSize(), m);
            }
        }
        byBackend.values().removeIf(curve -> curve.size() < 2);
        if (byBackend.isEmpty()) {
            return Figure.omitted(JOURNAL_APPENDS, title, "No backend was measured at durability NONE at two or more"
                    + " record sizes; ./iolab bench --workload journal --record-sizes 64,1k,4k,64k measures them.");
        }
        List<String> order = byBackend.entrySet().stream().sorted(Comparator.comparingDouble(
                (Map.Entry<String, TreeMap<Long, Measurement>> e) -> e.getValue().values().stream()
                        .mapToDouble(m -> m.stats().median()).max().orElse(0)).reversed())
                .map(Map.Entry::getKey).toList();
        long smallest = byBackend.values().stream().mapToLong(TreeMap::firstKey).min().orElse(1);
        long largest = byBackend.values().stream().mapToLong(TreeMap::lastKey).max().orElse(1);
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("record size (log scale)").yAxisTitle("appends per second (log scale)").build();
        styleXY(chart, true);
        chart.getStyler().setXAxisMin((double) Math.max(0, log2(smallest) - 1))
                .setXAxisMax((double) Math.min(MAX_LOG2, log2(largest) + 1));
        chart.setCustomXAxisTickLabelsFormatter(Charts::log2Size);
        chart.setCustomYAxisTickLabelsFormatter(v -> v == null ? "" : probes(Math.pow(10, v)));
        for (String backend : order) {
            addCurve(chart, backend, byBackend.get(backend), 1, true);
        }
        String caption = "Median appends per second of each storage backend at durability NONE (and Chronicle Queue"
                + " when measured), one line per backend measured at two or more record sizes. Both axes are"
                + " logarithmic; the legend is ordered fastest first.";
        return export(chart, JOURNAL_APPENDS, title, caption, dir);
    }

    // ---- the store: phase times per engine ----

    /** Name of the store chart (shown in the report's store section, not among the charts). */
    public static final String STORE_PHASES = "store-phases";

    /** Every chart's file name without its extension, each drawn as a .png and an .svg. */
    private static final Set<String> NAMES = Set.of(JOURNAL_APPENDS, STORE_PHASES, READ_VS_BUFFER,
            READ_VS_BUFFER_FAST, READ_METHODS, PASSES, WRITE_METHODS, RANDOM_ACCESS);
    /** Bars of the store chart start at this many milliseconds (the log axis' floor). */
    private static final double STORE_FLOOR_MS = 0.01;

    private static Figure storePhases(List<Measurement> store, Path dir) {
        String title = "Store: time per phase and engine (durability NONE, log scale)";
        List<Measurement> none = store.stream().filter(m -> "none".equals(m.durability()) && !m.passes().isEmpty())
                .toList();
        if (none.isEmpty()) {
            return Figure.omitted(STORE_PHASES, title, "No store phase was measured at durability NONE; ./iolab bench"
                    + " --workload store measures them.");
        }
        long records = none.stream().mapToLong(Measurement::records).max().orElseThrow();
        List<Measurement> of = none.stream().filter(m -> m.records() == records).toList();
        List<String> phases = ResultSet.STORE_PHASES.stream()
                .filter(p -> of.stream().anyMatch(m -> p.equals(m.phase()))).toList();
        // categories: engines, fastest put (or first phase) first; series: phases
        String lead = phases.getFirst();
        List<String> engines = of.stream().map(Measurement::method).distinct().sorted(Comparator.comparingDouble(
                (String e) -> of.stream().filter(m -> e.equals(m.method()) && lead.equals(m.phase()))
                        .mapToDouble(m -> m.stats().median()).findFirst().orElse(Double.MAX_VALUE))).toList();
        CategoryChart chart = barChart(title + ", " + records + " records", "engine", "ms per phase (log scale)");
        List<Color> colors = new ArrayList<>();
        for (String phase : phases) {
            List<Double> y = new ArrayList<>();
            List<Double> err = new ArrayList<>();
            for (String engine : engines) {
                Optional<Measurement> m = of.stream().filter(x -> engine.equals(x.method()) && phase.equals(x.phase()))
                        .findFirst();
                if (m.isEmpty()) {
                    y.add(0.0);
                    err.add(0.0);
                    continue;
                }
                Stats s = m.get().stats();
                double median = Math.max(0, Math.log10(s.median() / STORE_FLOOR_MS));
                double spread = Math.max(Math.log10(s.max() / s.median()), Math.log10(s.median() / s.min()));
                y.add(median);
                err.add(Math.min(spread, median));
            }
            chart.addSeries(phase, engines, y, err);
            colors.add(PALETTE[colors.size() % PALETTE.length]);
        }
        chart.getStyler().setSeriesColors(colors.toArray(Color[]::new));
        chart.getStyler().setYAxisMin(0.0);
        chart.setCustomYAxisTickLabelsFormatter(v -> v == null ? "" : trim(Math.pow(10, v) * STORE_FLOOR_MS) + " ms");
        String caption = "Median time of each phase of Bruno's employee workload per engine (bars grouped by engine,"
                + " fastest put first), whiskers as far from it as the pass furthest from the median, on both sides"
                + " alike (the tables give the exact min–max), on a logarithmic axis: phases"
                + " range from well under a millisecond to seconds. Lower is better.";
        return export(chart, STORE_PHASES, title, caption, dir);
    }

    // ---- (a) throughput against buffer size ----

    private static List<Figure> readVsBuffer(List<Measurement> all, Path dir) {
        String name = READ_VS_BUFFER;
        String title = "Read throughput against buffer size (warm)";
        String zoomName = READ_VS_BUFFER_FAST;
        String zoomTitle = "The fast group, linear scale (warm)";
        List<Measurement> warm = all.stream().filter(m -> m.bench() == Bench.READ && "warm".equals(m.cache())
                && m.usesBuffer()).toList();
        long size = mostCommon(warm.stream().map(Measurement::fileSize).toList(), 0L);
        Map<String, TreeMap<Long, Measurement>> byMethod = new LinkedHashMap<>();
        for (Measurement m : warm) {
            if (m.fileSize() == size) {
                byMethod.computeIfAbsent(m.method(), k -> new TreeMap<>()).put(m.bufferSize(), m);
            }
        }
        byMethod.values().removeIf(curve -> curve.size() < 2);
        if (byMethod.isEmpty()) {
            String why = "No read method was measured warm at two or more buffer sizes. Measure it with"
                    + " ./iolab bench --profile quick, or --buffers 1,1k,8k,64k,1m --cache warm.";
            return List.of(Figure.omitted(name, title, why), Figure.omitted(zoomName, zoomTitle, why));
        }
        Map<String, Double> best = new LinkedHashMap<>();
        byMethod.forEach((method, curve) -> best.put(method,
                curve.values().stream().mapToDouble(m -> m.stats().median()).max().orElse(0)));
        List<String> order = best.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).map(Map.Entry::getKey).toList();

        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title + ", " + Sizes.format(size)
                + " file").xAxisTitle("buffer size (log scale)").yAxisTitle("throughput (log scale)").build();
        styleXY(chart, true);
        chart.getStyler().setXAxisMin(0.0).setXAxisMax((double) MAX_LOG2);
        chart.setCustomXAxisTickLabelsFormatter(Charts::log2Size);
        chart.setCustomYAxisTickLabelsFormatter(Charts::log10Mbps);
        for (String method : order) {
            addCurve(chart, method, byMethod.get(method), 1e6, true);
        }
        String caption = "Median of the measured passes per buffer size, one line per read method that was measured"
                + " at two or more buffer sizes on the " + Sizes.format(size) + " file, file in the page cache."
                + " Both axes are logarithmic; the legend is ordered fastest first.";
        Figure main = export(chart, name, title, caption, dir);

        double top = order.isEmpty() ? 0 : best.get(order.getFirst());
        List<String> fast = order.stream().filter(m -> best.get(m) >= FAST_SHARE * top).toList();
        XYChart zoom = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(zoomTitle + ", " + Sizes.format(size)
                + " file").xAxisTitle("buffer size (log scale)").yAxisTitle("throughput, GB/s").build();
        styleXY(zoom, true);
        // zoomed on x too: the measured buffer sizes, one power of two either side (whole numbers: see passes)
        long smallest = fast.stream().mapToLong(m -> byMethod.get(m).firstKey()).min().orElse(1);
        long largest = fast.stream().mapToLong(m -> byMethod.get(m).lastKey()).max().orElse(1L << MAX_LOG2);
        zoom.getStyler().setXAxisMin((double) Math.max(0, log2(smallest) - 1))
                .setXAxisMax((double) Math.min(MAX_LOG2 + 1, log2(largest) + 1)).setYAxisMin(0.0);
        zoom.setCustomXAxisTickLabelsFormatter(Charts::log2Size);
        for (String method : fast) {
            addCurve(zoom, method, byMethod.get(method), 1e9, false);
        }
        String zoomCaption = "The methods whose best median reaches at least " + Math.round(FAST_SHARE * 100)
                + "% of the fastest (" + Rates.format(top, "B/s") + "), on a linear throughput axis so that"
                + " their differences are visible.";
        return List.of(main, export(zoom, zoomName, zoomTitle, zoomCaption, dir));
    }

    private static void addCurve(XYChart chart, String method, TreeMap<Long, Measurement> curve, double scale,
                                 boolean log) {
        double[] x = new double[curve.size()];
        double[] y = new double[curve.size()];
        int i = 0;
        for (Map.Entry<Long, Measurement> e : curve.entrySet()) {
            x[i] = Math.log(e.getKey()) / Math.log(2);
            double v = e.getValue().stats().median() / scale;
            y[i] = log ? Math.log10(v) : v;
            i++;
        }
        chart.addSeries(method, x, y);
    }

    /** @return floor(log2(v)) for v >= 1 */
    private static int log2(long v) {
        return 63 - Long.numberOfLeadingZeros(Math.max(1, v));
    }

    private static boolean whole(Double v) {
        return v != null && Math.abs(v - Math.rint(v)) < 1e-6;
    }

    /** Tick label of a log2 buffer axis: 1 B, 32 B, 1 KiB... (blank between powers of two). */
    private static String log2Size(Double v) {
        if (!whole(v) || v < -0.5 || v > 62) {
            return "";
        }
        return Sizes.format(1L << Math.round(v));
    }

    /**
     * Log axes are drawn as linear axes of log10(value), because XChart's own log axis cannot take custom
     * labels nor draw bars with whiskers; the labels give the value back.
     */
    private static String log10Mbps(Double v) {
        return v == null ? "" : mbps(Math.pow(10, v));
    }

    private static String mbps(double v) {
        if (v >= 1000) {
            return trim(v / 1000) + " GB/s";
        }
        return trim(v) + " MB/s";
    }

    private static String probes(double v) {
        if (v >= 1e6) {
            return trim(v / 1e6) + " M/s";
        }
        return v >= 1e3 ? trim(v / 1e3) + " k/s" : trim(v) + " /s";
    }

    private static String trim(double v) {
        if (v == Math.rint(v)) {
            return Long.toString((long) v);
        }
        if (v >= 99.5) {
            return Long.toString(Math.round(v));
        }
        double r = Math.round(v * 10) / 10.0;
        if (r == Math.rint(r) && r >= 1) {
            return Long.toString((long) r);
        }
        return String.format(Locale.ROOT, v >= 1 ? "%.1f" : "%.2g", v);
    }

    // ---- (b) reads at the default buffer, warm and cold ----

    private static Figure readBars(List<Measurement> all, Path dir) {
        String name = READ_METHODS;
        List<Measurement> reads = all.stream().filter(m -> m.bench() == Bench.READ).toList();
        long buffer = defaultBuffer(reads);
        String title = "Read methods at " + Sizes.format(buffer) + ", warm and cold";
        if (reads.isEmpty()) {
            return Figure.omitted(name, "Read methods, warm and cold", "No read was measured. Measure reads with"
                    + " ./iolab bench --profile quick (or --methods with read method ids).");
        }
        List<Measurement> atBuffer = reads.stream().filter(m -> !m.usesBuffer() || m.bufferSize() == buffer)
                .toList();
        Bars bars = Bars.of(atBuffer, m -> m.cache(), List.of("warm", "cold"));
        double scale = bars.max() >= 1e9 ? 1e9 : 1e6;
        String unit = scale == 1e9 ? "GB/s" : "MB/s";
        CategoryChart chart = barChart(title, "read method", "throughput, " + unit);
        bars.addTo(chart, scale, Map.of("warm", "warm (page cache)", "cold", "cold (evicted before each pass)"),
                false);
        String caption = "Each bar is the median of the measured passes; the whiskers reach as far from it as the"
                + " pass furthest from the median, on both sides alike (the full results table gives the exact"
                + " min–max). Warm: the file is in the page cache;"
                + " cold: evicted before every pass, so it comes from the device."
                + (bars.has("cold") ? "" : " No cold passes were measured: add --cache both.")
                + " Methods that read a byte at a time ran on smaller files. A missing bar was not measured.";
        return export(chart, name, title, caption, dir);
    }

    // ---- (c) every pass in order ----

    private static Figure passes(List<Measurement> all, Path dir) {
        String name = PASSES;
        String title = "Every pass in order (warm reads)";
        List<Measurement> reads = all.stream().filter(m -> m.bench() == Bench.READ && "warm".equals(m.cache()))
                .toList();
        long buffer = defaultBuffer(reads);
        Map<String, Measurement> one = new LinkedHashMap<>();
        for (Measurement m : reads) {
            if (!m.usesBuffer() || m.bufferSize() == buffer) {
                one.merge(m.method(), m, (a, b) -> b.fileSize() > a.fileSize() ? b : a);
            }
        }
        if (one.isEmpty()) {
            return Figure.omitted(name, title, "No warm read was measured. Measure it with ./iolab bench --cache"
                    + " warm (or both).");
        }
        List<Measurement> sorted = one.values().stream()
                .sorted(Comparator.comparingDouble((Measurement m) -> m.stats().median()).reversed()).toList();
        Set<Measurement> chosen = new LinkedHashSet<>(sorted.subList(0, Math.min(TOP_PASSES, sorted.size())));
        for (Measurement m : sorted) {
            if (chosen.size() < MAX_PASS_SERIES && (!m.usesBuffer() || m.method().endsWith("-byte"))) {
                chosen.add(m);
            }
        }
        int warmups = chosen.stream().mapToInt(m -> m.warmups().size()).max().orElse(0);
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title + ", " + Sizes.format(buffer))
                .xAxisTitle(warmups > 0 ? "pass (w1, w2...: warm-up passes; then measured passes 1, 2...)"
                        : "measured pass").yAxisTitle("throughput (log scale)").build();
        styleXY(chart, true);
        // whole-number ends: XChart spaces the ticks by the width of the end labels, and ours are blank between
        chart.getStyler().setXAxisMin(1.0);
        chart.setCustomYAxisTickLabelsFormatter(Charts::log10Mbps);
        int longest = 0;
        for (Measurement m : chosen) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            int w = m.warmups().size();
            for (int i = 0; i < w; i++) {
                x.add((double) (warmups - w + 1 + i));
                y.add(Math.log10(m.warmups().get(i) / 1e6));
            }
            for (int i = 0; i < m.passes().size(); i++) {
                x.add((double) (warmups + 1 + i));
                y.add(Math.log10(m.passes().get(i) / 1e6));
            }
            longest = Math.max(longest, warmups + m.passes().size());
            chart.addSeries(m.method() + " (" + Sizes.format(m.fileSize()) + ")", x, y);
        }
        chart.getStyler().setXAxisMax((double) Math.max(2, longest));
        int w = warmups;
        chart.setCustomXAxisTickLabelsFormatter(v -> !whole(v) || v < 0.5 ? ""
                : Math.round(v) <= w ? "w" + Math.round(v) : Long.toString(Math.round(v) - w));
        if (warmups > 0) {
            chart.addAnnotation(new AnnotationLine(warmups + 0.5, true, false));
            AnnotationText label = new AnnotationText("warm-up | measured", warmups + 0.5, 0, false);
            chart.addAnnotation(label);
            chart.getStyler().setAnnotationTextFont(new Font(FONT, Font.PLAIN, 13));
            label.setY(Math.log10(minPositive(chosen) / 1e6));
        }
        String caption = "Throughput of each pass in the order it ran, for the " + Math.min(TOP_PASSES, sorted.size())
                + " fastest read methods and the byte-at-a-time ones, file in the page cache."
                + (warmups > 0 ? " Passes left of the line are JMH warm-up passes (not counted in the results):"
                        + " a slow first pass is the JIT compiling and the first buffer being allocated. With several"
                        + " forks, the warm-up passes of every fork come first, then the measured passes fork by"
                        + " fork."
                        : " This results file holds no warm-up passes (made by an older iolab, or with no"
                        + " warm-up); re-run ./iolab bench to see them.");
        return export(chart, name, title, caption, dir);
    }

    private static double minPositive(Set<Measurement> ms) {
        double min = Double.MAX_VALUE;
        for (Measurement m : ms) {
            for (double v : m.passes()) {
                min = Math.min(min, v);
            }
            for (double v : m.warmups()) {
                min = Math.min(min, v);
            }
        }
        return min == Double.MAX_VALUE ? 1 : min;
    }

    // ---- (d) writes ----

    private static Figure writeBars(List<Measurement> all, Path dir) {
        String name = WRITE_METHODS;
        String title = "Write methods";
        List<Measurement> writes = all.stream().filter(m -> m.bench() == Bench.WRITE).toList();
        if (writes.isEmpty()) {
            return Figure.omitted(name, title, "No write was measured. Measure writes with ./iolab bench --profile"
                    + " quick (or --methods with write method ids).");
        }
        long buffer = defaultBuffer(writes);
        List<Measurement> atBuffer = writes.stream().filter(m -> !m.usesBuffer() || m.bufferSize() == buffer)
                .toList();
        Bars bars = Bars.of(atBuffer, Charts::writeSetting, null);
        double scale = bars.max() >= 1e9 ? 1e9 : 1e6;
        String unit = scale == 1e9 ? "GB/s" : "MB/s";
        CategoryChart chart = barChart(title + " at " + Sizes.format(buffer), "write method", "throughput, " + unit);
        bars.addTo(chart, scale, Map.of(), false);
        String caption = "Median of the measured passes per write method, whiskers to the pass furthest from the"
                + " median. Without sync a pass ends when the data is in the page cache, not on the device; with"
                + " sync (--sync) it includes making the data durable.";
        return export(chart, name, title, caption, dir);
    }

    private static String writeSetting(Measurement m) {
        String p = m.prealloc() == null ? "none" : m.prealloc();
        return "prealloc " + p + (m.sync() ? ", sync" : ", no sync");
    }

    // ---- (e) random access ----

    private static Figure randomBars(List<Measurement> all, Path dir) {
        String name = RANDOM_ACCESS;
        String title = "Random access: seek, skip, positional, mapped";
        List<Measurement> random = all.stream().filter(m -> m.bench() == Bench.RANDOM).toList();
        if (random.isEmpty()) {
            return Figure.omitted(name, title, "No random access was measured. Measure it with ./iolab bench"
                    + " --profile quick (the seek vs skip study) or --methods raf-seek,bis-skip.");
        }
        Bars bars = Bars.of(random, Measurement::cache, List.of("warm", "cold"));
        CategoryChart chart = barChart(title, "random-access method", "probes per second (log scale)");
        double floor = logFloor(random, 1e3);
        bars.addTo(chart, floor, Map.of("warm", "warm (page cache)", "cold", "cold (evicted before each pass)"), true);
        chart.setCustomYAxisTickLabelsFormatter(v -> v == null ? "" : probes(Math.pow(10, v) * floor));
        String caption = "One-byte reads at a fixed stride through the file (Fisher's seek vs skip), median per"
                + " method with whiskers as far from it as the pass furthest from the median, on both sides alike"
                + " (the table gives the exact min–max), on a logarithmic axis because cold"
                + " probes wait for the device." + (bars.has("cold") ? "" : " No cold passes: add --cache both.");
        return export(chart, name, title, caption, dir);
    }

    // ---- shared ----

    /**
     * Bars per method (categories, fastest first) and per series (cache state or write setting); for a
     * method measured more than once in a series, the largest file wins.
     */
    private record Bars(List<String> methods, Map<String, Map<String, Measurement>> series) {
        static Bars of(List<Measurement> ms, Function<Measurement, String> seriesOf, List<String> order) {
            Map<String, Map<String, Measurement>> series = new LinkedHashMap<>();
            if (order != null) {
                for (String s : order) {
                    series.put(s, new LinkedHashMap<>());
                }
            }
            for (Measurement m : ms) {
                series.computeIfAbsent(seriesOf.apply(m), k -> new LinkedHashMap<>())
                        .merge(m.method(), m, (a, b) -> b.fileSize() > a.fileSize() ? b : a);
            }
            series.values().removeIf(Map::isEmpty);
            Map<String, Double> best = new HashMap<>();
            for (Map<String, Measurement> s : series.values()) {
                s.forEach((method, m) -> best.merge(method, m.stats().median(), Math::max));
            }
            List<String> methods = best.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).map(Map.Entry::getKey).toList();
            return new Bars(methods, series);
        }

        double max() {
            return series.values().stream().flatMap(s -> s.values().stream()).mapToDouble(m -> m.stats().max())
                    .filter(v -> !Double.isNaN(v)).max().orElse(0);
        }

        boolean has(String s) {
            return series.containsKey(s);
        }

        /**
         * @param scale divides every value (1e9 for GB/s...)
         * @param log draw log10(value / scale), at least 0: bars start at 1 unit
         */
        void addTo(CategoryChart chart, double scale, Map<String, String> names, boolean log) {
            List<Color> colors = new ArrayList<>();
            for (Map.Entry<String, Map<String, Measurement>> e : series.entrySet()) {
                List<Double> y = new ArrayList<>();
                List<Double> err = new ArrayList<>();
                for (String method : methods) {
                    Measurement m = e.getValue().get(method);
                    if (m == null) {
                        y.add(0.0); // not measured in this series: no bar (XChart takes no gaps with whiskers)
                        err.add(0.0);
                        continue;
                    }
                    Stats s = m.stats();
                    double median = s.median() / scale;
                    double spread = Math.max(s.max() - s.median(), s.median() - s.min()) / scale;
                    if (log) {
                        spread = Math.max(Math.log10(s.max() / s.median()), Math.log10(s.median() / s.min()));
                        median = Math.max(0, Math.log10(median));
                    }
                    // whiskers stop at the axis
                    y.add(median);
                    err.add(Math.min(spread, median));
                }
                chart.addSeries(names.getOrDefault(e.getKey(), e.getKey()), methods, y, err);
                colors.add(switch (e.getKey()) {
                    case "warm" -> WARM;
                    case "cold" -> COLD;
                    default -> PALETTE[colors.size() % PALETTE.length];
                });
            }
            chart.getStyler().setSeriesColors(colors.toArray(Color[]::new));
            chart.getStyler().setYAxisMin(0.0);
        }
    }

    /**
     * @param ms measurements drawn on a log axis that starts at the returned value
     * @param most the highest start wanted
     * @return a power of ten at or below every pass (and at most {@code most}), so every measured bar has a height:
     *     a bar at the axis' start looks like one never measured
     */
    static double logFloor(List<Measurement> ms, double most) {
        double min = ms.stream().filter(m -> !m.passes().isEmpty()).mapToDouble(m -> m.stats().min()).min()
                .orElse(most);
        return Math.min(most, Math.pow(10, Math.floor(Math.log10(min)) - 1));
    }

    private static CategoryChart barChart(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        Styler s = chart.getStyler();
        base(chart.getStyler());
        chart.getStyler().setXAxisLabelRotation(45);
        chart.getStyler().setErrorBarsColor(Color.BLACK);
        chart.getStyler().setErrorBarsColorSeriesColor(false);
        chart.getStyler().setAvailableSpaceFill(0.8);
        chart.getStyler().setOverlapped(false);
        s.setLegendPosition(Styler.LegendPosition.InsideNE);
        return chart;
    }

    private static void styleXY(XYChart chart, boolean legendOutside) {
        base(chart.getStyler());
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setSeriesColors(PALETTE);
        chart.getStyler().setSeriesLines(new BasicStroke[] {new BasicStroke(2f)});
        chart.getStyler().setSeriesMarkers(new org.knowm.xchart.style.markers.Marker[] {
            SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP,
            SeriesMarkers.TRIANGLE_DOWN,
        });
        chart.getStyler().setLegendPosition(legendOutside ? Styler.LegendPosition.OutsideE
                : Styler.LegendPosition.InsideNE);
        for (XYSeries s : chart.getSeriesMap().values()) {
            s.setLineWidth(2f);
        }
    }

    private static void base(AxesChartStyler s) {
        s.setBaseFont(new Font(FONT, Font.PLAIN, 14));
        s.setChartTitleFont(new Font(FONT, Font.BOLD, 17));
        s.setAxisTitleFont(new Font(FONT, Font.PLAIN, 14));
        s.setAxisTickLabelsFont(new Font(FONT, Font.PLAIN, 13));
        s.setLegendFont(new Font(FONT, Font.PLAIN, 13));
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(new Color(0x99, 0x99, 0x99));
        s.setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
        s.setLegendBorderColor(new Color(0xcc, 0xcc, 0xcc));
        s.setChartTitleBoxVisible(false);
        s.setAntiAlias(true);
        s.setLocale(Locale.ROOT);
    }

    /** The buffer the bars show: 8 KiB when measured, else the most common buffer. */
    static long defaultBuffer(List<Measurement> ms) {
        List<Long> sizes = ms.stream().filter(Measurement::usesBuffer).map(Measurement::bufferSize).toList();
        if (sizes.contains(DEFAULT_BUFFER) || sizes.isEmpty()) {
            return DEFAULT_BUFFER;
        }
        return mostCommon(sizes, DEFAULT_BUFFER);
    }

    /** @return the most frequent value (the largest among equals), or {@code otherwise} for none */
    static long mostCommon(List<Long> values, long otherwise) {
        Map<Long, Integer> counts = new TreeMap<>();
        for (long v : values) {
            counts.merge(v, 1, Integer::sum);
        }
        long best = otherwise;
        int n = 0;
        for (Map.Entry<Long, Integer> e : counts.entrySet()) {
            if (e.getValue() >= n) {
                best = e.getKey();
                n = e.getValue();
            }
        }
        return best;
    }

    private static Figure export(Chart<?, ?> chart, String name, String title, String caption, Path dir) {
        Path png = dir.resolve(name + ".png");
        Path svg = dir.resolve(name + ".svg");
        try (OutputStream o = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, o, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw IolabException.io("write", png, e);
        }
        String text;
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            VectorGraphicsEncoder.saveVectorGraphic(chart, bytes, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            text = compact(bytes.toString(StandardCharsets.UTF_8));
            Files.writeString(svg, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw IolabException.io("write", svg, e);
        }
        return Figure.drawn(name, title, caption, inline(text, name, title));
    }

    private static final Pattern LONG_DECIMAL = Pattern.compile("(-?\\d+)\\.(\\d)\\d+");

    /**
     * XChart draws text as outlines, so its SVG is mostly path coordinates with ten decimals; a tenth of a
     * pixel is plenty.
     *
     * @param svg the encoder's SVG
     * @return the same drawing with coordinates rounded to 0.1
     */
    static String compact(String svg) {
        return LONG_DECIMAL.matcher(svg).replaceAll("$1.$2").replace(".0 ", " ").replace(".0,", ",");
    }

    private static final Pattern ID = Pattern.compile("\\bid=\"([^\"]+)\"");
    private static final Pattern REF = Pattern.compile("(url\\(#|href=\"#)([^)\"]+)");

    /**
     * @param svg an SVG document as VectorGraphics2D writes it
     * @param prefix unique in the page
     * @param title what it shows, for screen readers
     * @return its {@code <svg>} element, with ids (and references to them) prefixed so that several charts
     *     can share one page, and a font stack every system has
     */
    static String inline(String svg, String prefix, String title) {
        int start = svg.indexOf("<svg");
        if (start < 0) {
            throw new IllegalStateException("the SVG encoder wrote no <svg> element");
        }
        String s = svg.substring(start);
        s = ID.matcher(s).replaceAll(m -> Matcher.quoteReplacement("id=\"" + prefix + "-" + m.group(1) + "\""));
        s = REF.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + prefix + "-" + m.group(2)));
        int open = s.indexOf('>');
        s = "<svg role=\"img\" aria-label=\"" + Text.esc(title) + "\"" + s.substring(4, open + 1) + "<title>"
                + Text.esc(title) + "</title>" + s.substring(open + 1);
        return s.strip();
    }
}
