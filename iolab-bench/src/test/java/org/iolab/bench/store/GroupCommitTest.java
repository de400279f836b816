package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;

/** The sync policy of each durability level as the adapters use it. */
class GroupCommitTest {
    @Test
    void noneIsNeverDueAlwaysIsDueAtEveryWrite() {
        GroupCommit none = GroupCommit.of(Durability.NONE);
        GroupCommit always = GroupCommit.of(Durability.ALWAYS);
        for (int i = 0; i < 10_000; i++) {
            assertFalse(none.add(1 << 20), "NONE asked for a sync");
            assertTrue(always.add(1), "ALWAYS did not ask for a sync");
            always.done();
        }
    }

    @Test
    void batchIsDueAfterOneMebibyteAndNotBefore() {
        GroupCommit batch = new GroupCommit(GroupCommit.BYTES, Long.MAX_VALUE);
        assertFalse(batch.add(GroupCommit.BYTES - 1));
        assertTrue(batch.add(1));
        batch.done();
        assertFalse(batch.add(1));
    }
}
