package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link PendingFrees} against a deque of the same entries: order, membership and bytes across growth and wrap. */
class PendingFreesTest {
    @Test
    void keepsOrderMembershipAndBytesLikeADeque() {
        PendingFrees p = new PendingFrees();
        ArrayDeque<long[]> model = new ArrayDeque<>();
        SplittableRandom r = new SplittableRandom(3);
        long seq = 0;
        long nextOffset = 4096;
        for (int step = 0; step < 200_000; step++) {
            if (r.nextInt(100) < 55 || model.isEmpty()) {
                int len = 8 * (2 + r.nextInt(100));
                p.add(++seq, nextOffset, len);
                model.add(new long[] {seq, nextOffset, len});
                nextOffset += len;
            } else {
                long[] first = model.poll();
                assertEquals(first[0], p.firstSeq());
                assertEquals(first[1], p.firstOffset());
                assertEquals(first[2], p.firstLength());
                assertTrue(p.contains(first[1]));
                p.removeFirst();
                assertFalse(p.contains(first[1]));
            }
            assertEquals(model.size(), p.size());
            assertEquals(model.isEmpty(), p.isEmpty());
            if (step % 997 == 0) {
                long bytes = 0;
                for (long[] e : model) {
                    bytes += e[2];
                    assertTrue(p.contains(e[1]));
                }
                assertEquals(bytes, p.bytes());
                assertFalse(p.contains(nextOffset));
            }
        }
    }
}
