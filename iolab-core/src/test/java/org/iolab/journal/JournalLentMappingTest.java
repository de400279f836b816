package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer's own journal keeps each segment's lent mapping ({@link SegmentRef#lent}) for every later reader: a replay
 * used to map the segment again and leave that mapping to the garbage collector, so 200 replays held 201 mappings of
 * one file (and a deleted segment kept its disk space while any of them lived). A mapping kept from while the segment
 * was the active one still reads it right once it is sealed.
 */
class JournalLentMappingTest {
    @TempDir
    Path tmp;

    /** Lines of /proc/self/maps naming {@code file} (no collection first: what a program holds between them). */
    private static long mappings(Path file) throws Exception {
        String name = file.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.endsWith(name)).count();
    }

    private static byte[] payload(long seq, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (seq * 31 + i);
        }
        return b;
    }

    /** Replays every record from {@code from} and checks each one's bytes; @return how many it read. */
    private static long replayChecked(Journal j, long from, java.util.function.LongToIntFunction size) {
        long[] n = {0};
        j.read(from, (seq, p) -> {
            byte[] got = new byte[p.remaining()];
            p.get(got);
            assertEquals(from + n[0], seq, "sequence");
            assertTrue(java.util.Arrays.equals(payload(seq, size.applyAsInt(seq)), got), "payload of record " + seq);
            n[0]++;
            return true;
        });
        return n[0];
    }

    private static long collections() {
        long n = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /** Replays every record without allocating per record; @return how many carried the bytes they should. */
    private static long replayInPlace(Journal j) {
        long[] good = {0};
        j.read(0, (seq, p) -> {
            boolean ok = p.remaining() == 64;
            for (int i = 0; ok && i < 64; i++) {
                ok = p.get(p.position() + i) == (byte) (seq * 31 + i);
            }
            good[0] += ok ? 1 : 0;
            return true;
        });
        return good[0];
    }

    /** @return a writer's journal on the segment backend, in folder {@code name}, holding {@code records} records */
    private Journal filled(String name, int records) {
        Journal j = Journal.open(tmp.resolve(name), JournalOptions.defaults().withBackend(Backend.SEGMENT)
                .withDurability(Durability.NONE).withSegmentSize(4 << 20));
        for (long i = 0; i < records; i++) {
            j.append(payload(i, 64));
        }
        return j;
    }

    @Test
    void repeatedReplaysOfTheSegmentBackendShareOneMapping() throws Exception {
        try (Journal j = filled("j", 20_000)) {
            Path segment = j.directory().resolve(Format.fileName(0));
            // a collection during the loop lets the kept mapping go (it is held weakly) and the next replay map
            // again before the collector's cleaner unmapped the old one: such a loop is run again
            for (int attempt = 1; ; attempt++) {
                long gcs = collections();
                long before = mappings(segment);
                for (int r = 0; r < 50; r++) {
                    assertEquals(20_000, replayInPlace(j));
                }
                long after = mappings(segment);
                if (collections() == gcs || attempt == 5) {
                    // the writer's own mapping, and one lent mapping the first replay made (it was +26 to +50)
                    assertTrue(after - before <= 1, "50 replays added " + (after - before) + " mappings of "
                            + segment + " (attempt " + attempt + ")");
                    break;
                }
            }
        }
    }

    @Test
    void theKeptMappingGoesWithACollectionOnceNoReaderHoldsIt() throws Exception {
        try (Journal j = filled("weak", 1000)) {
            Path segment = j.directory().resolve(Format.fileName(0));
            long base = mappings(segment);
            assertEquals(1000, replayInPlace(j));
            try (JournalReader r = j.reader(0)) {
                assertTrue(r.hasNext());
                r.next();
                // counted while a reader holds it (a collection right after the replay could already release it):
                // the kept mapping, and the reader's own file, which maps the segment in an arena until it closes
                assertEquals(base + 2, mappings(segment), "the kept mapping and the open reader's file");
            }
            // a strong hold kept one per segment for the journal's life: 66,000 small segments exhausted the
            // process's mappings (vm.max_map_count) and the JVM aborted
            long now = -1;
            for (int i = 0; i < 20 && now != base; i++) {
                System.gc();
                Thread.sleep(50);
                now = mappings(segment);
            }
            assertEquals(base, now, "mappings of the segment after collections, no reader open");
            assertEquals(1000, replayInPlace(j), "a replay after the kept mapping went");
        }
    }

    @Test
    void aMappingKeptBeforeTheSealStillReadsTheSealedSegmentAndTheNext() throws Exception {
        // record 100 does not fit in the first segment: it rolls, with the first segment's mapping kept by the
        // first replay, made while that segment was the active one
        java.util.function.LongToIntFunction size = seq -> seq == 100 ? 250 << 10 : 100;
        for (Backend b : List.of(Backend.SEGMENT, Backend.MAPPED)) {
            Path dir = tmp.resolve(b.label());
            JournalOptions o = JournalOptions.defaults().withBackend(b).withDurability(Durability.NONE)
                    .withSegmentSize(256 << 10);
            long seq = 0;
            try (Journal j = Journal.open(dir, o)) {
                for (; seq < 100; seq++) {
                    j.append(payload(seq, size.applyAsInt(seq)));
                }
                assertEquals(100, replayChecked(j, 0, size), b + ": first replay"); // kept now, whole segment
                while (j.segmentCount() < 3) {
                    j.append(payload(seq, size.applyAsInt(seq)));
                    seq++;
                }
                for (int r = 0; r < 3; r++) {
                    assertEquals(seq, replayChecked(j, 0, size), b + ": replay " + r + " after the rolls");
                }
                assertEquals(seq - 50, replayChecked(j, 50, size), b + ": replay from 50");
                try (JournalReader r = j.reader(99)) {
                    for (long s = 99; s < seq; s++) {
                        assertTrue(r.hasNext(), b + ": record " + s);
                        assertEquals(new Record(s, payload(s, size.applyAsInt(s))), r.next(), b + ": record " + s);
                    }
                }
            }
            try (Journal reopened = Journal.open(dir, o)) {
                assertEquals(seq, reopened.nextSequence(), b + ": records after reopen");
                assertEquals(seq, replayChecked(reopened, 0, size), b + ": replay after reopen");
            }
        }
    }
}
