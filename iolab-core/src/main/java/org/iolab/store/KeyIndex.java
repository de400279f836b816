package org.iolab.store;

import org.iolab.IolabException;

/**
 * The in-memory index: an open-addressing hash table (linear probing, backward-shift deletion) in one flat
 * {@code long[]}. Each entry is {@code fingerprint << 37 | offset >>> 3}: the top 27 bits of the key's 64-bit hash
 * and the slot's offset in 8-byte units (files up to 1 TiB); 0 is an empty entry (no slot starts at 0). The home
 * bucket is the top bits of the hash, so the table grows without reading a key. Keys are compared by reading the
 * slot ({@link Matcher}). At most {@link #MAX_RECORDS} records.
 */
final class KeyIndex {
    static final int MAX_BITS = 27;
    static final long MAX_RECORDS = (long) ((1L << MAX_BITS) * 0.9);
    private static final long OFFSET_MASK = (1L << 37) - 1;

    /** Compares the searched key with the one of the slot at an offset. */
    interface Matcher {
        /**
         * @param offset a slot whose fingerprint matches
         * @return whether its key is the one searched
         */
        boolean matches(long offset);
    }

    private long[] table;
    private int bits;
    private int mask;
    private int size;

    KeyIndex() {
        this(new long[1 << 10], 0);
    }

    /** @param table a table from a checkpoint (a power-of-two length, 2^4 .. 2^27), holding {@code size} entries */
    KeyIndex(long[] table, int size) {
        this.table = table;
        this.bits = Integer.numberOfTrailingZeros(table.length);
        this.mask = table.length - 1;
        this.size = size;
    }

    /** @return an empty index with a table of {@code tableLength} entries ({@link #validLength}) */
    static KeyIndex ofLength(int tableLength) {
        return new KeyIndex(new long[tableLength], 0);
    }

    /**
     * Adds an entry as {@link #forEachEntry} gave it (non-zero; at most {@link #maxEntries} of them), without
     * growing the table.
     */
    void addEntry(long entry) {
        place(table, entry);
        size++;
    }

    /** @return the most entries a table of {@code length} may hold (so a probe always meets an empty entry) */
    static long maxEntries(long length) {
        return length == 1L << MAX_BITS ? MAX_RECORDS : length / 2;
    }

    /**
     * Gives every entry, in table order starting after an empty one: placing them in this order into an empty table
     * of the same length rebuilds this table exactly.
     */
    void forEachEntry(java.util.function.LongConsumer out) {
        long[] t = table;
        int start = 0;
        while (t[start] != 0) {
            start++;
        }
        for (int n = 0; n < t.length; n++) {
            long e = t[(start + n) & mask];
            if (e != 0) {
                out.accept(e);
            }
        }
    }

    static boolean validLength(long length) {
        return length >= 16 && length <= (1L << MAX_BITS) && Long.bitCount(length) == 1;
    }

    int size() {
        return size;
    }

    long[] table() {
        return table;
    }

    static long offsetOf(long entry) {
        return (entry & OFFSET_MASK) << 3;
    }

    private int home(long entry) {
        return (int) ((entry >>> 37) >>> (MAX_BITS - bits));
    }

    /** @return the table position of the key's entry, or -1 */
    int find(long hash, Matcher m) {
        long fp = hash >>> 37;
        int i = (int) (fp >>> (MAX_BITS - bits));
        long[] t = table;
        for (;;) {
            long e = t[i];
            if (e == 0) {
                return -1;
            }
            if (e >>> 37 == fp && m.matches(offsetOf(e))) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    long offsetAt(int pos) {
        return offsetOf(table[pos]);
    }

    void setOffset(int pos, long offset) {
        table[pos] = (table[pos] & ~OFFSET_MASK) | (offset >>> 3);
    }

    /** Adds a key known to be absent. */
    void insert(long hash, long offset) {
        if (size + 1 > maxEntries(1L << bits)) {
            if (bits == MAX_BITS) {
                throw new IolabException("the store is full: it holds " + size + " records, the most one store can"
                        + " index; split the data over several stores");
            }
            grow();
        }
        place(table, (hash >>> 37) << 37 | (offset >>> 3));
        size++;
    }

    private void place(long[] t, long entry) {
        int i = home(entry);
        while (t[i] != 0) {
            i = (i + 1) & mask;
        }
        t[i] = entry;
    }

    private void grow() {
        long[] old = table;
        bits++;
        mask = (1 << bits) - 1;
        long[] t = new long[1 << bits];
        for (long e : old) {
            if (e != 0) {
                place(t, e);
            }
        }
        table = t;
    }

    /** Removes the entry at {@code pos}, shifting later entries of its cluster back. */
    void removeAt(int pos) {
        long[] t = table;
        int i = pos;
        t[i] = 0;
        size--;
        int j = i;
        for (;;) {
            j = (j + 1) & mask;
            long e = t[j];
            if (e == 0) {
                return;
            }
            int h = home(e);
            // leave e where it is when its home lies cyclically in (i, j]
            boolean stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
            if (!stays) {
                t[i] = e;
                t[j] = 0;
                i = j;
            }
        }
    }
}
