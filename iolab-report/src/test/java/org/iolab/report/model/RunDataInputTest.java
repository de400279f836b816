package org.iolab.report.model;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Malformed results and sibling files are bad input: an {@link IolabException} naming the file, never a crash. */
class RunDataInputTest {
    @TempDir
    Path dir;

    private static String entry(String method, String pass) {
        return """
                {"benchmark":"org.iolab.bench.ReadBenchmark.pass","mode":"ss","jdkVersion":"25",
                 "params":{"method":"%s","bufferSize":"8192","fileSize":"65536","cache":"warm"},
                 "primaryMetric":{"score":1.0,"scoreUnit":"ms/op","rawData":[[1.0]]},
                 "secondaryMetrics":{"throughput":{"score":1.0,"scoreUnit":"B/s","rawData":[[%s]]}}}
                """.formatted(method, pass);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0", "-5.0", "1e400"})
    void aPassThatIsNotPositiveAndFiniteIsRefusedByItsEntry(String pass) throws IOException {
        Path results = Files.writeString(dir.resolve("results.json"),
                "[" + entry("raf-array", "1e8") + "," + entry("fis-array", pass) + "]");
        IolabException e = assertThrows(IolabException.class, () -> RunData.load(results));
        assertTrue(e.getMessage().contains("results.json") && e.getMessage().contains("entry 1"), e.getMessage());
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {"machine.json|null", "machine.json|[null]", "machine.json|[{}]",
        "limits.json|null", "limits.json|[null]", "limits.json|[{\"tool\":\"fio\"}]",
        "notes.json|null", "notes.json|[null]", "journal-latency.json|[{}]", "store-latency.json|[{}]",
        "store-compaction.json|[{}]", "store-compaction.json|[{\"records\":10,\"liveBytes\":100,\"before\":50}]"})
    void aNullOrIncompleteSiblingIsRefusedByName(String sibling, String content) throws IOException {
        Path results = Files.writeString(dir.resolve("results.json"), "[" + entry("raf-array", "1e8") + "]");
        Files.writeString(dir.resolve(sibling), content);
        IolabException e = assertThrows(IolabException.class, () -> RunData.load(results));
        assertTrue(e.getMessage().contains(sibling), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void theCompactionSizesGoOutAndComeBack() throws IOException {
        Path results = Files.writeString(dir.resolve("results.json"), "[" + entry("raf-array", "1e8") + "]");
        StoreCompaction c = new StoreCompaction(100_000, 5_388_890, 8_009_832, 8_005_832, 5_531_096, 255);
        RunData run = new RunData(ResultSet.load(results), java.util.List.of(), java.util.List.of(),
                java.util.List.of(), java.util.List.of(), java.util.List.of(), java.util.List.of(c));
        run.writeSiblings(dir);
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(c), RunData.load(results).compaction());
    }
}
