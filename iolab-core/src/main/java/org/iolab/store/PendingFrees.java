package org.iolab.store;

/**
 * The old slots of updated and deleted keys whose operation is not durable yet (BATCH, ALWAYS): each becomes a hole
 * once its operation is, in sequence order; until then a scan skips it. Primitive arrays (a ring of entries and an
 * {@link FreeSpace.OffsetMap} by offset): a delete at BATCH allocates nothing (a {@code long[]} per entry and a
 * {@code HashSet<Long>} of offsets cost a box and a node per delete). The writer's; changed with readers excluded,
 * read by a scan under the read lock.
 */
final class PendingFrees {
    private long[] seqs = new long[64];
    private long[] offsets = new long[64];
    private int[] lengths = new int[64];
    private int head;
    private int size;
    private long bytes;
    private final FreeSpace.OffsetMap byOffset = new FreeSpace.OffsetMap();

    /** Adds the old slot {@code [offset, offset + length)} of operation {@code seq} (sequences ascending). */
    void add(long seq, long offset, int length) {
        if (size == seqs.length) {
            grow();
        }
        int i = (head + size) & (seqs.length - 1);
        seqs[i] = seq;
        offsets[i] = offset;
        lengths[i] = length;
        size++;
        bytes += length;
        byOffset.put(offset, length);
    }

    private void grow() {
        int n = seqs.length;
        long[] s = new long[2 * n];
        long[] o = new long[2 * n];
        int[] l = new int[2 * n];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (n - 1);
            s[k] = seqs[i];
            o[k] = offsets[i];
            l[k] = lengths[i];
        }
        seqs = s;
        offsets = o;
        lengths = l;
        head = 0;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** @return the bytes of the slots waiting */
    long bytes() {
        return bytes;
    }

    /** @return whether the slot at {@code offset} is waiting */
    boolean contains(long offset) {
        return size != 0 && byOffset.get(offset) >= 0;
    }

    /** @return the sequence of the oldest entry; only when not empty */
    long firstSeq() {
        return seqs[head];
    }

    /** @return the offset of the oldest entry; only when not empty */
    long firstOffset() {
        return offsets[head];
    }

    /** @return the length of the oldest entry; only when not empty */
    int firstLength() {
        return lengths[head];
    }

    /** Removes the oldest entry; only when not empty. */
    void removeFirst() {
        byOffset.remove(offsets[head]);
        bytes -= lengths[head];
        head = (head + 1) & (seqs.length - 1);
        size--;
    }
}
