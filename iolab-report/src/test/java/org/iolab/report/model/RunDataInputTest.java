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

    /**
     * Writes {@code entries} as a results.json and checks that loading it is refused, naming the file and the last
     * entry (the bad one) and saying {@code says}.
     */
    private void assertRefused(String says, String... entries) throws IOException {
        Path results = Files.writeString(dir.resolve("results.json"), "[" + String.join(",", entries) + "]");
        IolabException e = assertThrows(IolabException.class, () -> RunData.load(results));
        assertTrue(e.getMessage().contains("results.json") && e.getMessage().contains("entry " + (entries.length - 1))
                && e.getMessage().contains(says), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0", "-5.0", "1e400", "4.9e-324", "1e-12"})
    void aPassThatIsNotAFiniteNumberLargeEnoughToChartIsRefusedByItsEntry(String pass) throws IOException {
        // 4.9e-324 passed the old "positive" check and crashed the charts' log axis
        assertRefused("at least", entry("raf-array", "1e8"), entry("fis-array", pass));
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

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "a renamed method parameter|\"method\":|\"methodName\":|params.method",
        "empty method|\"method\":\"raf-array\"|\"method\":\"\"|params.method",
        "unknown cache|\"cache\":\"warm\"|\"cache\":\"zzz\"|neither warm nor cold",
        "empty cache|\"cache\":\"warm\"|\"cache\":\"\"|neither warm nor cold"})
    void aReadEntryWithoutAMethodOrWithAnUnknownCacheIsRefused(String name, String from, String to, String says)
            throws IOException {
        // drawn, such entries crashed the charts (an empty series name) with an internal error
        assertRefused(says, entry("raf-array", "1e8"), entry("raf-array", "1e8").replace(from, to));
    }

    private static String storeEntry(String engine, String phase) {
        return """
                {"benchmark":"org.iolab.bench.store.StoreBenchmark.phase","mode":"ss","jdkVersion":"25",
                 "params":{"engine":"%s","phase":"%s","durability":"none","records":"1000"},
                 "primaryMetric":{"score":1.0,"scoreUnit":"ms/op","rawData":[[1.0, 1.1, 1.2]]}}
                """.formatted(engine, phase);
    }

    @ParameterizedTest(name = "engine {0}, phase {1}")
    @CsvSource({"iolab,compact,unknown phase 'compact'", "'',put,empty engine"})
    void aStoreEntryOfAnUnknownPhaseOrWithoutAnEngineIsRefused(String engine, String phase, String says)
            throws IOException {
        // a newer iolab's phase crashed the store chart (no known phase left to draw)
        assertRefused(says, storeEntry("iolab", "put"), storeEntry(engine, phase));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"\"durability\":\"none\"|\"durability\":\"sometimes\"|durability 'sometimes'",
        "\"records\":\"1000\"|\"records\":\"0\"|0 records"})
    void aStoreEntryOfAnUnknownDurabilityOrNoRecordsIsRefused(String from, String to, String says)
            throws IOException {
        assertRefused(says, storeEntry("iolab", "put"), storeEntry("iolab", "get").replace(from, to));
    }

    @ParameterizedTest(name = "backend {0}")
    @ValueSource(strings = {"floppy", ""})
    void aJournalEntryOfAnUnknownBackendIsRefused(String backend) throws IOException {
        // any name was drawn as a backend of its own, in the charts and the targets' tables
        String append = """
                {"benchmark":"org.iolab.bench.JournalAppendBenchmark.append","mode":"thrpt","jdkVersion":"25",
                 "params":{"backend":"%s","durability":"none","recordSize":"64"},
                 "primaryMetric":{"score":1.0,"scoreUnit":"ops/s","rawData":[[1.0e6, 1.1e6]]}}
                """;
        assertRefused("unknown storage backend '" + backend + "'", append.formatted("segment"),
                append.formatted(backend));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"\"stride\":\"4096\"|\"stride\":\"0\"|stride 0",
        "\"fileSize\":\"65536\"|\"fileSize\":\"0\"|file size 0",
        "\"length\":\"8\"|\"length\":\"2g\"|probe length"})
    void aRandomAccessEntryOfStrideOrFileSizeZeroOrAProbeOverTwoGibibytesIsRefused(String from, String to,
            String says) throws IOException {
        // a stride of 0 divided by zero ("/ by zero" was the message); a length of 2g was cast to a negative int
        assertRefused(says, """
                {"benchmark":"org.iolab.bench.RandomAccessBenchmark.pass","mode":"ss","jdkVersion":"25",
                 "params":{"method":"raf-seek","fileSize":"65536","cache":"warm","stride":"4096","length":"8"},
                 "primaryMetric":{"score":1.0,"scoreUnit":"ms/op","rawData":[[1.0]]}}
                """.replace(from, to));
    }

    @org.junit.jupiter.api.Test
    void aResultsFileLargerThanAnyRunWritesIsRefusedBeforeItIsRead() throws IOException {
        Path results = dir.resolve("results.json");
        try (var f = new java.io.RandomAccessFile(results.toFile(), "rw")) {
            f.setLength(3L << 30); // sparse: reading it whole used to end in an OutOfMemoryError
        }
        IolabException e = assertThrows(IolabException.class, () -> ResultSet.load(results));
        assertTrue(e.getMessage().contains("results.json") && e.getMessage().contains("is longer than"),
                e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void aCutOffResultsFileIsRefusedWithWhereItEnds() throws IOException {
        String whole = "[" + entry("raf-array", "1e8") + "]";
        Path results = Files.writeString(dir.resolve("results.json"), whole.substring(0, whole.length() / 2));
        IolabException e = assertThrows(IolabException.class, () -> ResultSet.load(results));
        assertTrue(e.getMessage().contains("results.json") && e.getMessage().contains(" at line "), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void aDeviceWithoutEndIsRefusedWithoutRunningOutOfMemory() {
        // a device has no size to ask: /dev/zero was read until the heap ran out
        Path zero = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(zero), "no /dev/zero here");
        IolabException e = assertThrows(IolabException.class, () -> ResultSet.load(zero));
        assertTrue(e.getMessage().contains("is longer than"), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void aSiblingEntryWithAFieldOfANewerVersionIsRead() throws IOException {
        Path results = Files.writeString(dir.resolve("results.json"), "[" + entry("raf-array", "1e8") + "]");
        Files.writeString(dir.resolve("machine.json"), "[{\"name\":\"cpu\",\"value\":\"x\",\"since\":\"0.2\"}]");
        org.junit.jupiter.api.Assertions.assertEquals("x", RunData.load(results).machine().getFirst().value());
    }

    @org.junit.jupiter.api.Test
    void aLimitWithoutPassesIsRefusedByName() throws IOException {
        Path results = Files.writeString(dir.resolve("results.json"), "[" + entry("raf-array", "1e8") + "]");
        Files.writeString(dir.resolve("limits.json"), "[{\"tool\":\"fio\",\"operation\":\"read-direct\"}]");
        IolabException e = assertThrows(IolabException.class, () -> RunData.load(results));
        assertTrue(e.getMessage().contains("limits.json") && e.getMessage().contains("has no passes"),
                e.getMessage());
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
