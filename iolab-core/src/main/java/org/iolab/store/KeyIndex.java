package org.iolab.store;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import org.iolab.IolabException;

/**
 * The in-memory index: 256 open-addressing hash tables (linear probing, backward-shift deletion), each a flat
 * {@code long[]}, chosen by the top 8 bits of the key's hash. Each entry is {@code fingerprint << 37 | offset >>> 3}:
 * the top 27 bits of the key's 64-bit hash and the slot's offset in 8-byte units (files up to 1 TiB); 0 is an empty
 * entry (no slot starts at 0). A shard's home bucket is the next bits of the hash, so a table grows without reading
 * a key, and a growth rehashes one shard, not the whole index. Keys are compared by reading the slot
 * ({@link Matcher}). At most {@link #MAX_RECORDS} records.
 *
 * <p>An index loaded from a checkpoint ({@link #loaded}) keeps the checkpoint's entries and places a shard's
 * entries into its table the first time the shard is used: an open does no per-record work. Readers may do that
 * placing concurrently with each other and with the writer's lookups (each builds the same table; the first one
 * published wins); every change to a table happens with readers excluded (the store's write lock).
 */
final class KeyIndex {
    /** Bits of the fingerprint (the hash's top bits kept in an entry). */
    static final int MAX_BITS = 27;
    static final int SHARD_BITS = 8;
    static final int SHARDS = 1 << SHARD_BITS;
    /** Bits of a shard's home bucket at most (the fingerprint's bits below the shard's). */
    static final int MAX_SHARD_BITS = MAX_BITS - SHARD_BITS;
    static final int MIN_SHARD_BITS = 4;
    static final long MAX_RECORDS = (long) ((1L << MAX_BITS) * 0.9);
    /** An entry's fingerprint is {@code entry >>> FINGERPRINT_SHIFT}, a hash's is {@code hash >>> FINGERPRINT_SHIFT}. */
    static final int FINGERPRINT_SHIFT = 37;
    private static final long OFFSET_MASK = (1L << 37) - 1;
    private static final int IN_SHARD = (1 << MAX_SHARD_BITS) - 1;
    /** A position is {@code shard << POS_SHIFT | index in the shard's table}. */
    private static final int POS_SHIFT = 20;
    private static final int POS_MASK = (1 << POS_SHIFT) - 1;
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHARD = MethodHandles.arrayElementVarHandle(long[][].class);

    /** Compares the searched key with the one of the slot at an offset. */
    interface Matcher {
        /**
         * @param offset a slot whose fingerprint matches
         * @return whether its key is the one searched
         */
        boolean matches(long offset);
    }

    /**
     * Each shard's table, or null while its entries are still only in {@link #base}, or (without a base) while the
     * shard has never been used: an index a checkpoint replaces at open costs no table.
     */
    private final long[][] shards = new long[SHARDS][];
    /** Each shard's entries. */
    private final int[] counts = new int[SHARDS];
    private int size;
    /**
     * A checkpoint's entries (little-endian longs), shard by shard, each shard's in its table order (a mapping of
     * {@link #basePath}); null once every shard is placed ({@link #placeAll}).
     */
    private volatile MemorySegment base;
    private Path basePath;
    /** The end of {@link #base} in its file. */
    private long baseEnd;
    /** Where each shard's entries start in {@link #base} (and {@code [SHARDS]} where they end). */
    private int[] baseFrom;
    /** Each not yet placed shard's table length (log2) as checkpointed. */
    private byte[] baseBits;

    KeyIndex() {
    }

    /**
     * An index of a checkpoint's entries, placed shard by shard on first use.
     *
     * @param entries every shard's entries (as {@link #forEachShard} gave them), shard 0 first
     * @param shardBits each shard's table length (log2, {@link #validShard})
     * @param shardCounts each shard's entries
     * @param from the file {@code entries} map ({@code FILE.idx}), named in errors
     * @param end the end of {@code entries} in that file (a file cut below it cannot be read)
     */
    static KeyIndex loaded(MemorySegment entries, byte[] shardBits, int[] shardCounts, Path from, long end) {
        return new KeyIndex(entries, shardBits, shardCounts, from, end);
    }

    private KeyIndex(MemorySegment entries, byte[] shardBits, int[] shardCounts, Path from, long end) {
        base = entries;
        basePath = from;
        baseEnd = end;
        baseBits = shardBits;
        baseFrom = new int[SHARDS + 1];
        for (int s = 0; s < SHARDS; s++) {
            counts[s] = shardCounts[s];
            baseFrom[s + 1] = baseFrom[s] + shardCounts[s];
            size += shardCounts[s];
        }
    }

    /** @return whether a checkpoint's shard of {@code count} entries in a table of 2^{@code bits} is possible */
    static boolean validShard(int bits, long count) {
        return bits >= MIN_SHARD_BITS && bits <= MAX_SHARD_BITS && count >= 0 && count <= maxEntries(bits);
    }

    /**
     * @return the most entries a shard table of 2^{@code bits} holds (so a probe always meets an empty entry): three
     *         quarters of it, nine tenths at the largest length. A table grows at that load, so its load stays between
     *         3/8 and 3/4: about a third less memory than growing at half full, for no measurable loss of speed (see
     *         docs/RESULTS.md, "index tables grow at 3/4 full")
     */
    private static long maxEntries(int bits) {
        return bits == MAX_SHARD_BITS ? (long) ((1L << bits) * 0.9) : (1L << bits) * 3 / 4;
    }

    int size() {
        return size;
    }

    static long offsetOf(long entry) {
        return (entry & OFFSET_MASK) << 3;
    }

    private static int shardOf(long hash) {
        return (int) (hash >>> (64 - SHARD_BITS));
    }

    private static int home(long entry, int length) {
        return (int) ((entry >>> 37) & IN_SHARD) >>> (MAX_SHARD_BITS - Integer.numberOfTrailingZeros(length));
    }

    /** @return shard {@code s}'s table, placing its checkpointed entries first if need be */
    private long[] shard(int s) {
        long[] t = (long[]) SHARD.getAcquire(shards, s);
        return t != null ? t : place(s);
    }

    private long[] place(int s) {
        MemorySegment entries = base;
        if (entries == null) {
            // every shard of a checkpoint was placed before its entries were let go, so this one is a shard never
            // used: an empty table, the first one published winning
            long[] t = (long[]) SHARD.getVolatile(shards, s);
            if (t != null) {
                return t;
            }
            long[] empty = new long[1 << MIN_SHARD_BITS];
            long[] won = (long[]) SHARD.compareAndExchange(shards, s, (long[]) null, empty);
            return won == null ? empty : won;
        }
        try {
            // the entries are a mapping of FILE.idx: a file cut under it faults (SIGBUS); look before reading
            if (java.nio.file.Files.size(basePath) < baseEnd) {
                throw cut(null);
            }
            return place(s, entries);
        } catch (java.io.IOException e) {
            throw cut(e);
        } catch (InternalError fault) {
            // a cut between the look and the reads: the fault is raised as this error, maybe a little later
            throw cut(fault);
        }
    }

    private IolabException cut(Throwable cause) {
        return new IolabException("cannot read the index checkpoint " + basePath + ": it was changed, cut or"
                + " deleted while the store was open" + (cause == null ? "" : " (" + cause.getMessage() + ")")
                + "; close the store and open it again", cause);
    }

    private long[] place(int s, MemorySegment entries) {
        int from = baseFrom[s];
        int to = baseFrom[s + 1];
        long[] t = new long[1 << baseBits[s]];
        int mask = t.length - 1;
        for (int j = from; j < to; j++) {
            long e = entries.getAtIndex(LONG_LE, j);
            if (e == 0 || (int) (e >>> (64 - SHARD_BITS)) != s) {
                throw new IolabException("index checkpoint entry " + j + " (" + Long.toHexString(e)
                        + ") does not belong to shard " + s + " (internal error); delete " + basePath
                        + " and open the store again");
            }
            int i = home(e, t.length);
            while (t[i] != 0) {
                i = (i + 1) & mask;
            }
            t[i] = e;
        }
        // the first table published wins: every builder builds the same one from the same entries; a volatile
        // exchange, so a builder that lost also sees the winner's entries
        long[] won = (long[]) SHARD.compareAndExchange(shards, s, (long[]) null, t);
        return won == null ? t : won;
    }

    /** @return the table position of the key's entry ({@code shard << 20 | index}: never negative), or -1 */
    int find(long hash, Matcher m) {
        int s = shardOf(hash);
        long[] t = shard(s);
        long fp = hash >>> 37;
        int mask = t.length - 1;
        int i = home(fp << 37, t.length);
        for (;;) {
            long e = t[i];
            if (e == 0) {
                return -1;
            }
            if (e >>> 37 == fp && m.matches(offsetOf(e))) {
                return s << POS_SHIFT | i;
            }
            i = (i + 1) & mask;
        }
    }

    long offsetAt(int pos) {
        return offsetOf(shards[pos >>> POS_SHIFT][pos & POS_MASK]);
    }

    /** Changes the offset of the entry at {@code pos} (found by {@link #find}); readers excluded. */
    void setOffset(int pos, long offset) {
        long[] t = shards[pos >>> POS_SHIFT];
        int i = pos & POS_MASK;
        t[i] = (t[i] & ~OFFSET_MASK) | (offset >>> 3);
    }

    /**
     * @param hash a key's hash
     * @return whether its shard has room for one more entry (check before logging a put: {@link #insert} throws
     *         when it has not)
     */
    boolean canInsert(long hash) {
        int s = shardOf(hash);
        return counts[s] < maxEntries(MAX_SHARD_BITS);
    }

    /** Adds a key known to be absent; readers excluded. */
    void insert(long hash, long offset) {
        int s = shardOf(hash);
        long[] t = shard(s);
        int bits = Integer.numberOfTrailingZeros(t.length);
        if (counts[s] + 1 > maxEntries(bits)) {
            if (bits == MAX_SHARD_BITS) {
                throw new IolabException("the store is full: it holds " + size + " records, and one part of its"
                        + " index has reached its most; split the data over several stores");
            }
            long[] bigger = new long[t.length * 2];
            for (long e : t) {
                if (e != 0) {
                    put(bigger, e);
                }
            }
            t = bigger;
            SHARD.setRelease(shards, s, t);
        }
        put(t, (hash >>> 37) << 37 | (offset >>> 3));
        counts[s]++;
        size++;
    }

    private static void put(long[] t, long entry) {
        int mask = t.length - 1;
        int i = home(entry, t.length);
        while (t[i] != 0) {
            i = (i + 1) & mask;
        }
        t[i] = entry;
    }

    /**
     * Removes the entry at {@code pos}, shifting later entries of its cluster back, and may shrink the shard's table
     * ({@link #shrink}): positions found before are invalid after it. Readers excluded.
     */
    void removeAt(int pos) {
        int s = pos >>> POS_SHIFT;
        long[] t = shards[s];
        int mask = t.length - 1;
        int i = pos & POS_MASK;
        t[i] = 0;
        counts[s]--;
        size--;
        int j = i;
        for (;;) {
            j = (j + 1) & mask;
            long e = t[j];
            if (e == 0) {
                break;
            }
            int h = home(e, t.length);
            // leave e where it is when its home lies cyclically in (i, j]
            boolean stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
            if (!stays) {
                t[i] = e;
                t[j] = 0;
                i = j;
            }
        }
        shrink(s);
    }

    /**
     * Halves a shard's table once its entries fill less than an eighth of it (a table doubles at three quarters), so
     * the index's memory follows the live keys down as well as up: a store that once held 25 million keys and now
     * holds a thousand kept half a gigabyte of tables.
     */
    private void shrink(int s) {
        long[] t = shards[s];
        if (t.length > 1 << MIN_SHARD_BITS && counts[s] < t.length >>> 3) {
            int length = t.length;
            while (length > 1 << MIN_SHARD_BITS && counts[s] < length >>> 3) {
                length >>>= 1;
            }
            long[] smaller = new long[length];
            for (long e : t) {
                if (e != 0) {
                    put(smaller, e);
                }
            }
            SHARD.setRelease(shards, s, smaller);
        }
    }

    /** @return the slots of every placed shard's table (what the index holds in memory, 8 bytes each) */
    long tableSlots() {
        long n = 0;
        for (long[] t : shards) {
            n += t == null ? 0 : t.length;
        }
        return n;
    }

    /**
     * Places every shard not placed yet and lets the checkpoint's entries go (and with them the mapping of a
     * {@code FILE.idx} a newer checkpoint replaces).
     */
    void placeAll() {
        if (base == null) {
            return;
        }
        for (int s = 0; s < SHARDS; s++) {
            shard(s);
        }
        base = null;
    }

    /** Receives a shard's table length and entry count ({@link #forEachShard}). */
    interface ShardVisitor {
        void shard(int bits, int count);
    }

    /**
     * Gives every shard, in order: its table length (log2) and count, then its entries in table order starting after
     * an empty one (placing them in this order into an empty table of that length rebuilds it exactly). A shard
     * not placed yet is given as it was loaded.
     */
    void forEachShard(ShardVisitor shard, LongConsumer entry) {
        MemorySegment b = base;
        for (int s = 0; s < SHARDS; s++) {
            long[] t = shards[s];
            if (t == null && b == null) {
                shard.shard(MIN_SHARD_BITS, 0); // never used: what an empty table would give
                continue;
            }
            if (t == null) {
                shard.shard(baseBits[s], counts[s]);
                for (int j = baseFrom[s]; j < baseFrom[s + 1]; j++) {
                    entry.accept(b.getAtIndex(LONG_LE, j));
                }
                continue;
            }
            shard.shard(Integer.numberOfTrailingZeros(t.length), counts[s]);
            int start = 0;
            while (t[start] != 0) {
                start++;
            }
            int mask = t.length - 1;
            for (int n = 0; n < t.length; n++) {
                long e = t[(start + n) & mask];
                if (e != 0) {
                    entry.accept(e);
                }
            }
        }
    }

    /** Gives every entry (any order). */
    void forEachEntry(LongConsumer entry) {
        forEachShard((bits, count) -> { }, entry);
    }
}
