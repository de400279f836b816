package org.iolab.report.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.iolab.report.model.Advice;
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
}
