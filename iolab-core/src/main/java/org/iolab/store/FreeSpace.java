package org.iolab.store;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The free-space index: holes by size (best fit: the exact length, else the smallest larger one) and by offset.
 * Not thread-safe (the writer's).
 *
 * <p>Primitive throughout, so a delete or a reuse costs no allocation: holes up to {@value #SMALL} bytes sit in one
 * stack of offsets per length (lengths are multiples of 8), with a bitmap of the non-empty stacks for the
 * best-fit search; longer holes in a {@link TreeMap} of stacks. An open-addressing map from offset to
 * {@code length << 32 | position in its stack} makes {@link #remove(long)} constant-time (the stack's last
 * element moves into the hole's place).
 */
final class FreeSpace {
    /** Longest hole kept in the per-length stacks. */
    static final int SMALL = 4096;
    private static final int CLASSES = SMALL / 8 + 1;

    /** A growable stack of offsets. */
    private static final class Stack {
        long[] items = new long[4];
        int size;

        int push(long offset) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            items[size] = offset;
            return size++;
        }
    }

    private final Stack[] small = new Stack[CLASSES];
    private final long[] nonEmpty = new long[(CLASSES + 63) / 64];
    private final TreeMap<Integer, Stack> large = new TreeMap<>();
    private final OffsetMap byOffset = new OffsetMap();
    private long bytes;

    /**
     * Adds a hole; a hole already known at {@code offset} is left as it is.
     *
     * @param length a multiple of 8 (every slot length is)
     */
    void add(long offset, int length) {
        if ((length & 7) != 0 || length <= 0) {
            throw new IllegalArgumentException("hole length " + length + " is not a positive multiple of 8");
        }
        if (contains(offset)) {
            return;
        }
        Stack s = stackFor(length, true);
        int at = s.push(offset);
        if (length <= SMALL && s.size == 1) {
            int c = length >>> 3;
            nonEmpty[c >>> 6] |= 1L << c;
        }
        byOffset.put(offset, (long) length << 32 | at);
        bytes += length;
    }

    /** @return the length of the hole at {@code offset} after removing it, or -1 when there is none */
    int remove(long offset) {
        long v = byOffset.remove(offset);
        if (v < 0) {
            return -1;
        }
        int length = (int) (v >>> 32);
        int at = (int) v;
        Stack s = stackFor(length, false);
        int last = --s.size;
        if (at != last) {
            long moved = s.items[last];
            s.items[at] = moved;
            byOffset.put(moved, (long) length << 32 | at);
        }
        emptied(length, s);
        bytes -= length;
        return length;
    }

    /**
     * Removes and returns the hole of exactly {@code length} bytes, else the smallest larger one.
     *
     * @param lengthOut receives the hole's length in element 0
     * @return the hole's offset, or -1 when no hole is large enough
     */
    long take(int length, int[] lengthOut) {
        if (byOffset.size() == 0) {
            return -1; // a store filling up has no holes: no bitmap or tree to search
        }
        int found = -1;
        if (length <= SMALL) {
            found = smallestSmall((length + 7) >>> 3);
        }
        if (found < 0) {
            Map.Entry<Integer, Stack> e = large.ceilingEntry(length);
            if (e == null) {
                return -1;
            }
            found = e.getKey();
        }
        Stack s = stackFor(found, false);
        long offset = s.items[--s.size];
        emptied(found, s);
        byOffset.remove(offset);
        bytes -= found;
        lengthOut[0] = found;
        return offset;
    }

    /** @return the length of the shortest non-empty small class at or above class {@code c}, or -1 */
    private int smallestSmall(int c) {
        if (c >= CLASSES) {
            return -1;
        }
        int w = c >>> 6;
        long bits = nonEmpty[w] & (-1L << c);
        while (bits == 0) {
            if (++w == nonEmpty.length) {
                return -1;
            }
            bits = nonEmpty[w];
        }
        return ((w << 6) + Long.numberOfTrailingZeros(bits)) << 3;
    }

    private Stack stackFor(int length, boolean create) {
        if (length <= SMALL) {
            int c = length >>> 3;
            Stack s = small[c];
            if (s == null) {
                s = new Stack();
                small[c] = s;
            }
            return s;
        }
        Stack s = large.get(length);
        if (s == null && create) {
            s = new Stack();
            large.put(length, s);
        }
        return s;
    }

    private void emptied(int length, Stack s) {
        if (s.size > 0) {
            return;
        }
        if (length <= SMALL) {
            int c = length >>> 3;
            nonEmpty[c >>> 6] &= ~(1L << c);
        } else {
            large.remove(length);
        }
    }

    /**
     * Gives back the holes that end the data and merges every other run of holes that lie end to end into one hole
     * (each at most {@code maxLength} bytes): freed records at the end of the data return their space to the file, and
     * freed neighbours become one hole a longer record fits in. O(holes) when no hole has a neighbour, else a sort.
     *
     * @param maxLength the longest hole to make (a slot's longest)
     * @param dataEnd the end of the data
     * @param merged receives each hole made by merging (its free header must be written)
     * @return the new end of the data: {@code dataEnd}, or the start of the holes that ended it
     */
    long merge(int maxLength, long dataEnd, HoleVisitor merged) {
        boolean[] adjacent = {false};
        long[] tail = {-1};
        byOffset.forEach((offset, length) -> {
            if (contains(offset + length)) {
                adjacent[0] = true;
            }
            if (offset + length == dataEnd) {
                tail[0] = offset;
            }
        });
        if (!adjacent[0]) {
            if (tail[0] < 0) {
                return dataEnd;
            }
            remove(tail[0]);
            return tail[0];
        }
        long[] offsets = new long[byOffset.size()];
        int[] k = {0};
        byOffset.forEach((offset, length) -> offsets[k[0]++] = offset);
        Arrays.sort(offsets);
        long end = dataEnd;
        int last = offsets.length;
        while (last > 0 && offsets[last - 1] + lengthAt(offsets[last - 1]) == end) {
            end = offsets[--last];
            remove(end);
        }
        for (int i = 0; i < last; ) {
            long start = offsets[i];
            long runEnd = start + lengthAt(start);
            int j = i + 1;
            while (j < last && offsets[j] == runEnd && runEnd - start + lengthAt(runEnd) <= maxLength) {
                runEnd += lengthAt(runEnd);
                j++;
            }
            if (j - i > 1) {
                for (int m = i; m < j; m++) {
                    remove(offsets[m]);
                }
                add(start, (int) (runEnd - start));
                merged.hole(start, (int) (runEnd - start));
            }
            i = j;
        }
        return end;
    }

    /** @return the length of the hole at {@code offset}, which must be one */
    private int lengthAt(long offset) {
        return (int) (byOffset.get(offset) >>> 32);
    }

    /** Makes room for {@code holes} more holes at once (a checkpoint's), instead of doubling on the way there. */
    void expect(int holes) {
        byOffset.reserve(byOffset.size() + holes);
    }

    /** @return whether a hole starts at {@code offset} */
    boolean contains(long offset) {
        return byOffset.get(offset) >= 0;
    }

    long bytes() {
        return bytes;
    }

    /** @return how many slots the offset map's inserts have looked at since it was made (for tests) */
    long insertProbes() {
        return byOffset.probes;
    }

    int count() {
        return byOffset.size();
    }

    boolean isEmpty() {
        return byOffset.size() == 0;
    }

    /** Receives the holes. */
    @FunctionalInterface
    interface HoleVisitor {
        /**
         * @param offset the hole's offset
         * @param length its length
         */
        void hole(long offset, int length);
    }

    /** Hands every hole to {@code visitor}, in no particular order. */
    void forEach(HoleVisitor visitor) {
        byOffset.forEach(visitor);
    }

    void clear() {
        Arrays.fill(small, null);
        Arrays.fill(nonEmpty, 0);
        large.clear();
        byOffset.clear();
        bytes = 0;
    }

    /**
     * @param offset a hole's offset
     * @param tableBits log2 of the offset map's length
     * @return its home slot: the top {@code tableBits} bits of a mixed hash, so every slot of a table of any size can
     *         be a home. The table size is mixed in: a map filled in another map's slot order (a checkpoint's holes
     *         loaded, a table grown) must not receive its keys sorted by home, or each lands at the end of one
     *         growing cluster (50,000 holes took 6 ms to load that way, 120 ns each)
     */
    static int home(long offset, int tableBits) {
        long h = offset ^ tableBits * 0x9E3779B97F4A7C15L;
        h = (h ^ h >>> 33) * 0xFF51AFD7ED558CCDL;
        h = (h ^ h >>> 33) * 0xC4CEB9FE1A85EC53L;
        return (int) ((h ^ h >>> 33) >>> (64 - tableBits));
    }

    /** Open addressing, linear probing, backward-shift deletion; keys are offsets (never 0), values non-negative. */
    static final class OffsetMap {
        private long[] keys = new long[64];
        private long[] values = new long[64];
        /** 64 minus log2 of the table length: the hash's top bits index the whole table, however large. */
        private int shift = 64 - 6;
        private int size;
        /** Slots looked at by {@link #put} (a test's measure of clustering). */
        long probes;

        int size() {
            return size;
        }

        private int slot(long key, int mask) {
            return home(key, 64 - shift) & mask;
        }

        long get(long key) {
            int mask = keys.length - 1;
            for (int i = slot(key, mask);; i = (i + 1) & mask) {
                long k = keys[i];
                if (k == key) {
                    return values[i];
                }
                if (k == 0) {
                    return -1;
                }
            }
        }

        void put(long key, long value) {
            if (2 * (size + 1) > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            for (int i = slot(key, mask);; i = (i + 1) & mask) {
                probes++;
                long k = keys[i];
                if (k == key) {
                    values[i] = value;
                    return;
                }
                if (k == 0) {
                    keys[i] = key;
                    values[i] = value;
                    size++;
                    return;
                }
            }
        }

        long remove(long key) {
            long[] ks = keys;
            int mask = ks.length - 1;
            int i = slot(key, mask);
            for (;; i = (i + 1) & mask) {
                long k = ks[i];
                if (k == 0) {
                    return -1;
                }
                if (k == key) {
                    break;
                }
            }
            long value = values[i];
            ks[i] = 0;
            size--;
            for (int j = (i + 1) & mask;; j = (j + 1) & mask) {
                long k = ks[j];
                if (k == 0) {
                    return value;
                }
                int h = slot(k, mask);
                boolean stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
                if (!stays) {
                    ks[i] = k;
                    values[i] = values[j];
                    ks[j] = 0;
                    i = j;
                }
            }
        }

        /** Grows the table until {@code n} keys fit without another growth. */
        void reserve(int n) {
            int length = keys.length;
            int bits = 64 - shift;
            while (2L * n > length && bits < 30) {
                length *= 2;
                bits++;
            }
            if (length != keys.length) {
                rehash(length, 64 - bits);
            }
        }

        private void grow() {
            rehash(keys.length * 2, shift - 1);
        }

        private void rehash(int length, int newShift) {
            long[] oldKeys = keys;
            long[] oldValues = values;
            keys = new long[length];
            values = new long[length];
            shift = newShift;
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != 0) {
                    put(oldKeys[i], oldValues[i]);
                }
            }
        }

        void forEach(HoleVisitor visitor) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != 0) {
                    visitor.hole(keys[i], (int) (values[i] >>> 32));
                }
            }
        }

        void clear() {
            keys = new long[64];
            values = new long[64];
            shift = 64 - 6;
            size = 0;
        }
    }
}
