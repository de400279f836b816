package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link FreeSpace} against a plain model: best fit by length, removal by offset, counts and bytes. */
class FreeSpaceTest {
    @Test
    void bestFitTakesTheExactLengthElseTheSmallestLargerOne() {
        FreeSpace f = new FreeSpace();
        f.add(4096, 64);
        f.add(8192, 128);
        f.add(16384, 8192);
        int[] len = new int[1];
        assertEquals(4096, f.take(64, len));
        assertEquals(64, len[0]);
        assertEquals(8192, f.take(72, len));
        assertEquals(128, len[0]);
        assertEquals(16384, f.take(136, len));
        assertEquals(8192, len[0]);
        assertEquals(-1, f.take(24, len));
        assertEquals(0, f.count());
        assertEquals(0, f.bytes());
    }

    @Test
    void mergeJoinsNeighboursUpToTheLongestSlotAndGivesBackTheHolesAtTheDataEnd() {
        FreeSpace f = new FreeSpace();
        for (int i = 99; i >= 0; i--) {
            f.add(4096 + 64L * i, 64); // 100 neighbours, added backwards
        }
        f.add(20_000, 40); // alone
        java.util.List<Long> made = new java.util.ArrayList<>();
        assertEquals(30_000, f.merge(1024, 30_000, (offset, length) -> made.add(offset << 16 | length)),
                "no hole ends at the data end");
        java.util.List<Long> expected = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            expected.add((4096 + 1024L * i) << 16 | 1024); // 16 holes each, up to the longest slot
        }
        expected.add((4096 + 6144L) << 16 | 256); // the last 4
        assertEquals(expected, made);
        assertEquals(8, f.count());
        assertEquals(6400 + 40, f.bytes());
        for (int i = 0; i < 6; i++) {
            assertTrue(f.take(1024, new int[1]) >= 4096);
        }
        assertEquals(4096 + 6144, f.take(256, new int[1]));
        assertEquals(20_000, f.take(40, new int[1]));
        assertTrue(f.isEmpty());

        // at the end: a lone hole, or a run longer than the longest slot, goes back whole
        FreeSpace tail = new FreeSpace();
        tail.add(4096, 64);
        for (int i = 0; i < 40; i++) {
            tail.add(8192 + 64L * i, 64);
        }
        made.clear();
        assertEquals(8192, tail.merge(1024, 8192 + 64 * 40, (offset, length) -> made.add(offset)));
        assertEquals(java.util.List.of(), made, "holes given back need no header");
        assertEquals(1, tail.count());
        assertEquals(64, tail.bytes());
        assertEquals(4096, tail.merge(1024, 4096 + 64, (offset, length) -> made.add(offset)));
        assertTrue(tail.isEmpty());
        tail.add(4096, 64);
        assertEquals(8192, tail.merge(1024, 8192, (offset, length) -> made.add(offset)));
        assertEquals(1, tail.count());
        assertEquals(java.util.List.of(), made);
    }

    @Test
    void homeSlotsSpreadOverTablesOfEverySize() {
        // a 2^26-slot map (about 33 million holes): homes must reach its upper half, not only the first 2^24 slots
        for (int bits : new int[] {6, 20, 26, 30}) {
            int max = 0;
            for (long offset = 4096; offset < 4096 + 8L * 100_000; offset += 8) {
                max = Math.max(max, FreeSpace.home(offset, bits));
            }
            assertTrue(max >= 3 << (bits - 2) && max < 1 << bits, bits + " bits: highest home " + max);
        }
    }

    @Test
    void holesAddedInAnotherMapsOrderDoNotCluster() {
        // a checkpoint's holes arrive in the writer's table order; with one hash for every table size, each landed
        // at the end of a run that grew until the table doubled: 50,000 holes took 6 ms to load, 100 ms at worst
        for (long step : new long[] {8, 72, 144, 4096}) {
            FreeSpace writer = new FreeSpace();
            for (long offset = 4096; offset < 4096 + step * 100_000; offset += step) {
                writer.add(offset, 72);
            }
            FreeSpace loaded = new FreeSpace();
            writer.forEach(loaded::add);
            FreeSpace presized = new FreeSpace();
            presized.expect(writer.count());
            writer.forEach(presized::add);
            for (FreeSpace f : new FreeSpace[] {writer, loaded, presized}) {
                assertEquals(100_000, f.count());
                // inserts, the rehashes of growing included, at most half full: about 1.5 slots each
                double perHole = f.insertProbes() / 100_000.0;
                assertTrue(perHole < 6, "step " + step + ": " + perHole + " slots looked at per hole");
            }
        }
    }

    @Test
    void aHoleAddedTwiceCountsOnce() {
        FreeSpace f = new FreeSpace();
        f.add(4096, 64);
        f.add(4096, 64);
        assertEquals(1, f.count());
        assertEquals(64, f.bytes());
        assertEquals(64, f.remove(4096));
        assertEquals(-1, f.remove(4096));
    }

    @Test
    void rejectsLengthsThatNoSlotCanHave() {
        FreeSpace f = new FreeSpace();
        assertThrows(IllegalArgumentException.class, () -> f.add(4096, 30));
        assertThrows(IllegalArgumentException.class, () -> f.add(4096, 0));
    }

    @Test
    void randomOperationsMatchAModel() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        FreeSpace f = new FreeSpace();
        Map<Long, Integer> model = new HashMap<>();
        TreeMap<Integer, TreeSet<Long>> bySize = new TreeMap<>();
        int[] len = new int[1];
        long nextOffset = 4096;
        for (int step = 0; step < 200_000; step++) {
            int op = r.nextInt(10);
            if (op < 5) {
                int length = 8 * (3 + (r.nextInt(20) == 0 ? r.nextInt(20_000) : r.nextInt(600)));
                long offset = r.nextInt(8) == 0 && !model.isEmpty() ? model.keySet().iterator().next() : nextOffset;
                nextOffset += 8L * (1 + r.nextInt(5000));
                f.add(offset, length);
                if (!model.containsKey(offset)) {
                    model.put(offset, length);
                    bySize.computeIfAbsent(length, k -> new TreeSet<>()).add(offset);
                }
            } else if (op < 8) {
                int want = 8 * (3 + (r.nextInt(20) == 0 ? r.nextInt(20_000) : r.nextInt(600)));
                long got = f.take(want, len);
                Map.Entry<Integer, TreeSet<Long>> e = bySize.ceilingEntry(want);
                if (e == null) {
                    assertEquals(-1, got, "seed " + seed + " step " + step);
                } else {
                    assertEquals(e.getKey(), len[0], "best fit, seed " + seed + " step " + step);
                    assertEquals(len[0], model.remove(got), "seed " + seed + " step " + step);
                    e.getValue().remove(got);
                    if (e.getValue().isEmpty()) {
                        bySize.remove(e.getKey());
                    }
                }
            } else if (!model.isEmpty()) {
                long offset = r.nextBoolean() ? model.keySet().iterator().next() : nextOffset + 8;
                Integer expected = model.remove(offset);
                assertEquals(expected == null ? -1 : expected, f.remove(offset), "seed " + seed + " step " + step);
                if (expected != null) {
                    bySize.get(expected).remove(offset);
                    if (bySize.get(expected).isEmpty()) {
                        bySize.remove(expected);
                    }
                }
            }
            assertEquals(model.size(), f.count(), "seed " + seed + " step " + step);
        }
        long bytes = 0;
        for (int v : model.values()) {
            bytes += v;
        }
        assertEquals(bytes, f.bytes(), "seed " + seed);
        Map<Long, Integer> seen = new HashMap<>();
        f.forEach(seen::put);
        assertEquals(model, seen, "seed " + seed);
    }
}
