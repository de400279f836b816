package org.iolab.report.model;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.report.limits.LimitsRunner;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * The measurements of one {@code results.json} (JMH's JSON format as {@code ./iolab bench} writes it).
 *
 * <p>Throughput comes from the {@code throughput} secondary metric iolab adds; for a file written by
 * plain JMH it is computed from the pass times and the {@code fileSize} parameter. Warm-up passes come
 * from the optional {@code iolab.warmupThroughput} field.
 *
 * <p>Journal points ({@link Bench#journal()}: iolab's journal and Chronicle Queue appends and replays) are
 * kept apart in {@link #journal()}, so that everything about the catalogue's methods sees only those.
 *
 * <p>Store points ({@link Bench#store()}: phases of the employee workload, in milliseconds) are kept apart in
 * {@link #store()}; they are not in {@link #all()} (their passes are times, not rates).
 *
 * @param source the file it was read from
 * @param measurements every catalogue point, in file order
 * @param journal every journal point, in file order
 * @param store every store point, in file order
 */
public record ResultSet(Path source, List<Measurement> measurements, List<Measurement> journal,
                        List<Measurement> store) {
    /** The largest results.json read: a full run's is a few megabytes. */
    static final long MAX_FILE = 256L << 20;

    /** The least figure a pass may have: below it a chart's log axis or a ratio breaks down. */
    static final double MIN_PASS = 1e-9;

    /** The store workload's phases, in order. */
    public static final List<String> STORE_PHASES = List.of("put", "scan", "get", "delete", "reinsert", "reopen");

    /** Jackson, accepting JMH's {@code NaN} numbers; fields it does not know (a newer iolab's) are left aside. */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** Copies the list. */
    public ResultSet {
        measurements = List.copyOf(measurements);
        journal = List.copyOf(journal);
        store = List.copyOf(store);
    }

    /**
     * @param source the file it was read from
     * @param measurements every catalogue point
     * @param journal every journal point
     */
    public ResultSet(Path source, List<Measurement> measurements, List<Measurement> journal) {
        this(source, measurements, journal, List.of());
    }

    /**
     * @param source the file it was read from
     * @param measurements every catalogue point (no journal points)
     */
    public ResultSet(Path source, List<Measurement> measurements) {
        this(source, measurements, List.of(), List.of());
    }

    /**
     * @param what the file as the user named it
     * @return this set
     * @throws IolabException naming {@code what} when it holds none of iolab's benchmark results
     */
    public ResultSet requireResults(Path what) {
        if (measurements.isEmpty() && journal.isEmpty() && store.isEmpty()) {
            throw new IolabException(what + " holds no iolab benchmark results; give a results.json that ./iolab"
                    + " bench wrote");
        }
        return this;
    }

    /** @return the catalogue points, then the journal points */
    public List<Measurement> all() {
        List<Measurement> all = new ArrayList<>(measurements);
        all.addAll(journal);
        return List.copyOf(all);
    }

    /**
     * @param file a results.json
     * @return its measurements
     * @throws IolabException naming the file (and the entry) when it is missing or not iolab's JMH JSON
     */
    public static ResultSet load(Path file) {
        JsonNode root;
        try {
            byte[] bytes;
            // at most MAX_FILE + 1 bytes, whatever the file is (a device or a pipe has no size to ask): read whole,
            // a larger one would need gigabytes of heap before it could be found wrong
            try (java.io.InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_FILE + 1);
            }
            if (bytes.length > MAX_FILE) {
                throw new IolabException(file + " is longer than the " + MAX_FILE + " bytes a results.json of"
                        + " ./iolab bench ever holds; give the results.json that ./iolab bench wrote");
            }
            root = JSON.readTree(bytes);
        } catch (NoSuchFileException e) {
            throw new IolabException(file + " does not exist; give the results.json that ./iolab bench wrote");
        } catch (java.nio.file.AccessDeniedException e) {
            // not "not a JMH JSON results file": the file was never read (found by a review of the command line)
            throw new IolabException("cannot read " + file + ": permission denied; give a results.json you can read",
                    e);
        } catch (IOException e) {
            String where = e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null
                    ? " at line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr()
                    + " (byte " + j.getLocation().getByteOffset() + ")" : "";
            throw new IolabException(file + " is not a JMH JSON results file (" + e.getMessage().lines().findFirst()
                    .orElse("") + where + "); give the results.json that ./iolab bench wrote", e);
        }
        if (root == null || !root.isArray()) {
            throw new IolabException(file + " is not a JMH JSON results file (expected a JSON array of results);"
                    + " give the results.json that ./iolab bench wrote");
        }
        List<Measurement> out = new ArrayList<>();
        List<Measurement> journal = new ArrayList<>();
        List<Measurement> store = new ArrayList<>();
        int i = 0;
        for (JsonNode entry : root) {
            try {
                Measurement m = parse(entry);
                if (m != null) {
                    for (List<Double> passes : List.of(m.passes(), m.warmups())) {
                        for (double pass : passes) {
                            if (!(pass >= MIN_PASS) || Double.isInfinite(pass)) {
                                // a chart's log axis, a ratio or a median of it would be meaningless (or crash)
                                throw new IllegalArgumentException("a " + (passes == m.passes() ? "pass" : "warm-up")
                                        + " of " + pass + " " + m.unit() + " is not a finite number of at least "
                                        + MIN_PASS);
                            }
                        }
                    }
                    (m.bench().store() ? store : m.bench().journal() ? journal : out).add(m);
                }
            } catch (RuntimeException e) {
                throw new IolabException(file + ": entry " + i + " cannot be read: " + e.getMessage(), e);
            }
            i++;
        }
        return new ResultSet(file, out, journal, store);
    }

    private static Measurement parse(JsonNode e) {
        Bench bench = Bench.ofJmhName(e.path("benchmark").asText());
        if (bench == null) {
            return null; // not one of iolab's benchmarks
        }
        if (bench.store()) {
            return parseStore(e);
        }
        if (bench.journal()) {
            return parseJournal(bench, e);
        }
        JsonNode p = e.path("params");
        String method = p.path("method").asText();
        if (method.isBlank()) {
            throw new IllegalArgumentException("it names no method (params.method)");
        }
        MethodInfo info = Catalogue.find(method).orElse(null);
        Kind kind = info != null ? info.kind() : null;
        boolean usesBuffer = info == null || info.usesBuffer();
        long buffer = bench == Bench.RANDOM ? 0 : Sizes.parse(p.path("bufferSize").asText("8192"), "bufferSize");
        long size = Sizes.parse(p.path("fileSize").asText(), "fileSize");
        String cache = bench == Bench.WRITE ? null : p.path("cache").asText("warm");
        if (cache != null && !LimitsRunner.CACHES.contains(cache)) {
            throw new IllegalArgumentException("its cache state '" + cache + "' is neither warm nor cold");
        }
        String prealloc = bench == Bench.WRITE ? p.path("prealloc").asText("none") : null;
        boolean sync = bench == Bench.WRITE && Boolean.parseBoolean(p.path("sync").asText("false"));
        long stride = bench == Bench.RANDOM ? Sizes.parse(p.path("stride").asText("20000"), "stride") : 0;
        if (bench == Bench.RANDOM && stride < 1) {
            throw new IllegalArgumentException("its stride " + stride + " is not at least 1 byte");
        }
        if (size < 1) {
            throw new IllegalArgumentException("its file size " + size + " is not at least 1 byte");
        }
        long probeLength = bench == Bench.RANDOM ? Sizes.parse(p.path("length").asText("1"), "length") : 0;
        if (probeLength > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("its probe length " + probeLength + " is over 2 GiB");
        }
        int length = (int) probeLength;
        double work = bench == Bench.RANDOM ? probes(size, stride, length) : size;
        String unit = bench == Bench.RANDOM ? "probes/s" : "B/s";

        List<Double> passes = new ArrayList<>();
        JsonNode tp = e.path("secondaryMetrics").path("throughput");
        if (tp.isObject()) {
            flatten(tp.path("rawData"), passes);
        } else {
            List<Double> times = new ArrayList<>();
            flatten(e.path("primaryMetric").path("rawData"), times);
            double toSeconds = secondsPer(e.path("primaryMetric").path("scoreUnit").asText("ms/op"));
            for (double t : times) {
                passes.add(work / (t * toSeconds));
            }
        }
        List<Double> warmups = new ArrayList<>();
        flatten(e.path("iolab").path("warmupThroughput"), warmups);
        return new Measurement(bench, method, kind, buffer, usesBuffer, size, cache, prealloc, sync, stride, length,
                unit, passes, warmups, e.path("jdkVersion").asText(""));
    }

    /**
     * A journal point: appends are JMH throughput (ops/s, one op = one record); replays and bulk passes are
     * single-shot pass times, turned into records per second (a bulk pass writes {@code totalSize / recordSize}
     * records; its file size is the payload bytes of those records).
     */
    private static Measurement parseJournal(Bench bench, JsonNode e) {
        JsonNode p = e.path("params");
        long recordSize = Sizes.parse(p.path("recordSize").asText("64"), "recordSize");
        // a name no backend has would be drawn as one of its own
        String backend = bench.chronicle() ? "chronicle" : Backend.parse(p.path("backend").asText("segment")).label();
        boolean bulk = bench == Bench.JOURNAL_BULK;
        String durability = bench == Bench.JOURNAL_APPEND || bulk ? durability(p.path("durability").asText("none"))
                : null;
        if (bulk && recordSize < 1) {
            throw new IllegalArgumentException("recordSize " + recordSize + " of a write-then-sync pass must be at"
                    + " least 1 byte");
        }
        long records = bench.append() ? 0 : bulk ? Sizes.parse(p.path("totalSize").asText("1g"), "totalSize")
                / recordSize : Sizes.parse(p.path("records").asText("0"), "records");
        JsonNode primary = e.path("primaryMetric");
        List<Double> raw = new ArrayList<>();
        flatten(primary.path("rawData"), raw);
        List<Double> passes = new ArrayList<>();
        if (bench.append()) {
            String unit = primary.path("scoreUnit").asText("ops/s");
            double perSecond = switch (unit) {
                case "ops/s" -> 1;
                case "ops/ms" -> 1e3;
                case "ops/us" -> 1e6;
                case "ops/ns" -> 1e9;
                default -> throw new IllegalArgumentException("unexpected JMH score unit " + unit
                        + " for appends (expected ops/s)");
            };
            raw.forEach(v -> passes.add(v * perSecond));
        } else {
            double toSeconds = secondsPer(primary.path("scoreUnit").asText("ms/op"));
            raw.forEach(t -> passes.add(records / (t * toSeconds)));
        }
        return new Measurement(bench, backend, null, recordSize, true, bench.append() ? 0 : records * recordSize,
                bench.replay() ? "warm" : null, null, false, 0, 0, bench.append() ? "appends/s" : "records/s",
                passes, List.of(), e.path("jdkVersion").asText(""), durability, records);
    }

    /** Field of a store entry, added by {@code ./iolab bench}: live key and value bytes after the phase. */
    public static final String LIVE_BYTES = "liveBytes";

    /**
     * A store point: single-shot phase times, kept in milliseconds; the size on disk is the score of the
     * {@code sizeBytes} secondary metric (see StoreBenchmark's javadoc), the live bytes {@code iolab.liveBytes}.
     */
    private static Measurement parseStore(JsonNode e) {
        JsonNode p = e.path("params");
        String engine = p.path("engine").asText("iolab");
        if (engine.isBlank()) {
            throw new IllegalArgumentException("store entry with an empty engine parameter");
        }
        String phase = p.path("phase").asText();
        if (phase.isEmpty()) {
            throw new IllegalArgumentException("store entry without a phase parameter");
        }
        if (!STORE_PHASES.contains(phase)) {
            throw new IllegalArgumentException("store entry of an unknown phase '" + phase + "' (expected one of "
                    + String.join(", ", STORE_PHASES) + ")");
        }
        String durability = durability(p.path("durability").asText("none"));
        long records = Sizes.parse(p.path("records").asText("100000"), "records");
        if (records < 1) {
            throw new IllegalArgumentException("store entry of " + records + " records (at least 1)");
        }
        JsonNode primary = e.path("primaryMetric");
        double toMillis = secondsPer(primary.path("scoreUnit").asText("ms/op")) * 1e3;
        List<Double> raw = new ArrayList<>();
        flatten(primary.path("rawData"), raw);
        List<Double> passes = raw.stream().map(t -> t * toMillis).toList();
        JsonNode size = e.path("secondaryMetrics").path("sizeBytes").path("score");
        long sizeBytes = size.isNumber() ? Math.round(size.asDouble()) : 0;
        long live = e.path("iolab").path(LIVE_BYTES).asLong(0);
        return new Measurement(Bench.STORE, engine, null, live, false, sizeBytes, null, null, false, 0, 0, "ms",
                passes, List.of(), e.path("jdkVersion").asText(""), durability, records, phase);
    }

    /**
     * @param fileSize bytes
     * @param stride bytes between probes
     * @param length bytes per probe
     * @return how many probes a random-access pass makes: offsets 0, stride, ... below fileSize - length
     */
    public static long probes(long fileSize, long stride, int length) {
        long span = fileSize - length;
        return span <= 0 ? 0 : (span + stride - 1) / stride;
    }

    /** @return the level as the benchmarks write it ({@code none}, {@code batch}, {@code always}), checked */
    private static String durability(String level) {
        return Durability.parse(level).name().toLowerCase(Locale.ROOT);
    }

    private static double secondsPer(String unit) {
        return switch (unit) {
            case "s/op" -> 1;
            case "ms/op" -> 1e-3;
            case "us/op" -> 1e-6;
            case "ns/op" -> 1e-9;
            default -> throw new IllegalArgumentException("unexpected JMH score unit " + unit);
        };
    }

    private static void flatten(JsonNode node, List<Double> out) {
        if (node.isArray()) {
            for (JsonNode n : node) {
                flatten(n, out);
            }
        } else if (node.isNumber()) {
            out.add(node.asDouble());
        }
    }

    /**
     * @param filter which measurements
     * @return those measurements
     */
    public List<Measurement> where(Predicate<Measurement> filter) {
        return measurements.stream().filter(filter).toList();
    }
}
