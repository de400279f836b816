package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.iolab.catalogue.Kind;
import org.iolab.report.model.Advice;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.junit.jupiter.api.Test;

class AdvisorTest {
    @Test
    void quickProfileGivesFourWorkloads() {
        List<Advice> advice = Advisor.advise(Fixtures.run("quick-trimmed.json"));
        assertEquals(List.of(Advisor.SEQUENTIAL_READ_WARM, Advisor.SEQUENTIAL_READ_COLD, Advisor.SEQUENTIAL_WRITE,
                Advisor.RANDOM_READ), advice.stream().map(Advice::workload).toList());
        for (Advice a : advice) {
            assertNotEquals(a.best().method(), a.runnerUp().method(), a.text());
            assertTrue(a.best().stats().median() >= a.runnerUp().stats().median(), a.text());
            assertEquals(a.best().stats().distinguishableFrom(a.runnerUp().stats()), a.clearlyAhead());
            assertTrue(a.text().startsWith("Use " + a.best().method()), a.text());
        }
        Advice warm = advice.getFirst();
        assertEquals("segment-mapped", warm.best().method());
        assertTrue(warm.text().contains("From a cold cache segment-mapped leads"), warm.text());
        assertEquals("warm", warm.best().cache());
        assertEquals("cold", advice.get(1).best().cache());
    }

    @Test
    void clearlyAheadOrTied() {
        List<Advice> holds = Advisor.advise(Fixtures.run("claims-holds.json"));
        Advice random = holds.stream().filter(a -> a.workload().equals(Advisor.RANDOM_READ)).findFirst()
                .orElseThrow();
        assertEquals("raf-seek", random.best().method());
        assertTrue(random.clearlyAhead());
        assertTrue(random.text().contains("2.02x bis-skip (410 k probes/s), clearly ahead."), random.text());

        Advice noisy = Advisor.advise(Fixtures.run("claims-noisy.json")).getFirst();
        assertEquals("channel-direct-array", noisy.best().method());
        assertTrue(!noisy.clearlyAhead() && noisy.text().contains("tied within the noise with channel-heap-array"),
                noisy.text());
    }

    @Test
    void aSingleMethodHasNoRunnerUp() {
        Advice write = Advisor.advise(Fixtures.run("claims-holds.json")).stream()
                .filter(a -> a.workload().equals(Advisor.SEQUENTIAL_WRITE)).findFirst().orElseThrow();
        assertNull(write.runnerUp());
        assertTrue(write.text().contains("no other method"), write.text());
    }

    private static Measurement warmRead(String method, long fileSize, double bytesPerSecond) {
        return new Measurement(Bench.READ, method, Kind.READ, 8192, true, fileSize, "warm", null, false, 0, 0, "B/s",
                List.of(bytesPerSecond, bytesPerSecond * 1.01, bytesPerSecond * 1.02), List.of(), "25");
    }

    @Test
    void theWinnerAndItsRunnerUpAreTakenOnOneFileSizeTheLargest() {
        long mib = 1L << 20;
        long gib = 1L << 30;
        RunData run = new RunData(new ResultSet(null, List.of(warmRead("segment-mapped", mib, 20e9),
                warmRead("segment-mapped", gib, 3.0e9), warmRead("channel-positional", mib, 9.0e9),
                warmRead("channel-positional", gib, 8.0e9))), List.of(), List.of(), List.of());
        Advice warm = Advisor.advise(run).getFirst();
        assertEquals("channel-positional", warm.best().method(), warm.text());
        assertEquals(gib, warm.best().fileSize());
        assertEquals(gib, warm.runnerUp().fileSize(), "the runner-up is on the same file");
        assertTrue(warm.text().contains("on the 1 GiB file, the largest measured"), warm.text());
    }
}
