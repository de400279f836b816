package org.iolab.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.bench.JournalAppendBenchmark;
import org.iolab.report.limits.LimitsRunner;
import org.iolab.report.model.Latency;
import org.iolab.report.model.Limit;
import org.iolab.report.model.ResultSet;
import org.openjdk.jmh.annotations.Fork;

/**
 * What the journal workload measures after its JMH points, in the same workspace: the latency runs
 * ({@code org.iolab.bench.JournalLatency} in a child JVM with the journal benchmarks' JVM flags) and the fio
 * comparators. A step that cannot run becomes a note; it never loses the JMH results.
 */
final class JournalExtras {
    private final JournalPlan.Plan plan;
    private final boolean limitsWanted;
    private final PrintStream err;
    private final List<Latency> latency = new ArrayList<>();
    private final List<Limit> limits = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /**
     * @param plan the journal plan
     * @param limitsWanted false for --no-limits (no fio comparators)
     * @param err where progress goes
     */
    JournalExtras(JournalPlan.Plan plan, boolean limitsWanted, PrintStream err) {
        this.plan = plan;
        this.limitsWanted = limitsWanted;
        this.err = err;
        notes.addAll(plan.notes());
    }

    /**
     * Runs the latency runs, then the fio comparators.
     *
     * @param workDir the workspace
     */
    void run(Path workDir) {
        for (LatencyRun l : plan.latency()) {
            err.println("iolab: " + l.describe());
            try {
                latency.add(measure(l, workDir));
            } catch (IolabException e) {
                notes.add("journal latency " + l.mode() + " not measured: " + e.getMessage());
                err.println("iolab: journal latency " + l.mode() + " failed (the other results are kept): "
                        + e.getMessage());
            }
        }
        if (plan.fioRecordSizes().isEmpty()) {
            return;
        }
        if (!limitsWanted) {
            notes.add("fio comparators of the journal not measured (--no-limits)");
            return;
        }
        err.println("iolab: fio comparators of the journal: sequential writes with bs "
                + String.join(", ", plan.fioRecordSizes().stream().map(Sizes::format).toList()) + ", buffered and"
                + " with fdatasync at the BATCH cadence, " + plan.fioRuns() + " run(s)");
        LimitsRunner.Result r = LimitsRunner.measureJournal(workDir, plan.fioFileSize(), plan.fioRecordSizes(),
                plan.fioRuns());
        limits.addAll(r.limits());
        notes.addAll(r.notes());
    }

    /**
     * @param l a latency run
     * @param workDir the workspace; the run's journal goes in a sub-folder, deleted afterwards
     * @return its result
     * @throws IolabException when the child fails, times out or prints no result
     */
    static Latency measure(LatencyRun l, Path workDir) {
        return parse(ChildJvm.run("journal latency", workDir, dir -> command(l, dir), l.seconds() + l.warmup(), null,
                System.err));
    }

    /**
     * @param l a latency run
     * @param dir its journal folder
     * @return the child JVM's command: this JVM's java and class path, the journal benchmarks' JVM flags
     */
    static List<String> command(LatencyRun l, Path dir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmFlags());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), JournalPlan.LATENCY_CLASS,
                "--dir", dir.toString(), "--backend", l.backend(), "--durability", l.durabilityParam(),
                "--record-size", Long.toString(l.recordSize()), "--rate", Long.toString(l.rate()),
                "--seconds", number(l.seconds()), "--mode", l.mode(), "--warmup", number(l.warmup())));
        return cmd;
    }

    /** @return the JVM flags the journal benchmarks fork with (their {@code @Fork(jvmArgsAppend)}) */
    static List<String> jvmFlags() {
        Fork fork = JournalAppendBenchmark.class.getAnnotation(Fork.class);
        return fork == null ? List.of("--enable-native-access=ALL-UNNAMED") : List.of(fork.jvmArgsAppend());
    }

    private static String number(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    /**
     * @param stdout what JournalLatency printed: one JSON line (the last line that starts with a brace)
     * @return the result
     * @throws IolabException when there is no such line or it does not parse
     */
    static Latency parse(String stdout) {
        String line = stdout.lines().map(String::strip).filter(s -> s.startsWith("{")).reduce((a, b) -> b)
                .orElseThrow(() -> new IolabException("the latency run printed no JSON line: '"
                        + (stdout.length() > 300 ? stdout.substring(0, 300) : stdout).strip() + "'"));
        ObjectReader reader = ResultSet.JSON.readerFor(Latency.class)
                .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        try {
            Latency l = reader.readValue(line);
            if (l.count() <= 0) {
                throw new IolabException("the latency run measured no appends: " + line);
            }
            return l;
        } catch (IOException e) {
            throw new IolabException("the latency run printed JSON that does not parse (" + e.getMessage().lines()
                    .findFirst().orElse("") + "): " + line, e);
        }
    }

    /** @return the latency results */
    List<Latency> latency() {
        return List.copyOf(latency);
    }

    /** @return the fio comparators */
    List<Limit> limits() {
        return List.copyOf(limits);
    }

    /** @return what is not measured and why */
    List<String> notes() {
        return List.copyOf(notes);
    }
}
