package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * At BATCH an update's old slot becomes a hole only once the update is durable. A put that found no hole used to
 * sync the redo log whenever such a free waited, so a run of updates synced at every put (632 µs each, slower than
 * ALWAYS). It now syncs for them only once they hold 64 KiB (or a 32nd of the data), and the file grows by no more.
 */
@Timeout(120)
class StoreBatchReuseTest {
    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return ("key" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i, int round) {
        byte[] v = new byte[100];
        Arrays.fill(v, (byte) (i * 31 + round));
        return v;
    }

    @Test
    void updatesDoNotSyncEachPutAndTheFileGrowsByAtMostTheReuseThreshold() {
        Path file = tmp.resolve("updates.store");
        // no group commit of its own during the test: every sync below is one a put forced
        StoreOptions options = StoreOptions.defaults().withDurability(Durability.BATCH)
                .withBatch(Duration.ofHours(1), 1L << 40);
        int n = 400;
        int round = 0;
        try (Store s = Store.open(file, options)) {
            for (int i = 0; i < n; i++) {
                s.put(key(i), value(i, round));
            }
            s.sync();
            long durable = s.durableSequence();
            long end = s.stats().dataEnd();
            round++;
            for (int i = 0; i < 300; i++) {
                s.put(key(i), value(i, round));
            }
            // 300 frees of 128 bytes wait: under 64 KiB, so no put synced for them
            assertEquals(durable, s.durableSequence(), s.stats().toString());
            assertEquals(300, s.stats().pendingFrees());
            for (int r = 0; r < 20; r++) {
                round++;
                for (int i = 0; i < n; i++) {
                    s.put(key(i), value(i, round));
                }
            }
            StoreStats st = s.stats();
            assertTrue(s.durableSequence() > durable, "no put synced to reuse the space: " + st);
            // slots of 120 and 128 bytes (keys of 4 to 6 bytes): a hole of one length does not always fit the next
            // put, hence a few slots more than 64 KiB; with no sync for the frees it would grow by 1 MiB
            assertTrue(st.dataEnd() <= end + (68 << 10), "the file grew from " + end + ": " + st);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(value(i, round), s.get(key(i)), "key " + i);
            }
        }
        try (Store s = Store.open(file, options)) {
            assertEquals(n, s.size());
            for (int i = 0; i < n; i++) {
                assertArrayEquals(value(i, round), s.get(key(i)), "key " + i + " after a reopen");
            }
        }
    }
}
