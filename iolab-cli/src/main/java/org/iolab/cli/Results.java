package org.iolab.cli;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.bench.BenchmarkNames;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;

/**
 * JMH's JSON results, with a secondary metric {@code throughput} added to every entry (bytes/s, or
 * probes/s for random access, per pass), and the summary table.
 */
final class Results {
    static final String METRIC = "throughput";
    static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final double[] PERCENTILES = {0, 50, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999, 100};

    private Results() {
    }

    /**
     * @param results every point's JMH results
     * @return JMH's JSON array for them, each entry with the {@code throughput} metric added
     */
    static ArrayNode json(Collection<RunResult> results) {
        return json(List.copyOf(results), List.of());
    }

    /**
     * @param results every point's JMH results, in run order
     * @param warmupSeconds for each result (same index), its warm-up pass times in seconds per fork; shorter
     *     than results (or empty) when not recorded
     * @return JMH's JSON array for them, each entry with the {@code throughput} metric and, where recorded,
     *     {@code iolab.warmupThroughput} (per fork, same unit as the throughput)
     */
    static ArrayNode json(List<RunResult> results, List<List<List<Double>>> warmupSeconds) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, ps).writeOut(results);
        }
        ArrayNode array;
        try {
            JsonNode tree = JSON.readTree(bytes.toByteArray());
            array = tree instanceof ArrayNode a ? a : JSON.createArrayNode();
        } catch (IOException e) {
            throw new IllegalStateException("JMH wrote JSON that does not parse", e);
        }
        int i = 0;
        for (JsonNode entry : array) {
            if (store(entry)) {
                addLiveBytes((ObjectNode) entry);
                i++;
                continue;
            }
            if (journal(entry) != null) {
                addJournalThroughput((ObjectNode) entry, journal(entry));
                i++;
                continue;
            }
            addThroughput((ObjectNode) entry);
            if (i < warmupSeconds.size() && !warmupSeconds.get(i).isEmpty()) {
                addWarmups((ObjectNode) entry, warmupSeconds.get(i));
            }
            i++;
        }
        return array;
    }

    /**
     * Adds {@code iolab.warmupThroughput}: per fork, the work of a pass over each warm-up pass time.
     *
     * @param entry one JMH result entry
     * @param seconds warm-up pass times per fork
     */
    static void addWarmups(ObjectNode entry, List<List<Double>> seconds) {
        double work = work(entry);
        ArrayNode forks = entry.putObject("iolab").putArray("warmupThroughput");
        for (List<Double> fork : seconds) {
            ArrayNode f = forks.addArray();
            for (double s : fork) {
                f.add(work / s);
            }
        }
    }

    /** @return bytes a pass moves, or probes for random access */
    private static double work(JsonNode entry) {
        JsonNode params = entry.path("params");
        long size = Sizes.parse(params.path("fileSize").asText("0"), "fileSize");
        if (entry.path("benchmark").asText().equals(Bench.RANDOM.jmhName())) {
            long stride = Sizes.parse(params.path("stride").asText("20000"), "stride");
            int length = (int) Sizes.parse(params.path("length").asText("1"), "length");
            return Point.probes(size, stride, length);
        }
        return size;
    }

    /**
     * Adds {@code secondaryMetrics.throughput}: per pass, the file size (or probe count) divided by the pass
     * time; score is the median.
     *
     * @param entry one JMH result entry
     */
    static void addThroughput(ObjectNode entry) {
        JsonNode params = entry.path("params");
        JsonNode primary = entry.path("primaryMetric");
        long size = Sizes.parse(params.path("fileSize").asText("0"), "fileSize");
        boolean random = entry.path("benchmark").asText().equals(Bench.RANDOM.jmhName());
        double work = size;
        String unit = "B/s";
        if (random) {
            long stride = Sizes.parse(params.path("stride").asText("20000"), "stride");
            int length = (int) Sizes.parse(params.path("length").asText("1"), "length");
            work = Point.probes(size, stride, length);
            unit = "probes/s";
        }
        double toSeconds = secondsPer(primary.path("scoreUnit").asText("ms/op"));
        ArrayNode raw = JSON.createArrayNode();
        List<Double> all = new ArrayList<>();
        for (JsonNode fork : primary.path("rawData")) {
            ArrayNode f = raw.addArray();
            for (JsonNode t : fork) {
                double v = work / (t.asDouble() * toSeconds);
                f.add(v);
                all.add(v);
            }
        }
        double[] values = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        ObjectNode m = JSON.createObjectNode();
        m.put("score", percentile(values, 50));
        m.put("scoreError", "NaN");
        ArrayNode confidence = m.putArray("scoreConfidence");
        JsonNode pc = primary.path("scoreConfidence");
        if (pc.size() == 2 && pc.get(0).isNumber() && pc.get(1).isNumber() && pc.get(0).asDouble() > 0) {
            confidence.add(work / (pc.get(1).asDouble() * toSeconds));
            confidence.add(work / (pc.get(0).asDouble() * toSeconds));
        } else {
            confidence.add(values.length == 0 ? Double.NaN : values[0]);
            confidence.add(values.length == 0 ? Double.NaN : values[values.length - 1]);
        }
        ObjectNode pcts = m.putObject("scorePercentiles");
        for (double p : PERCENTILES) {
            pcts.put(String.format(Locale.ROOT, p == Math.rint(p) ? "%.1f" : "%s", p), percentile(values, p));
        }
        m.put("scoreUnit", unit);
        m.set("rawData", raw);
        JsonNode secondary = entry.get("secondaryMetrics");
        ObjectNode sec = secondary instanceof ObjectNode o ? o : entry.putObject("secondaryMetrics");
        sec.set(METRIC, m);
    }

    /**
     * @param entry a JMH result entry
     * @return whether it is a phase of the store workload ({@code StoreBenchmark})
     */
    static boolean store(JsonNode entry) {
        return BenchmarkNames.STORE.equals(entry.path("benchmark").asText());
    }

    /**
     * Adds {@code iolab.liveBytes} to a store entry: the key and value bytes live after the whole workload (see
     * {@link StorePlan#liveBytes}), the yardstick of the final size. Phase times stay as JMH wrote them (ms).
     *
     * @param entry one JMH result entry of the store benchmark
     */
    static void addLiveBytes(ObjectNode entry) {
        String records = entry.path("params").path("records").asText("");
        try {
            entry.putObject("iolab").put(org.iolab.report.model.ResultSet.LIVE_BYTES,
                    StorePlan.liveBytes(Integer.parseInt(records.trim())));
        } catch (NumberFormatException e) {
            // a records parameter the benchmark itself refuses; the size target then says "not recorded"
        }
    }

    /**
     * @param entry a JMH result entry
     * @return its journal benchmark, or null for a file benchmark
     */
    static JournalBench journal(JsonNode entry) {
        String name = entry.path("benchmark").asText();
        for (JournalBench b : JournalBench.values()) {
            if (b.jmhName().equals(name)) {
                return b;
            }
        }
        return null;
    }

    /**
     * Adds {@code secondaryMetrics.throughput} to a journal entry: payload bytes per second of every
     * iteration (appends: ops/s × record size) or pass (replays: records × record size / pass time; bulk
     * passes: the {@code totalSize / recordSize} records written × record size / pass time).
     *
     * @param entry one JMH result entry of a journal benchmark
     * @param bench which one
     */
    static void addJournalThroughput(ObjectNode entry, JournalBench bench) {
        JsonNode params = entry.path("params");
        JsonNode primary = entry.path("primaryMetric");
        long recordSize = Sizes.parse(params.path("recordSize").asText("64"), "recordSize");
        long records = bench.append() ? 0 : bench.bulk() ? bulkRecords(params, recordSize)
                : Sizes.parse(params.path("records").asText("0"), "records");
        String unit = primary.path("scoreUnit").asText(bench.append() ? "ops/s" : "ms/op");
        ArrayNode raw = JSON.createArrayNode();
        List<Double> all = new ArrayList<>();
        for (JsonNode fork : primary.path("rawData")) {
            ArrayNode f = raw.addArray();
            for (JsonNode t : fork) {
                double v = bench.append() ? t.asDouble() * perSecond(unit) * recordSize
                        : records * recordSize / (t.asDouble() * secondsPer(unit));
                f.add(v);
                all.add(v);
            }
        }
        double[] values = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        ObjectNode m = JSON.createObjectNode();
        m.put("score", percentile(values, 50));
        m.put("scoreError", "NaN");
        ArrayNode confidence = m.putArray("scoreConfidence");
        confidence.add(values.length == 0 ? Double.NaN : values[0]);
        confidence.add(values.length == 0 ? Double.NaN : values[values.length - 1]);
        ObjectNode pcts = m.putObject("scorePercentiles");
        for (double p : PERCENTILES) {
            pcts.put(String.format(Locale.ROOT, p == Math.rint(p) ? "%.1f" : "%s", p), percentile(values, p));
        }
        m.put("scoreUnit", "B/s");
        m.set("rawData", raw);
        JsonNode secondary = entry.get("secondaryMetrics");
        ObjectNode sec = secondary instanceof ObjectNode o ? o : entry.putObject("secondaryMetrics");
        sec.set(METRIC, m);
    }

    /**
     * @param params a bulk entry's JMH parameters
     * @param recordSize its record size
     * @return records one pass writes: {@code totalSize / recordSize}, as the benchmark counts them
     */
    static long bulkRecords(JsonNode params, long recordSize) {
        long total = Sizes.parse(params.path("totalSize").asText("1g"), "totalSize");
        return recordSize == 0 ? 0 : total / recordSize;
    }

    /**
     * @param unit a JMH throughput unit such as {@code ops/s}
     * @return operations per second per unit
     */
    static double perSecond(String unit) {
        return switch (unit) {
            case "ops/s" -> 1;
            case "ops/ms" -> 1e3;
            case "ops/us" -> 1e6;
            case "ops/ns" -> 1e9;
            default -> throw new IllegalStateException("unexpected JMH unit " + unit);
        };
    }

    /**
     * @param unit a JMH time-per-op unit
     * @return seconds per unit
     */
    static double secondsPer(String unit) {
        return switch (unit) {
            case "s/op" -> 1;
            case "ms/op" -> 1e-3;
            case "us/op" -> 1e-6;
            case "ns/op" -> 1e-9;
            default -> throw new IllegalStateException("unexpected JMH unit " + unit);
        };
    }

    /**
     * @param sorted ascending values
     * @param p percentile 0..100
     * @return the interpolated percentile, NaN for no values
     */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double pos = p / 100 * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    /**
     * One line of the table.
     *
     * @param kind the method's kind
     * @param method the method id
     * @param buffer buffer size, or null when it does not apply
     * @param fileSize bytes
     * @param cache cache state or write settings
     * @param median median throughput
     * @param min lowest
     * @param max highest
     * @param runs passes
     * @param unit B/s or probes/s
     */
    record Row(Kind kind, String method, Long buffer, long fileSize, String cache, double median, double min,
               double max, int runs, String unit) {
    }

    /**
     * @param array results with the throughput metric
     * @return one row per entry
     */
    static List<Row> rows(ArrayNode array) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode e : array) {
            if (journal(e) != null || store(e)) {
                continue; // printed by JournalTable and StoreTable
            }
            JsonNode params = e.path("params");
            String id = params.path("method").asText();
            MethodInfo info = Catalogue.find(id).orElseThrow(() -> Catalogue.unknown(id));
            JsonNode t = e.path("secondaryMetrics").path(METRIC);
            double[] values = new double[0];
            for (JsonNode fork : t.path("rawData")) {
                for (JsonNode v : fork) {
                    values = Arrays.copyOf(values, values.length + 1);
                    values[values.length - 1] = v.asDouble();
                }
            }
            Arrays.sort(values);
            Long buffer = info.kind() != Kind.RANDOM_ACCESS && info.usesBuffer()
                    ? Sizes.parse(params.path("bufferSize").asText(), "bufferSize") : null;
            String cache = info.kind() == Kind.WRITE
                    ? params.path("prealloc").asText() + (params.path("sync").asBoolean() ? ", sync" : "")
                    : params.path("cache").asText();
            rows.add(new Row(info.kind(), id, buffer, Sizes.parse(params.path("fileSize").asText(), "fileSize"),
                    cache, t.path("score").asDouble(), values.length == 0 ? Double.NaN : values[0],
                    values.length == 0 ? Double.NaN : values[values.length - 1], values.length,
                    t.path("scoreUnit").asText()));
        }
        return rows;
    }

    /**
     * Prints the rows by kind, fastest first.
     *
     * @param rows the rows
     * @param out where
     */
    static void table(List<Row> rows, PrintStream out) {
        for (Kind kind : Kind.values()) {
            List<Row> of = rows.stream().filter(r -> r.kind() == kind)
                    .sorted(Comparator.comparingDouble(Row::median).reversed()).toList();
            if (of.isEmpty()) {
                continue;
            }
            String title = switch (kind) {
                case READ -> "READ (bytes)";
                case READ_CHARS -> "READ (chars)";
                case WRITE -> "WRITE";
                case RANDOM_ACCESS -> "RANDOM ACCESS (stride " + Profile.STRIDE + ", 1 byte)";
            };
            out.println();
            out.println(title);
            out.printf("  %-26s %8s %9s %-11s %12s  %-23s %4s%n", "method", "buffer", "file", kind == Kind.WRITE
                    ? "prealloc" : "cache", "median", "min-max", "runs");
            for (Row r : of) {
                out.printf("  %-26s %8s %9s %-11s %12s  %-23s %4d%n", r.method(),
                        r.buffer() == null ? "-" : Sizes.format(r.buffer()), Sizes.format(r.fileSize()), r.cache(),
                        rate(r.median(), r.unit()), rate(r.min(), r.unit()) + " - " + bare(r.max(), r.unit()),
                        r.runs());
            }
        }
    }

    /**
     * @param v a rate
     * @param unit B/s or probes/s
     * @return e.g. {@code 1.23 GB/s}, {@code 456 MB/s}, {@code 12.3 k probes/s}
     */
    static String rate(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (unit.equals("B/s")) {
            if (v >= 1e9) {
                return String.format(Locale.ROOT, "%.2f GB/s", v / 1e9);
            }
            return String.format(Locale.ROOT, v >= 100e6 ? "%.0f MB/s" : v >= 10e6 ? "%.1f MB/s" : "%.2f MB/s",
                    v / 1e6);
        }
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M/s", v / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f k/s", v / 1e3);
    }

    private static String bare(double v, String unit) {
        return rate(v, unit);
    }

    /**
     * @param array the results
     * @return the JSON text
     */
    static String text(ArrayNode array) {
        try {
            return JSON.writeValueAsString(array);
        } catch (IOException e) {
            throw new IolabException("cannot format results: " + e.getMessage(), e);
        }
    }
}
