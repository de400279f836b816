package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs target/iolab.jar as a user would and checks exit codes, messages and results. */
class CliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Run(int exit, String out, String err) {
    }

    static Run iolab(Path cwd, String... args) throws IOException, InterruptedException {
        String jar = System.getProperty("iolab.jar");
        assertTrue(jar != null && Files.isRegularFile(Path.of(jar)), "system property iolab.jar: " + jar);
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-jar", jar));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("iolab-it", ".out");
        Path err = Files.createTempFile("iolab-it", ".err");
        try {
            Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + cmd);
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static void assertUserError(Path cwd, String offending, String... args) throws Exception {
        Run r = iolab(cwd, args);
        String all = r.out() + r.err();
        assertEquals(2, r.exit(), "exit code for " + List.of(args) + ":\n" + all);
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), "one line on stderr for " + List.of(args) + ":\n" + r.err());
        assertTrue(lines.getFirst().startsWith("iolab: "), lines.getFirst());
        assertTrue(lines.getFirst().contains(offending), "names '" + offending + "': " + lines.getFirst());
        assertFalse(all.contains("Exception"), all);
        assertFalse(all.contains("\tat "), all);
    }

    @Test
    void badInputIsOneLineAndExitTwo(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        String d = tmp.toString();
        String[] quick = {"bench", "--profile", "smoke", "--dry-run", "--dir", d};
        assertUserError(tmp, "0", concat(quick, "--buffers", "0"));
        assertUserError(tmp, "-8k", concat(quick, "--buffers", "-8k"));
        assertUserError(tmp, "1g", concat(quick, "--buffers", "1g")); // the fork's heap cannot hold it
        assertUserError(tmp, "--sizes", concat(quick, "--methods", "raf-seek", "--sizes", "1"));
        assertUserError(tmp, "12q", concat(quick, "--sizes", "12q"));
        assertUserError(tmp, "nope", concat(quick, "--methods", "nope"));
        assertUserError(tmp, "medium", "bench", "--profile", "medium", "--dry-run");
        assertUserError(tmp, "lukewarm", concat(quick, "--cache", "lukewarm"));
        assertUserError(tmp, "sometimes", concat(quick, "--prealloc", "sometimes"));
        assertUserError(tmp, "abc", concat(quick, "--forks", "abc"));
        assertUserError(tmp, "--bogus", concat(quick, "--bogus"));
        assertUserError(tmp, "Infinity", concat(quick, "--budget", "Infinity"));
        String[] smoke = {"bench", "--profile", "smoke", "--out", tmp.resolve("out").toString()};
        assertUserError(tmp, "missing", concat(smoke, "--dir", tmp.resolve("missing").toString()));
        assertUserError(tmp, "a-file", concat(smoke, "--dir", file.toString()));
        // far more than any test disk holds; the budget keeps the planner from shrinking it (cold: a warm read of
        // a file larger than memory is refused first)
        assertUserError(tmp, "page cache", concat(smoke, "--dir", d, "--methods", firstMethod(tmp), "--sizes", "15t",
                "--budget", "1000000000", "--cache", "warm"));
        Run space = iolab(tmp, concat(smoke, "--dir", d, "--methods",
                firstMethod(tmp), "--sizes", "15t", "--budget", "1000000000", "--cache", "cold"));
        assertEquals(2, space.exit(), space.err());
        assertTrue(space.err().startsWith("iolab: not enough free space"), space.err());
        assertEquals(1, space.err().lines().count(), space.err());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(Set.of("a-file"), names(left), "no workspace left behind");
        }
    }

    @Test
    void readOnlyDirAndDropCachesWithoutRoot(@TempDir Path tmp) throws Exception {
        Path ro = Path.of("/sys");
        if (Files.isDirectory(ro) && !Files.isWritable(ro)) {
            assertUserError(tmp, "/sys", "bench", "--profile", "smoke", "--dir", "/sys");
        }
        assumeTrue(!Files.isWritable(Path.of("/proc/sys/vm/drop_caches")), "running as root: drop_caches works");
        assertUserError(tmp, "--drop-caches", "bench", "--profile", "smoke", "--dir", tmp.toString(), "--drop-caches");
    }

    @Test
    void smokeRunsEveryMethodAndCleansUp(@TempDir Path tmp) throws Exception {
        SmokeBench smoke = SmokeBench.get();
        Path dir = smoke.dir();
        Path out = smoke.out();
        Run r = smoke.run();
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("results: " + out.resolve("results.json")), r.out());
        assertTrue(r.out().contains("report: " + out.resolve("report.html")), r.out());
        for (String sibling : List.of("report.html", "machine.json", "limits.json", "notes.json")) {
            assertTrue(Files.size(out.resolve(sibling)) > 0, sibling + " beside results.json");
        }
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("The answer") && html.contains("<svg"), "the report has the answer and charts");
        assertTrue(JSON.readTree(out.resolve("machine.json").toFile()).size() > 0, "machine facts");
        JsonNode results = JSON.readTree(out.resolve("results.json").toFile());
        assertTrue(results.isArray(), "results.json is an array");
        Set<String> ran = new TreeSet<>();
        for (JsonNode e : results) {
            ran.add(e.path("params").path("method").asText());
            assertTrue(e.path("primaryMetric").has("score"), e.toString());
            JsonNode t = e.path("secondaryMetrics").path("throughput");
            assertTrue(t.path("score").asDouble() > 0, e.toString());
            assertTrue(Set.of("B/s", "probes/s").contains(t.path("scoreUnit").asText()), e.toString());
        }
        assertEquals(catalogue(tmp), ran);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(Set.of(), names(left), "--dir is left empty");
        }
    }

    /** --sizes 1t ran fis-array on 512 MiB with no word of it (the table's file column only). */
    @Test
    void aSizeShrunkToFitTheBudgetIsSaid(@TempDir Path tmp) throws Exception {
        String[] plan = {"bench", "--profile", "smoke", "--dry-run", "--dir", tmp.toString(), "--methods",
            "fis-array"};
        Run shrunk = iolab(tmp, concat(plan, "--sizes", "1t"));
        assertEquals(0, shrunk.exit(), shrunk.err());
        assertTrue(shrunk.err().contains("1 of 1 points run on a smaller file than --sizes asked (down to ")
                && shrunk.err().contains("--budget raises it"), shrunk.err());
        Run kept = iolab(tmp, concat(plan, "--sizes", "1m"));
        assertEquals(0, kept.exit(), kept.err());
        assertFalse(kept.err().contains("smaller file"), kept.err());
    }

    @Test
    void badJournalOptionsAreOneLineAndExitTwo(@TempDir Path tmp) throws Exception {
        String[] journal = {"bench", "--profile", "smoke", "--dry-run", "--dir", tmp.toString(), "--workload",
            "journal"};
        assertUserError(tmp, "'0'", concat(journal, "--record-sizes", "0"));
        assertUserError(tmp, "floppy", concat(journal, "--backends", "segment,floppy"));
        assertUserError(tmp, "sometimes", concat(journal, "--durability", "none,sometimes"));
        assertUserError(tmp, "--workload", "bench", "--profile", "smoke", "--dry-run", "--record-sizes", "64");
        assertUserError(tmp, "'disk'", "bench", "--profile", "smoke", "--dry-run", "--workload", "disk");
    }

    @Test
    void badStoreOptionsAreOneLineAndExitTwo(@TempDir Path tmp) throws Exception {
        String[] store = {"bench", "--profile", "smoke", "--dry-run", "--dir", tmp.toString(), "--workload", "store"};
        assertUserError(tmp, "floppydb", concat(store, "--engines", "iolab,floppydb"));
        assertUserError(tmp, "compress", concat(store, "--phases", "put,compress"));
        assertUserError(tmp, "'1'", concat(store, "--records", "1"));
        assertUserError(tmp, "'lots'", concat(store, "--records", "lots"));
        assertUserError(tmp, "sometimes", concat(store, "--durability", "sometimes"));
        assertUserError(tmp, "--engines", "bench", "--profile", "smoke", "--dry-run", "--engines", "lmdb");
        assertUserError(tmp, "--records", "bench", "--profile", "smoke", "--dry-run", "--workload", "journal",
                "--records", "10");
    }

    @Test
    void storeSmokeWritesStorePointsAndItsSection(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("dir"));
        Path out = tmp.resolve("out");
        Run plan = iolab(tmp, "bench", "--workload", "store", "--profile", "smoke", "--dry-run");
        assertEquals(0, plan.exit(), plan.err());
        assertTrue(plan.out().contains("store lmdb put durability=none records=2000"), plan.out());
        assertTrue(plan.out().contains("store per-put latency iolab:always,lmdb:always,rocksdb:always,iolab:batch"),
                plan.out());
        assertTrue(plan.out().contains("fio 4 KiB write+fdatasync"), plan.out());
        Run r = iolab(tmp, "bench", "--workload", "store", "--profile", "smoke", "--out", out.toString(), "--dir",
                dir.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("STORE (Bruno's employee workload"), r.out());
        // the per-put latency runs: one line per engine at ALWAYS, iolab's put and durable at BATCH
        assertTrue(r.out().contains("STORE PUT LATENCY"), r.out());
        for (String row : List.of("iolab +always +put ", "lmdb +always +put ", "rocksdb +always +put ",
                "iolab +batch +put ", "iolab +batch +durable ")) {
            assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s+" + row + ".*")), row + " in " + r.out());
        }
        assertTrue(r.out().contains("DEVICE: fio 4 KiB write+fdatasync "), r.out());
        JsonNode latency = JSON.readTree(out.resolve("store-latency.json").toFile());
        assertEquals(5, latency.size(), latency.toString());
        for (JsonNode l : latency) {
            assertTrue(l.path("puts").asLong() > 0 && l.path("putsPerSecond").asDouble() > 0, l.toString());
            assertTrue(l.path("p50Nanos").asDouble() <= l.path("p99Nanos").asDouble()
                    && l.path("p99Nanos").asDouble() <= l.path("p999Nanos").asDouble()
                    && l.path("p999Nanos").asDouble() <= l.path("maxNanos").asDouble(), l.toString());
        }
        boolean fio = JSON.readTree(out.resolve("limits.json").toFile()).findValuesAsText("operation")
                .contains("store-write-fdatasync");
        assertEquals(fio, !r.out().contains("DEVICE: fio 4 KiB write+fdatasync not measured"), r.out());
        JsonNode results = JSON.readTree(out.resolve("results.json").toFile());
        Set<String> engines = new TreeSet<>();
        for (JsonNode e : results) {
            assertEquals("org.iolab.bench.store.StoreBenchmark.phase", e.path("benchmark").asText());
            engines.add(e.path("params").path("engine").asText());
            assertTrue(e.path("primaryMetric").path("score").asDouble() > 0, e.toString());
            assertTrue(e.path("secondaryMetrics").path("sizeBytes").path("score").asDouble() > 0, e.toString());
            assertEquals(StorePlan.liveBytes(2000), e.path("iolab").path("liveBytes").asLong(), e.toString());
        }
        assertEquals(Set.of("iolab", "lmdb", "rocksdb"), engines);
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("The store") && html.contains("class=\"store-targets\"")
                && html.contains("class=\"store-none-2000\"") && html.contains("class=\"store-latency\""),
                "the report has the store section with its per-put latency");
        Run again = iolab(tmp, "report", out.resolve("results.json").toString(), "--out", tmp.resolve("re")
                .toString());
        assertEquals(0, again.exit(), "a store-only results.json re-renders: " + again.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(Set.of(), names(left), "--dir is left empty");
        }
    }

    @Test
    void journalSmokeWritesJournalPointsAndItsSection(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("dir"));
        Path out = tmp.resolve("out");
        Run plan = iolab(tmp, "bench", "--workload", "journal", "--profile", "smoke", "--dry-run");
        assertEquals(0, plan.exit(), plan.err());
        assertTrue(plan.out().contains("journal segment append record=64 B durability=none"), plan.out());
        assertTrue(plan.out().contains("journal segment write+sync record=64 B durability=none total=4 MiB"),
                plan.out());
        Run r = iolab(tmp, "bench", "--workload", "journal", "--profile", "smoke", "--out", out.toString(), "--dir",
                dir.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("JOURNAL APPENDS") && r.out().contains("JOURNAL REPLAY")
                && r.out().contains("JOURNAL WRITE + SYNC"), r.out());
        JsonNode results = JSON.readTree(out.resolve("results.json").toFile());
        Set<String> benchmarks = new TreeSet<>();
        for (JsonNode e : results) {
            benchmarks.add(e.path("benchmark").asText());
            JsonNode t = e.path("secondaryMetrics").path("throughput");
            assertEquals("B/s", t.path("scoreUnit").asText(), e.toString());
            assertTrue(t.path("score").asDouble() > 0, e.toString());
        }
        assertTrue(benchmarks.containsAll(Set.of("org.iolab.bench.JournalAppendBenchmark.append",
                "org.iolab.bench.JournalReplayBenchmark.pass", "org.iolab.bench.JournalBulkBenchmark.pass")),
                benchmarks.toString());
        JsonNode bulk = null;
        for (JsonNode e : results) {
            if (e.path("benchmark").asText().equals("org.iolab.bench.JournalBulkBenchmark.pass")) {
                bulk = e;
            }
        }
        assertEquals("none", bulk.path("params").path("durability").asText(), bulk.toString());
        assertEquals(4L << 20, Long.parseLong(bulk.path("params").path("totalSize").asText()),
                "the bulk pass writes fio's byte count");
        double passMs = bulk.path("primaryMetric").path("rawData").get(0).get(0).asDouble();
        assertEquals((4L << 20) / (passMs / 1000), bulk.path("secondaryMetrics").path("throughput").path("rawData")
                .get(0).get(0).asDouble(), 1e-6 * (4L << 20) / (passMs / 1000), "B/s from the pass time");
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("The journal") && html.contains("class=\"journal-appends\"")
                && html.contains("class=\"journal-bulk\"") && html.contains("class=\"targets\""),
                "the report has the journal section");
        JsonNode limits = JSON.readTree(out.resolve("limits.json").toFile());
        JsonNode notes = JSON.readTree(out.resolve("notes.json").toFile());
        boolean fio = false;
        for (JsonNode l : limits) {
            fio |= l.path("operation").asText().startsWith("journal-write");
        }
        boolean noFio = false;
        for (JsonNode n : notes) {
            noFio |= n.asText().startsWith("fio not installed");
        }
        assertTrue(fio || noFio, "fio comparators, or a note that fio is missing: " + limits + notes);
        Run again = iolab(tmp, "report", out.resolve("results.json").toString(), "--out", tmp.resolve("re")
                .toString());
        assertEquals(0, again.exit(), again.err());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(Set.of(), names(left), "--dir is left empty");
        }
    }

    @Test
    void methodsJsonListsTheCatalogue(@TempDir Path tmp) throws Exception {
        Run r = iolab(tmp, "methods");
        assertEquals(0, r.exit(), r.err());
        for (String id : catalogue(tmp)) {
            assertTrue(r.out().contains(id), id);
        }
        JsonNode a = JSON.readTree(iolab(tmp, "methods", "--json").out());
        for (JsonNode m : a) {
            for (String field : List.of("id", "kind", "title", "article", "usesBuffer", "description")) {
                assertTrue(m.has(field), field + " in " + m);
            }
        }
    }

    private static Set<String> catalogue(Path tmp) throws Exception {
        Set<String> ids = new TreeSet<>();
        for (JsonNode m : JSON.readTree(iolab(tmp, "methods", "--json").out())) {
            ids.add(m.path("id").asText());
        }
        assertFalse(ids.isEmpty());
        return ids;
    }

    private static String firstMethod(Path tmp) throws Exception {
        return catalogue(tmp).iterator().next();
    }

    private static Set<String> names(Stream<Path> paths) {
        Set<String> s = new TreeSet<>();
        paths.forEach(p -> s.add(p.getFileName().toString()));
        return s;
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
