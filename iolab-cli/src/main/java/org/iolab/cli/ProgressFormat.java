package org.iolab.cli;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Locale;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * Replaces JMH's console output with one status line, rewritten in place: point i/N, the method and its
 * parameters, the pass, elapsed time and the estimated time left. JMH's own text is kept (the last lines)
 * so that a failure can show it.
 */
final class ProgressFormat implements OutputFormat {
    private static final int KEEP = 60;
    private final PrintStream err;
    /** On a terminal the line is rewritten in place; in a log, each point gets one line of its own. */
    private final boolean live;
    private final long start = System.nanoTime();
    private final double plannedTotal;
    private final Deque<String> lines = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private double plannedDone;
    private int index;
    private int total;
    private Task point;
    private int lastWidth;

    /**
     * @param err where the status line goes
     * @param plannedTotal the planner's estimate of the whole run, seconds
     */
    ProgressFormat(PrintStream err, double plannedTotal) {
        this.err = err;
        this.plannedTotal = plannedTotal;
        java.io.Console console = System.console();
        this.live = console != null && console.isTerminal();
    }

    /**
     * Announces the next point.
     *
     * @param i its number, from 1
     * @param n how many points there are
     * @param p the point (a file or a journal point)
     * @param doneBefore planned seconds of the points already run
     */
    void point(int i, int n, Task p, double doneBefore) {
        this.index = i;
        this.total = n;
        this.point = p;
        this.plannedDone = doneBefore;
        lines.clear();
        status("");
    }

    /**
     * Shows a line that is not about a point (e.g. preparing data files), in place.
     *
     * @param text what is happening
     */
    void message(String text) {
        if (!live) {
            err.println(text);
            return;
        }
        int width = text.length();
        err.print("\r" + text + (width < lastWidth ? " ".repeat(lastWidth - width) : ""));
        err.flush();
        lastWidth = width;
    }

    /** @return JMH's recent output, for failure messages */
    String recentOutput() {
        return String.join("\n", lines);
    }

    /** Ends the status line. */
    void finish() {
        if (lastWidth > 0) {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            err.flush();
            lastWidth = 0;
        }
    }

    private void status(String what) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        double left = Math.max(0, plannedTotal - plannedDone);
        // scale the plan by how fast the run has gone so far
        if (plannedDone > 0 && elapsed > 0) {
            left *= Math.min(4, Math.max(0.25, elapsed / plannedDone));
        }
        String line = String.format(Locale.ROOT, "[%d/%d] %s %s | elapsed %s, eta %s", index, total,
                point == null ? "" : point.describe(), what, clock(elapsed), clock(left));
        if (!live) {
            if (what.isEmpty()) {
                err.println(line.replace("  |", " |"));
            }
            return;
        }
        int width = line.length();
        String pad = width < lastWidth ? " ".repeat(lastWidth - width) : "";
        err.print("\r" + line + pad);
        err.flush();
        lastWidth = width;
    }

    private static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    @Override
    public void iteration(BenchmarkParams bp, IterationParams ip, int iteration) {
        String type = ip.getType().toString().toLowerCase(Locale.ROOT).contains("warm") ? "warm-up" : "pass";
        status(type + " " + iteration + "/" + ip.getCount());
    }

    @Override
    public void iterationResult(BenchmarkParams bp, IterationParams ip, int iteration, IterationResult r) {
        // the status line is enough
    }

    @Override
    public void startBenchmark(BenchmarkParams bp) {
        status("starting");
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        // the caller moves on to the next point
    }

    @Override
    public void startRun() {
        // nothing to show
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        // nothing to show
    }

    @Override
    public void print(String s) {
        partial.append(s);
        int nl;
        while ((nl = partial.indexOf("\n")) >= 0) {
            keep(partial.substring(0, nl));
            partial.delete(0, nl + 1);
        }
    }

    @Override
    public void println(String s) {
        print(s + "\n");
    }

    private void keep(String line) {
        lines.addLast(line);
        while (lines.size() > KEEP) {
            lines.removeFirst();
        }
    }

    @Override
    public void flush() {
        err.flush();
    }

    @Override
    public void close() {
        // System.err stays open
    }

    @Override
    public void verbosePrintln(String s) {
        // only for --verbose, which uses JMH's own format
    }

    @Override
    public void write(int b) {
        print(String.valueOf((char) b));
    }

    @Override
    public void write(byte[] b) {
        print(new String(b, java.nio.charset.StandardCharsets.UTF_8));
    }
}
