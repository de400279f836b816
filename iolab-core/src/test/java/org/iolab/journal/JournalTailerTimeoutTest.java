package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** "Wait as long as it takes": a poll with a very long timeout returns the record that is there. */
@Timeout(60)
class JournalTailerTimeoutTest {
    @TempDir
    Path tmp;

    @Test
    void aPollWithAVeryLongTimeoutReturnsTheRecordThatIsThere() {
        JournalOptions o = JournalOptions.defaults().withDurability(Durability.NONE);
        try (Journal j = Journal.open(tmp, o); Tailer t = j.tailer(0)) {
            j.append(new byte[] {1});
            j.append(new byte[] {2});
            Record r = assertDoesNotThrow(() -> t.poll(ChronoUnit.FOREVER.getDuration()));
            assertEquals(0, r.sequence());
            Record r2 = assertDoesNotThrow(() -> t.poll(Duration.ofMillis(Long.MAX_VALUE)));
            assertEquals(1, r2.sequence());
        }
    }
}
