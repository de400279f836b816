package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/** Runs the read benchmark through JMH for real, in a forked JVM, as the CLI does. */
class JmhRunTest {
    @TempDir
    Path dir;

    @Test
    void readBenchmarkRunsInAFork() throws Exception {
        Path json = dir.resolve("result.json");
        Options options = new OptionsBuilder()
                .include(BenchmarkNames.includePattern(BenchmarkNames.READ))
                .param("method", "fis-array")
                .param("fileSize", "1m")
                .param("bufferSize", "8k")
                .param("cache", "warm")
                .param("dir", dir.toString())
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(2)
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString())
                .build();
        Collection<RunResult> results = new Runner(options).run();
        assertEquals(1, results.size());
        RunResult result = results.iterator().next();
        assertEquals(BenchmarkNames.READ, result.getParams().getBenchmark());
        assertEquals(2, result.getPrimaryResult().getStatistics().getN());
        String text = Files.readString(json);
        assertTrue(text.contains("\"benchmark\""), text);
        assertTrue(text.contains("org.iolab.bench.ReadBenchmark.pass"), text);
        assertTrue(text.contains("\"fileSize\" : \"1m\""), text);
        assertTrue(Files.notExists(dir.resolve(BenchmarkNames.dataFileName(1 << 20))),
                "the fork deleted the data file it created");
    }
}
