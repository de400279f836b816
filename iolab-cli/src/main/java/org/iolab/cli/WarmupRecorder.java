package org.iolab.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * Passes JMH's output on to another format and keeps the time of every warm-up pass, per fork: JMH's
 * results hold only the measured passes, and the first passes are where allocation and JIT costs show.
 */
final class WarmupRecorder implements OutputFormat {
    private final OutputFormat next;
    private final List<List<Double>> seconds = new ArrayList<>();

    /**
     * @param next the format that shows the output
     */
    WarmupRecorder(OutputFormat next) {
        this.next = next;
    }

    /**
     * @return the warm-up pass times in seconds since the last call, one list per fork, and forgets them
     */
    List<List<Double>> take() {
        List<List<Double>> out = seconds.stream().map(List::copyOf).toList();
        seconds.clear();
        return out;
    }

    @Override
    public void iterationResult(BenchmarkParams bp, IterationParams ip, int iteration, IterationResult r) {
        // throughput points (journal appends) have rates, not pass times; their warm-ups are not recorded
        if (ip.getType() == IterationType.WARMUP && r.getScoreUnit().endsWith("/op")) {
            if (iteration == 1 || seconds.isEmpty()) {
                seconds.add(new ArrayList<>()); // a new fork starts its warm-up at pass 1
            }
            seconds.getLast().add(r.getPrimaryResult().getScore() * Results.secondsPer(r.getScoreUnit()));
        }
        next.iterationResult(bp, ip, iteration, r);
    }

    @Override
    public void iteration(BenchmarkParams bp, IterationParams ip, int iteration) {
        next.iteration(bp, ip, iteration);
    }

    @Override
    public void startBenchmark(BenchmarkParams bp) {
        next.startBenchmark(bp);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        next.endBenchmark(result);
    }

    @Override
    public void startRun() {
        next.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        next.endRun(result);
    }

    @Override
    public void print(String s) {
        next.print(s);
    }

    @Override
    public void println(String s) {
        next.println(s);
    }

    @Override
    public void flush() {
        next.flush();
    }

    @Override
    public void close() {
        next.flush(); // the next format may write to System.out, which stays open
    }

    @Override
    public void verbosePrintln(String s) {
        next.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        next.write(b);
    }

    @Override
    public void write(byte[] b) {
        try {
            next.write(b);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
