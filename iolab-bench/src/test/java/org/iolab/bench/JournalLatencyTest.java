package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Short, low-rate runs of the latency harness, and its command line. */
class JournalLatencyTest {

    @TempDir
    Path dir;

    static Stream<Arguments> modesAndDurabilities() {
        return Stream.of(
                Arguments.of(LatencySpec.Mode.TAIL, Durability.NONE, 1000),
                Arguments.of(LatencySpec.Mode.TAIL, Durability.BATCH, 1000),
                Arguments.of(LatencySpec.Mode.DURABLE, Durability.NONE, 200),
                Arguments.of(LatencySpec.Mode.DURABLE, Durability.BATCH, 1000),
                // one fsync per record: a rate a slow, shared disk still sustains
                Arguments.of(LatencySpec.Mode.DURABLE, Durability.ALWAYS, 50));
    }

    private long entries() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @ParameterizedTest
    @MethodSource("modesAndDurabilities")
    void aShortRunAtALowRateGivesSaneNumbers(LatencySpec.Mode mode, Durability durability, long rate)
            throws Exception {
        LatencySpec spec = new LatencySpec(dir, Backend.SEGMENT, durability, 64, rate, 1.0, 0.25, mode);
        LatencyResult r = JournalLatency.measure(spec);
        assertEquals(mode, r.mode());
        assertEquals(durability, r.durability());
        assertEquals(Backend.SEGMENT, r.backend());
        assertEquals(64, r.recordSize());
        assertEquals(rate, r.rate());
        assertEquals(rate, r.count(), "every scheduled record of the recorded second, none of the warm-up");
        assertTrue(r.p50Nanos() > 0, r.toString());
        assertTrue(r.p50Nanos() <= r.p90Nanos(), r.toString());
        assertTrue(r.p90Nanos() <= r.p99Nanos(), r.toString());
        assertTrue(r.p99Nanos() <= r.p999Nanos(), r.toString());
        assertTrue(r.p999Nanos() <= r.maxNanos(), r.toString());
        assertTrue(r.meanNanos() > 0 && r.meanNanos() <= r.maxNanos(), r.toString());
        // the rate is the schedule's, not the device's: a slow fsync on a shared disk (ALWAYS) only makes the last
        // records late, so the bound is loose below; it catches a rate off by a unit, not a slow machine
        assertTrue(r.achievedRate() > rate * 0.5 && r.achievedRate() < rate * 1.2, r.toString());
        assertEquals(0, entries(), "the journal's folder is deleted");
    }

    @Test
    void theScheduleNeverSkipsARecord() {
        LatencySpec spec = new LatencySpec(null, Backend.SEGMENT, Durability.NONE, 8, 3, 2.0, 1.0,
                LatencySpec.Mode.TAIL);
        assertEquals(3, spec.warmupRecords());
        assertEquals(9, spec.totalRecords());
        assertEquals(0, spec.intendedOffsetNanos(0));
        assertEquals(333_333_333, spec.intendedOffsetNanos(1));
        assertEquals(1_000_000_000, spec.intendedOffsetNanos(3));
        LatencySpec fast = new LatencySpec(null, Backend.SEGMENT, Durability.NONE, 8, LatencySpec.MAX_RATE, 1.0, 0,
                LatencySpec.Mode.TAIL);
        assertEquals(100, fast.intendedOffsetNanos(1));
        assertEquals(922_337_203_600L, fast.intendedOffsetNanos(9_223_372_036L), "the largest exact index");
        assertEquals(1_000_000_000_000L, fast.intendedOffsetNanos(10_000_000_000L), "larger ones do not overflow");
    }

    @Test
    void aTemporaryFolderIsUsedAndRemovedWithoutADir() throws Exception {
        LatencySpec spec = new LatencySpec(null, Backend.MAPPED, Durability.NONE, 100, 2000, 0.2, 0,
                LatencySpec.Mode.TAIL);
        LatencyResult r = JournalLatency.measure(spec);
        assertEquals(400, r.count());
        assertEquals(0, entries());
    }

    @Test
    void mainPrintsOneJsonLineWithEveryField() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = JournalLatency.run(new String[] {"--dir", dir.toString(), "--backend", "channel-heap",
            "--durability", "batch", "--record-size", "1k", "--rate", "500", "--seconds", "0.5", "--mode",
            "durable", "--warmup=0.1"}, print(out), print(err));
        assertEquals(0, code, text(err));
        String json = text(out);
        assertTrue(json.endsWith("\n") && json.indexOf('\n') == json.length() - 1, json);
        for (String field : new String[] {"recordSize", "rate", "count", "p50Nanos", "p90Nanos", "p99Nanos",
            "p999Nanos", "maxNanos", "meanNanos", "achievedRate"}) {
            Matcher m = Pattern.compile("\"" + field + "\":([0-9.]+)[,}]").matcher(json);
            assertTrue(m.find(), field + " in " + json);
            assertTrue(Double.parseDouble(m.group(1)) > 0, field + " in " + json);
        }
        assertTrue(json.startsWith("{\"mode\":\"durable\",\"backend\":\"channel-heap\",\"durability\":\"batch\","
                + "\"recordSize\":1024,\"rate\":500,\"count\":250,"), json);
        assertEquals("", text(err));
    }

    @ParameterizedTest
    @ValueSource(strings = {"--rate zero|--rate", "--rate 0|--rate", "--seconds -1|--seconds", "--warmup x|--warmup",
        "--mode sideways|--mode", "--record-size 4|--record-size", "--record-size 1g|--record-size",
        "--backend tape|--backend", "--durability maybe|--durability", "--dir /no/such/folder|--dir",
        "--frobnicate 1|--frobnicate", "--rate|--rate", "--rate 1 --rate 2|twice", "--rate 1 --seconds 0.1|--seconds"})
    void badArgumentsGiveOneLineNamingTheOption(String row) {
        String[] parts = row.split("\\|");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = JournalLatency.run(parts[0].split(" "), print(out), print(err));
        assertEquals(2, code);
        assertEquals("", text(out));
        String message = text(err);
        assertEquals(1, message.lines().count(), message);
        assertTrue(message.startsWith("iolab: journal latency: "), message);
        assertTrue(message.contains(parts[1]), message);
    }

    @Test
    void specRefusesValuesOutOfRange() {
        assertThrows(IolabException.class, () -> new LatencySpec(dir, Backend.SEGMENT, Durability.NONE, 7, 10, 1, 0,
                LatencySpec.Mode.TAIL));
        assertThrows(IolabException.class, () -> new LatencySpec(dir, Backend.SEGMENT, Durability.NONE, 8,
                LatencySpec.MAX_RATE + 1, 1, 0, LatencySpec.Mode.TAIL));
        assertThrows(IolabException.class, () -> new LatencySpec(dir, Backend.SEGMENT, Durability.NONE, 8, 10,
                Double.NaN, 0, LatencySpec.Mode.TAIL));
        assertThrows(IolabException.class, () -> new LatencySpec(dir, Backend.SEGMENT, Durability.NONE, 8, 10, 1,
                -1, LatencySpec.Mode.TAIL));
    }

    @Test
    void aRecordLargerThanASegmentIsRefusedBeforeAnythingIsWritten() throws Exception {
        int tooLarge = Math.toIntExact(org.iolab.journal.JournalOptions.defaults().maxRecordSize() + 1);
        LatencySpec spec = new LatencySpec(dir, Backend.SEGMENT, Durability.NONE, tooLarge, 10, 1, 0,
                LatencySpec.Mode.TAIL);
        IolabException e = assertThrows(IolabException.class, () -> JournalLatency.measure(spec));
        assertTrue(e.getMessage().contains("--record-size"), e.getMessage());
        assertEquals(0, entries());
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
