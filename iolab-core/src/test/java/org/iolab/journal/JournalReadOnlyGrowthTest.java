package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.time.Duration;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A read-only journal follows a writer whose segment file grows while it is followed (a mapped backend without
 * preallocation grows its file in 1 MiB steps): the tailer must see every record, not stop where the file ended when
 * the follower first opened it.
 */
@Timeout(120)
class JournalReadOnlyGrowthTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aReadOnlyTailerFollowsPastTheFileSizeItFirstSaw(Backend backend) throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withSegmentSize(16L << 20)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
        int size = 60_000;
        int n = 60; // about 3.6 MiB, all in the first segment
        try (Journal writer = Journal.open(tmp, o)) {
            writer.append(Payloads.of(0, size));
            try (Journal ro = Journal.openReadOnly(tmp, o); Tailer tailer = ro.tailer(0)) {
                assertEquals(0, tailer.poll(Duration.ofSeconds(5)).sequence());
                for (int i = 1; i < n; i++) {
                    writer.append(Payloads.of(i, size));
                }
                assertEquals(1, writer.segmentCount());
                for (long seq = 1; seq < n; seq++) {
                    Record rec = tailer.poll(Duration.ofSeconds(3));
                    assertNotNull(rec, "the read-only tailer saw no record " + seq + " (the writer has "
                            + writer.nextSequence() + ", the read-only journal says " + ro.nextSequence() + ")");
                    assertEquals(seq, rec.sequence());
                    assertArrayEquals(Payloads.of(seq, size), rec.payload());
                }
            }
        }
    }

    /** The follower opens while the writer is closed (its file cut to its records), then the writer comes back. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aReadOnlyTailerOpenedWhileTheWriterIsClosedFollowsItsReopen(Backend backend) throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withSegmentSize(1L << 20)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
        try (Journal writer = Journal.open(tmp, o)) {
            writer.append(Payloads.of(0, 100));
        }
        try (Journal ro = Journal.openReadOnly(tmp, o); Tailer tailer = ro.tailer(0)) {
            assertEquals(0, tailer.poll(Duration.ofSeconds(5)).sequence());
            try (Journal writer = Journal.open(tmp, o)) {
                for (int i = 1; i < 10; i++) {
                    writer.append(Payloads.of(i, 100));
                }
                for (long seq = 1; seq < 10; seq++) {
                    Record rec = tailer.poll(Duration.ofSeconds(3));
                    assertNotNull(rec, "the read-only tailer saw no record " + seq + " (the writer has "
                            + writer.nextSequence() + ", the read-only journal says " + ro.nextSequence() + ")");
                    assertEquals(seq, rec.sequence());
                    assertArrayEquals(Payloads.of(seq, 100), rec.payload());
                }
            }
        }
    }
}
