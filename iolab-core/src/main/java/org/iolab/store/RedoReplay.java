package org.iolab.store;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.iolab.storage.StorageFile;

/**
 * What a redo replay does to an index checkpoint, without writing anything: each record's change to the index,
 * the free space and the counters ({@link #apply}), then a check of every index entry against the data file
 * ({@link #check}). Recovery applies it to the store's own state and writes the slots only once the check passed;
 * verify and repair apply it to a loaded checkpoint of their own.
 *
 * <p>Why the check: after a crash, every entry points at a slot a replayed record writes, or at a checkpointed
 * record that no replayed operation freed, which is on disk as the checkpoint synced it (a freed slot gets its
 * free header, and can be reused, only once its operation is durable in the log). An entry that points at a
 * valid hole or at a valid record of another key proves that the log lost operations the data file holds (a
 * segment cut, zeroed or deleted after they were acknowledged); one that points at no valid slot, that the data
 * file is damaged there.
 */
final class RedoReplay {
    /**
     * An entry ({@code fingerprint << 37 | offset / 8}) rotated left by this many bits has its offset in its top 37
     * bits and its fingerprint in the others: it sorts by offset.
     */
    private static final int ROTATE = 64 - 37;
    private final Path file;
    private final KeyIndex index;
    private final FreeSpace free;
    private final long firstSeq;
    private long liveBytes;
    private long storedBytes;
    private long dataEnd;
    private long lastSeq;
    /** The offsets of the slots the replayed records write (the replay rewrites them: not checked on disk). */
    private long[] written = new long[16];
    private int writtenCount;

    /**
     * What {@link #check} found wrong, when it found something.
     *
     * @param offset the data file offset of the first such entry's slot
     * @param what what is wrong there, and how many entries are wrong that way
     */
    record Finding(long offset, String what) {
    }

    /**
     * @param lost the first entry that points at a valid hole or a record of another key, or null
     * @param damaged the first entry that points at no valid slot, or null
     */
    record Found(Finding lost, Finding damaged) {
    }

    /**
     * A model over a checkpoint's state, which {@link #apply} changes in place.
     *
     * @param file the data file
     * @param index the checkpoint's index
     * @param free the checkpoint's holes
     * @param liveBytes the checkpoint's live key and value bytes
     * @param storedBytes the checkpoint's live slot bytes
     * @param dataEnd the checkpoint's data end
     * @param lastSeq the checkpoint's sequence
     */
    RedoReplay(Path file, KeyIndex index, FreeSpace free, long liveBytes, long storedBytes, long dataEnd,
            long lastSeq) {
        this.file = file;
        this.index = index;
        this.free = free;
        this.liveBytes = liveBytes;
        this.storedBytes = storedBytes;
        this.dataEnd = dataEnd;
        this.lastSeq = lastSeq;
        this.firstSeq = lastSeq + 1;
    }

    /** @return the free space, as the records applied so far leave it */
    FreeSpace holes() {
        return free;
    }

    long liveBytes() {
        return liveBytes;
    }

    long storedBytes() {
        return storedBytes;
    }

    long dataEnd() {
        return dataEnd;
    }

    long lastSeq() {
        return lastSeq;
    }

    /**
     * Applies one record to the index, the free space and the counters.
     *
     * @throws StoreCorruptedException when the record does not fit the state (it writes where there is no hole, or
     *         frees a slot the index does not hold)
     */
    void apply(Redo.Op r) {
        long seq = r.seq();
        if (r.op() == Redo.PUT) {
            long off = r.off();
            if (off < dataEnd && free.remove(off) < 0) {
                throw new StoreCorruptedException(file, off, "redo record of sequence " + seq
                        + " writes a slot where the checkpoint has no hole");
            }
            if (writtenCount == written.length) {
                written = Arrays.copyOf(written, writtenCount * 2);
            }
            written[writtenCount++] = off;
            if (r.remOff() >= 0) {
                free.add(r.remOff(), r.remLen());
            }
            if (r.freedOff() >= 0) {
                index.setOffset(find(r, "frees"), off);
            } else {
                index.insert(r.hash(), off);
            }
            liveBytes += Slots.keyAndValue(r.slot().getLong(0));
            storedBytes += r.slotLen();
        }
        if (r.freedOff() >= 0) {
            if (r.op() == Redo.DELETE) {
                index.removeAt(find(r, "deletes"));
            }
            liveBytes -= r.freedKv();
            storedBytes -= r.freedLen();
            free.add(r.freedOff(), r.freedLen());
        }
        dataEnd = r.end();
        lastSeq = seq;
    }

    /** @return whether a replayed record writes a slot at {@code off} (after {@link #check}) */
    boolean writes(long off) {
        return Arrays.binarySearch(written, 0, writtenCount, off) >= 0;
    }

    private int find(Redo.Op r, String does) {
        long freed = r.freedOff();
        int pos = index.find(r.hash(), o -> o == freed);
        if (pos < 0) {
            throw new StoreCorruptedException(file, freed, "redo record of sequence " + r.seq() + " " + does
                    + " a slot the index does not hold");
        }
        return pos;
    }

    /**
     * Checks that every index entry points at a live slot with a valid CRC whose key's hash has the entry's
     * fingerprint: a slot a replayed record writes, or one the data file holds. Reads the entries' slots in file
     * order, in chunks.
     *
     * @param data the data file (read only)
     * @param map its mapping, or null
     * @return what is wrong (both findings null when nothing is)
     */
    Found check(StorageFile data, MemorySegment map) {
        long end = Math.min(dataEnd, data.size());
        long[] entries = inFileOrder(end);
        Arrays.sort(written, 0, writtenCount);
        Scanner reader = new Scanner(data, map);
        CRC32C crc = new CRC32C();
        long lostAt = -1;
        String lostWhat = null;
        long lost = 0;
        long damagedAt = -1;
        String damagedWhat = null;
        long damaged = 0;
        for (long sortKey : entries) {
            long e = Long.rotateRight(sortKey ^ Long.MIN_VALUE, ROTATE);
            long off = KeyIndex.offsetOf(e);
            if (Arrays.binarySearch(written, 0, writtenCount, off) >= 0) {
                continue;
            }
            Wrong why = wrongSlot(reader, crc, off, end, e >>> 37);
            if (why == null) {
                continue;
            }
            if (why.damage()) {
                if (damaged++ == 0) {
                    damagedAt = off;
                    damagedWhat = why.what();
                }
            } else if (lost++ == 0) {
                lostAt = off;
                lostWhat = why.what();
            }
        }
        Path wal = Store.walOf(file);
        String replayed = lastSeq < firstSeq ? "the index checkpoint (no redo record to replay)"
                : "the index after the redo log's replay (operations " + firstSeq + " to " + lastSeq + ")";
        Finding lostFinding = lost == 0 ? null : new Finding(lostAt, replayed + " points to " + lostWhat
                + (lost > 1 ? " (and " + (lost - 1) + " more entries point to holes or other keys' records)" : "")
                + ": the redo log " + wal + " lost operations the data file already holds (a segment cut, zeroed or"
                + " deleted after they were acknowledged)");
        Finding damagedFinding = damaged == 0 ? null : new Finding(damagedAt, damagedWhat
                + (damaged > 1 ? " (and " + (damaged - 1) + " more index entries point to damaged slots)" : ""));
        return new Found(lostFinding, damagedFinding);
    }

    /**
     * @return every index entry, rotated so that its offset comes first, then its fingerprint ({@link #ROTATE}; and
     *         the sign bit flipped, for a signed sort), in file order: counted into buckets of consecutive offsets
     *         (about one entry each), then each bucket sorted (a full sort of 100,000 entries took 5 ms)
     */
    private long[] inFileOrder(long end) {
        int n = index.size();
        int shift = 3;
        while (end >>> shift > n) {
            shift++;
        }
        int buckets = (int) (end >>> shift) + 1;
        int shiftBy = shift;
        int[] from = new int[buckets + 1];
        index.forEachEntry(e -> from[bucket(e, shiftBy, buckets) + 1]++);
        for (int b = 0; b < buckets; b++) {
            from[b + 1] += from[b];
        }
        int[] next = Arrays.copyOf(from, buckets);
        long[] sorted = new long[n];
        index.forEachEntry(e -> sorted[next[bucket(e, shiftBy, buckets)]++] = Long.rotateLeft(e, ROTATE)
                ^ Long.MIN_VALUE);
        for (int b = 0; b < buckets; b++) {
            if (from[b + 1] - from[b] > 1) {
                Arrays.sort(sorted, from[b], from[b + 1]);
            }
        }
        return sorted;
    }

    private static int bucket(long entry, int shift, int buckets) {
        return (int) Math.min(KeyIndex.offsetOf(entry) >>> shift, buckets - 1);
    }

    /**
     * What an entry points at instead of a live record of its key.
     *
     * @param damage true: no valid slot (damage); false: a valid hole or a valid record of another key
     * @param what what it points at
     */
    private record Wrong(boolean damage, String what) {
    }

    /** @return null when the slot at {@code off} is a valid live record with the fingerprint {@code fp} */
    private static Wrong wrongSlot(Scanner reader, CRC32C crc, long off, long end, long fp) {
        if (off < Slots.DATA_START || off + Slots.HEADER > end) {
            return new Wrong(true, "the index points outside the data (end " + end + ")");
        }
        int at = reader.read(off, Slots.HEADER, end);
        long w0 = reader.buffer().getLong(at);
        String shape = Slots.checkShape(w0, off, end);
        if (shape != null) {
            return new Wrong(true, "the index points to no live record: " + shape);
        }
        int k = Slots.keyLength(w0);
        int kv = Slots.keyAndValue(w0);
        at = reader.read(off, Slots.HEADER + kv, end);
        ByteBuffer b = reader.buffer();
        long seq = Slots.seq(w0, b.getInt(at + 8));
        if (Slots.storedCrc(b, at) != Slots.crc(crc, b, at, kv)) {
            return new Wrong(true, Slots.type(w0) == Slots.LIVE
                    ? "record of " + Slots.slotLength(w0) + " bytes fails its CRC check"
                    : "the index points to no live record: a free slot that fails its CRC check");
        }
        if (Slots.type(w0) != Slots.LIVE) {
            return new Wrong(false, "a hole (freed by operation " + seq + ")");
        }
        if (Slots.hash(b, at + Slots.HEADER, k) >>> 37 != fp) {
            return new Wrong(false, "a record of another key (written by operation " + seq + ")");
        }
        return null;
    }
}
