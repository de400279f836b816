package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Drives JournalFollowBenchmark's state by hand on every backend: each call's record comes back; clean-up. */
class JournalFollowBenchmarkTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"raf", "channel-heap", "channel-direct", "mapped", "segment"})
    void everyAppendedRecordIsReadBackThroughTheReadOnlyJournal(String backend) {
        JournalFollowBenchmark b = new JournalFollowBenchmark();
        b.backend = backend;
        b.recordSize = "100";
        b.dir = dir.toString();
        b.setupTrial();
        Path folder = b.folder();
        for (long i = 0; i < 500; i++) {
            assertEquals(i, b.appendThenFollow());
        }
        b.tearDownTrial();
        assertFalse(Files.exists(folder));
    }
}
