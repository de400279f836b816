package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The sharded index against a HashMap, its checkpoint form, and its lazy placing by concurrent readers. */
class KeyIndexTest {
    /** Stands for the mapped FILE.idx: it exists (any size will do: the entries above are in memory). */
    private static final java.nio.file.Path INDEX_FILE = java.nio.file.Path.of(".");
    /** Keys are hashes; a key's slot offset identifies it (the matcher compares offsets). */
    private static int find(KeyIndex index, long hash, long offset) {
        return index.find(hash, o -> o == offset);
    }

    private static KeyIndex reload(KeyIndex index) {
        List<Long> entries = new ArrayList<>();
        byte[] bits = new byte[KeyIndex.SHARDS];
        int[] counts = new int[KeyIndex.SHARDS];
        int[] s = {0};
        index.forEachShard((b, c) -> {
            bits[s[0]] = (byte) b;
            counts[s[0]++] = c;
        }, entries::add);
        assertEquals(KeyIndex.SHARDS, s[0]);
        java.lang.foreign.MemorySegment m = java.lang.foreign.Arena.ofAuto().allocate(8L * entries.size(), 8);
        for (int i = 0; i < entries.size(); i++) {
            m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), i,
                    entries.get(i));
        }
        return KeyIndex.loaded(m, bits, counts, INDEX_FILE, 0);
    }

    private static List<Long> checkpointForm(KeyIndex index) {
        List<Long> out = new ArrayList<>();
        index.forEachShard((b, c) -> out.add((long) b << 32 | c), out::add);
        return out;
    }

    @Test
    void insertsFindsMovesAndRemovesLikeAMapThroughGrowthAndReloads() {
        SplittableRandom rnd = new SplittableRandom(7);
        Map<Long, Long> model = new HashMap<>();
        KeyIndex index = new KeyIndex();
        long nextOffset = Slots.DATA_START;
        for (int round = 0; round < 6; round++) {
            for (int op = 0; op < 20_000; op++) {
                int kind = rnd.nextInt(10);
                if (kind < 6 || model.isEmpty()) {
                    // a few hashes share their top bits (same shard, same fingerprint): the matcher decides
                    long hash = rnd.nextInt(4) == 0 && !model.isEmpty()
                            ? model.keySet().iterator().next() ^ rnd.nextLong(1, 1 << 20) : rnd.nextLong();
                    if (model.containsKey(hash)) {
                        continue;
                    }
                    assertEquals(-1, find(index, hash, nextOffset));
                    index.insert(hash, nextOffset);
                    model.put(hash, nextOffset);
                    nextOffset += 8 * rnd.nextInt(1, 20);
                } else {
                    long hash = model.keySet().stream().skip(rnd.nextInt(Math.min(model.size(), 50))).findFirst()
                            .orElseThrow();
                    int pos = find(index, hash, model.get(hash));
                    assertTrue(pos >= 0);
                    assertEquals(model.get(hash), index.offsetAt(pos));
                    if (kind < 8) {
                        index.setOffset(pos, nextOffset);
                        model.put(hash, nextOffset);
                        nextOffset += 8;
                    } else {
                        index.removeAt(pos);
                        model.remove(hash);
                    }
                }
            }
            assertEquals(model.size(), index.size());
            List<Long> form = checkpointForm(index);
            KeyIndex loaded = reload(index);
            // not placed yet: given back as loaded
            assertEquals(form, checkpointForm(loaded));
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                int pos = find(loaded, e.getKey(), e.getValue());
                assertTrue(pos >= 0, "lost " + Long.toHexString(e.getKey()));
                assertEquals(e.getValue(), loaded.offsetAt(pos));
            }
            // placed: the same tables, so the same checkpoint
            assertEquals(form, checkpointForm(loaded));
            index = loaded;
        }
    }

    /** Tables grow with the keys and shrink with them: 200,000 keys inserted, all but 1,000 removed. */
    @Test
    void tablesShrinkWhenMostKeysAreRemovedAndKeepEveryOther() {
        SplittableRandom rnd = new SplittableRandom(11);
        KeyIndex index = new KeyIndex();
        Map<Long, Long> model = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            long hash = rnd.nextLong();
            long offset = Slots.DATA_START + 8L * i;
            index.insert(hash, offset);
            model.put(hash, offset);
        }
        long peak = index.tableSlots();
        assertTrue(peak >= 200_000 * 4 / 3, peak + " slots for 200,000 keys");
        List<Long> hashes = new ArrayList<>(model.keySet());
        for (int i = 0; i < hashes.size() - 1000; i++) {
            long h = hashes.get(i);
            index.removeAt(find(index, h, model.remove(h)));
        }
        assertEquals(1000, index.size());
        // at most an eighth full before a halving: 1,000 keys in under 8 slots each, and every shard's least
        assertTrue(index.tableSlots() <= 8 * 1000 + KeyIndex.SHARDS * (1 << KeyIndex.MIN_SHARD_BITS),
                index.tableSlots() + " slots left for 1,000 keys (" + peak + " at 200,000)");
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            int pos = find(index, e.getKey(), e.getValue());
            assertTrue(pos >= 0, "lost " + Long.toHexString(e.getKey()));
            assertEquals(e.getValue(), index.offsetAt(pos));
        }
        KeyIndex loaded = reload(index); // the checkpoint gives the smaller tables back as they are
        assertEquals(checkpointForm(index), checkpointForm(loaded));
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            assertTrue(find(loaded, e.getKey(), e.getValue()) >= 0);
        }
    }

    @Test
    void readersPlacingTheSameShardsAtOnceAllSeeEveryEntry() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        KeyIndex built = new KeyIndex();
        long[] hashes = new long[50_000];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = rnd.nextLong();
            built.insert(hashes[i], Slots.DATA_START + 8L * i);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int trial = 0; trial < 20; trial++) {
                KeyIndex loaded = reload(built);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Integer>> found = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int first = t * 997;
                    found.add(pool.submit(() -> {
                        start.await();
                        int n = 0;
                        for (int k = 0; k < hashes.length; k++) {
                            int i = (first + k) % hashes.length;
                            int pos = find(loaded, hashes[i], Slots.DATA_START + 8L * i);
                            if (pos >= 0 && loaded.offsetAt(pos) == Slots.DATA_START + 8L * i) {
                                n++;
                            }
                        }
                        return n;
                    }));
                }
                start.countDown();
                for (Future<Integer> f : found) {
                    assertEquals(hashes.length, f.get());
                }
                assertEquals(checkpointForm(built), checkpointForm(loaded));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
