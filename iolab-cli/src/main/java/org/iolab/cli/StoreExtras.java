package org.iolab.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.bench.store.CompactedSize;
import org.iolab.bench.store.StoreBenchmark;
import org.iolab.bench.store.StoreLatency;
import org.iolab.report.limits.LimitsRunner;
import org.iolab.report.model.Limit;
import org.iolab.report.model.PutLatency;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.StoreCompaction;
import org.openjdk.jmh.annotations.Fork;

/**
 * What the store workload measures after its JMH points, in the same workspace: the per-put latency runs
 * ({@link StoreLatency} in one child JVM with the store benchmark's JVM flags), fio's 4 KiB write+fdatasync
 * rate of the device, and iolab's store size before and after a compaction, plain and with compression
 * ({@link CompactedSize}, in this JVM: sizes, not timings). A step that cannot run becomes a note; it never loses the JMH results, and one engine
 * that fails does not lose the others.
 */
final class StoreExtras {
    private final StoreLatencyRun plan;
    private final int compactionRecords;
    private final boolean limitsWanted;
    private final PrintStream err;
    private final List<PutLatency> latency = new ArrayList<>();
    private final List<Limit> limits = new ArrayList<>();
    private final List<StoreCompaction> compaction = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /**
     * @param plan what to run
     * @param compactionRecords the employees of the compaction sizes' run (the workload's records of iolab's reopen
     *        at none), or 0 for none
     * @param limitsWanted false for --no-limits (no fio job)
     * @param err where progress goes
     */
    StoreExtras(StoreLatencyRun plan, int compactionRecords, boolean limitsWanted, PrintStream err) {
        this.plan = plan;
        this.compactionRecords = compactionRecords;
        this.limitsWanted = limitsWanted;
        this.err = err;
    }

    /**
     * Runs the latency child, then the fio job.
     *
     * @param workDir the workspace
     */
    void run(Path workDir) {
        if (compactionRecords > 0) {
            err.println("iolab: store size before and after compaction, plain and with compression ("
                    + compactionRecords + " employees, iolab at none)");
            Path dir = null;
            try {
                dir = java.nio.file.Files.createTempDirectory(workDir, "store-compaction-");
                CompactedSize.Sizes s = CompactedSize.measure(compactionRecords, dir);
                compaction.add(new StoreCompaction(s.records(), s.liveBytes(), s.before(), s.after(), s.compressed(),
                        s.symbols()));
            } catch (IOException | IolabException e) {
                notes.add("store size after compaction not measured: " + e.getMessage());
                err.println("iolab: store compaction sizes failed (the other results are kept): " + e.getMessage());
            } finally {
                if (dir != null) {
                    ChildJvm.deleteTree(dir, err);
                }
            }
        }
        if (!plan.points().isEmpty()) {
            err.println("iolab: " + plan.describe());
            try {
                Parsed p = parse(runChild(workDir));
                latency.addAll(p.latency());
                notes.addAll(p.notes());
                p.notes().forEach(n -> err.println("iolab: " + n));
            } catch (IolabException e) {
                notes.add("store per-put latency not measured: " + e.getMessage());
                err.println("iolab: store per-put latency failed (the other results are kept): " + e.getMessage());
            }
        }
        if (plan.fioSeconds() == 0) {
            return;
        }
        if (!limitsWanted) {
            notes.add("the device's 4 KiB write+fdatasync rate beside the store not measured (--no-limits)");
            return;
        }
        err.println("iolab: " + plan.describeFio());
        LimitsRunner.Result r = LimitsRunner.measureStore(workDir, StoreLatencyRun.FIO_MAX_SIZE, plan.fioSeconds(),
                plan.fioRuns());
        limits.addAll(r.limits());
        notes.addAll(r.notes());
    }

    private String runChild(Path workDir) {
        // the child prints the engines it measured even when one of them failed
        return ChildJvm.run("store per-put latency", workDir, dir -> command(plan, dir), plan.latencySeconds(), "{",
                err);
    }

    /**
     * @param l the latency runs
     * @param dir their folder
     * @return the child JVM's command: this JVM's java and class path, the store benchmark's JVM flags
     */
    static List<String> command(StoreLatencyRun l, Path dir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmFlags());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), StoreLatency.class.getName(),
                "--dir", dir.toString(), "--points", String.join(",", l.points()), "--puts", Integer.toString(l.puts()),
                "--warmup", Integer.toString(l.warmup())));
        return cmd;
    }

    /** @return the JVM flags the store benchmark forks with (its {@code @Fork(jvmArgsAppend)}) */
    static List<String> jvmFlags() {
        Fork fork = StoreBenchmark.class.getAnnotation(Fork.class);
        return fork == null ? List.of("--enable-native-access=ALL-UNNAMED") : List.of(fork.jvmArgsAppend());
    }

    /**
     * What the child printed.
     *
     * @param latency one result per measured point and mode
     * @param notes one note per point that failed
     */
    record Parsed(List<PutLatency> latency, List<String> notes) {
    }

    /**
     * @param stdout what StoreLatency printed: one JSON line per result, or per failed point an
     *     {@code {"engine":..,"durability":..,"error":..}} line; other lines (warnings) are ignored
     * @return the results and a note per failed point
     * @throws IolabException when there is no JSON line or one does not parse
     */
    static Parsed parse(String stdout) {
        List<String> lines = stdout.lines().map(String::strip).filter(s -> s.startsWith("{")).toList();
        if (lines.isEmpty()) {
            throw new IolabException("the store latency run printed no JSON line: '"
                    + (stdout.length() > 300 ? stdout.substring(0, 300) : stdout).strip() + "'");
        }
        ObjectReader reader = ResultSet.JSON.readerFor(PutLatency.class)
                .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        List<PutLatency> latency = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (String line : lines) {
            try {
                JsonNode node = ResultSet.JSON.readTree(line);
                if (node.has("error")) {
                    notes.add("store per-put latency of " + node.path("engine").asText("?") + " at "
                            + node.path("durability").asText("?") + " not measured: " + node.path("error").asText());
                    continue;
                }
                PutLatency l = reader.readValue(node);
                if (l.engine() == null || l.puts() <= 0 || !(l.putsPerSecond() > 0)) {
                    throw new IolabException("the store latency run measured no puts: " + line);
                }
                latency.add(l);
            } catch (IOException e) {
                throw new IolabException("the store latency run printed JSON that does not parse (" + e.getMessage()
                        .lines().findFirst().orElse("") + "): " + line, e);
            }
        }
        return new Parsed(List.copyOf(latency), List.copyOf(notes));
    }

    /** @return the per-put latency results */
    List<PutLatency> latency() {
        return List.copyOf(latency);
    }

    /** @return iolab's store sizes before and after compaction (empty when not measured) */
    List<StoreCompaction> compaction() {
        return List.copyOf(compaction);
    }

    /** @return the fio device job */
    List<Limit> limits() {
        return List.copyOf(limits);
    }

    /** @return what is not measured and why */
    List<String> notes() {
        return List.copyOf(notes);
    }
}
