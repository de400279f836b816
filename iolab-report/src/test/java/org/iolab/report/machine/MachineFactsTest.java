package org.iolab.report.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.iolab.report.model.Fact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineFactsTest {
    @TempDir
    Path dir;

    private Map<String, String> facts() {
        List<Fact> facts = MachineFacts.collect(dir);
        assertEquals(MachineFacts.NAMES, facts.stream().map(Fact::name).toList());
        return facts.stream().collect(Collectors.toMap(Fact::name, Fact::value));
    }

    @Test
    void everyFactIsPresentAndShort() {
        for (Map.Entry<String, String> f : facts().entrySet()) {
            assertFalse(f.getValue().isBlank(), f.getKey());
            if (!f.getKey().equals(MachineFacts.JVM_FLAGS)) {
                assertTrue(f.getValue().length() < 300, f::toString);
            }
        }
    }

    @Test
    void ramCpuAndJdkArePlausible() {
        Map<String, String> f = facts();
        assertTrue(f.get(MachineFacts.RAM).matches("\\d+(\\.\\d)? (MiB|GiB|TiB)"), f.get(MachineFacts.RAM));
        assertFalse(f.get(MachineFacts.CPU).startsWith("unknown"), f.get(MachineFacts.CPU));
        assertTrue(f.get(MachineFacts.CORES).startsWith(Runtime.getRuntime().availableProcessors() + ""),
                f.get(MachineFacts.CORES));
        assertTrue(f.get(MachineFacts.JDK).contains(System.getProperty("java.runtime.version")),
                f.get(MachineFacts.JDK));
        assertTrue(f.get(MachineFacts.JDK).startsWith(System.getProperty("java.vendor")), f.get(MachineFacts.JDK));
        assertTrue(f.get(MachineFacts.PAGE_SIZE).matches("\\d+ KiB"), f.get(MachineFacts.PAGE_SIZE));
        assertTrue(f.get(MachineFacts.FREE_SPACE).contains(" of "), f.get(MachineFacts.FREE_SPACE));
        assertFalse(f.get(MachineFacts.KERNEL).startsWith("unknown"), f.get(MachineFacts.KERNEL));
        assertFalse(f.get(MachineFacts.FILESYSTEM).startsWith("unknown"), f.get(MachineFacts.FILESYSTEM));
        assertTrue(f.get(MachineFacts.JVM_FLAGS).contains("-Xmx1g") || !f.get(MachineFacts.JVM_FLAGS).isEmpty());
    }

    @Test
    void bracketedValueIsTheSelectedOne() {
        assertEquals("madvise", MachineFacts.bracketed("always [madvise] never"));
        assertEquals("mq-deadline", MachineFacts.bracketed("none [mq-deadline] kyber bfq"));
        assertEquals("none", MachineFacts.bracketed("none"));
    }

    @Test
    void missingFolderGivesUnknownsNotExceptions() {
        List<Fact> facts = MachineFacts.collect(dir.resolve("does/not/exist"));
        assertEquals(MachineFacts.NAMES.size(), facts.size());
        String free = facts.stream().filter(x -> x.name().equals(MachineFacts.FREE_SPACE)).findFirst()
                .orElseThrow().value();
        assertTrue(free.startsWith("unknown ("), free);
    }
}
