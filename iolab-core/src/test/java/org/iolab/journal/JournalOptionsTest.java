package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;

/** A batch interval too long for a long of nanoseconds is refused with the options' clear message. */
class JournalOptionsTest {
    @Test
    void aHugeBatchIntervalIsRefusedWithAClearMessage() {
        assertThrows(IolabException.class,
                () -> JournalOptions.defaults().withBatch(Duration.ofDays(200_000), 1 << 20));
    }
}
