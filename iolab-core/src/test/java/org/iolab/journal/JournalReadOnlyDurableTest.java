package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only journal cannot know what its writer synced: it reports nothing durable, and awaitDurable throws, as the
 * class javadoc says (it called every record it could see durable).
 */
@Timeout(60)
class JournalReadOnlyDurableTest {
    @TempDir
    Path tmp;

    @Test
    void aReadOnlyJournalDoesNotCallUnsyncedRecordsDurable() {
        try (Journal writer = Journal.open(tmp, JournalOptions.defaults().withDurability(Durability.NONE))) {
            for (int i = 0; i < 10; i++) {
                writer.append(new byte[] {(byte) i});
            }
            assertEquals(-1, writer.durableSequence(), "the writer: nothing synced yet");
            try (Journal ro = Journal.openReadOnly(tmp, JournalOptions.defaults())) {
                assertEquals(10, ro.nextSequence());
                // "append, sync and awaitDurable throw" (openReadOnly's javadoc)
                assertAll(
                        () -> assertEquals(-1, ro.durableSequence(), "records no sync covered reported durable"),
                        () -> assertThrows(IolabException.class, () -> ro.awaitDurable(5),
                                "awaitDurable on a read-only journal"));
            }
        }
    }
}
