package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.iolab.journal.Journal;

/**
 * The payload of one redo-log record (one per operation, little-endian): everything needed to redo the
 * operation physically.
 * <pre>
 * offset  size  field
 *      0     1  op: 1 put, 2 delete
 *      1     3  zero
 *      4     4  slot bytes n that follow the header (0 for a delete)
 *      8     8  store sequence
 *     16     8  offset of the new slot (-1 for a delete)
 *     24     8  offset of the remainder hole left by splitting a hole (-1 when none)
 *     32     4  length of the remainder hole
 *     36     4  length of the freed slot
 *     40     8  offset of the slot this operation freed (old copy or deleted record; -1 when none)
 *     48     4  length of the new slot (its header's slot length)
 *     52     4  key + value bytes of the freed slot
 *     56     8  data end after the operation
 *     64     8  the key's 64-bit hash (finds the index entry of the freed slot)
 *     72     n  the new slot's bytes: header, key, value, padding to 8
 * </pre>
 */
final class Redo {
    static final int HEADER = 72;
    static final int PUT = 1;
    static final int DELETE = 2;

    private Redo() {
    }

    /**
     * One redo record, decoded (the fields of the format above).
     *
     * @param op {@link #PUT} or {@link #DELETE}
     * @param n the slot bytes that follow the header
     * @param seq the store sequence
     * @param off the new slot's offset (-1 for a delete)
     * @param remOff the remainder hole's offset (-1 when none)
     * @param remLen the remainder hole's length
     * @param freedLen the freed slot's length
     * @param freedOff the freed slot's offset (-1 when none)
     * @param slotLen the new slot's length
     * @param freedKv the key + value bytes of the freed slot
     * @param end the data end after the operation
     * @param hash the key's hash
     * @param record the whole payload (little-endian, from 0)
     */
    record Op(int op, int n, long seq, long off, long remOff, int remLen, int freedLen, long freedOff, int slotLen,
            int freedKv, long end, long hash, ByteBuffer record) {
        /**
         * @param r a record's payload from 0 (little-endian)
         * @param walDir the redo log, for the message
         * @return the record, its slot checked against its data end
         * @throws StoreCorruptedException when it is malformed
         */
        static Op decode(ByteBuffer r, Path walDir) {
            Op o = new Op(r.get(0), r.getInt(4), r.getLong(8), r.getLong(16), r.getLong(24), r.getInt(32),
                    r.getInt(36), r.getLong(40), r.getInt(48), r.getInt(52), r.getLong(56), r.getLong(64), r);
            if ((o.op != PUT && o.op != DELETE) || r.limit() != HEADER + o.n || o.end > Slots.MAX_FILE
                    || o.end < Slots.DATA_START) {
                throw new StoreCorruptedException(walDir, o.seq, "redo record of sequence " + o.seq + " is malformed");
            }
            if (o.op == PUT && (o.off < Slots.DATA_START || o.off + o.slotLen > o.end || o.n < Slots.HEADER
                    || o.n > o.slotLen)) {
                throw new StoreCorruptedException(walDir, o.seq, "redo record of sequence " + o.seq
                        + " has an impossible slot " + o.off + "+" + o.slotLen);
            }
            return o;
        }

        /** @return the new slot's bytes (header, key, value, padding), a view of the record from 0 */
        ByteBuffer slot() {
            return record.slice(HEADER, n).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /**
     * Reads the records after a checkpoint (what an open replays; verify reads them the same way).
     *
     * @param journal the redo log, open
     * @param cpSeq the checkpoint's sequence: records at or below it are skipped
     * @param walDir the redo log's folder, for messages
     * @param out receives a copy of each record after {@code cpSeq}, in order (up to the first damage)
     * @throws StoreCorruptedException when a record is too short or the sequences leave a gap
     */
    static void read(Journal journal, long cpSeq, Path walDir, List<ByteBuffer> out) {
        long[] expect = {cpSeq + 1};
        journal.read(journal.firstSequence(), (jseq, payload) -> {
            payload.order(ByteOrder.LITTLE_ENDIAN);
            if (payload.remaining() < HEADER) {
                throw new StoreCorruptedException(walDir, jseq, "redo record " + jseq + " is too short");
            }
            long seq = payload.getLong(payload.position() + 8);
            if (seq <= cpSeq) {
                return true;
            }
            if (seq != expect[0]) {
                throw new StoreCorruptedException(walDir, jseq, "redo record " + jseq + " has sequence " + seq
                        + ", expected " + expect[0]);
            }
            expect[0]++;
            ByteBuffer copy = ByteBuffer.allocate(payload.remaining()).order(ByteOrder.LITTLE_ENDIAN);
            copy.put(payload).flip();
            out.add(copy);
            return true;
        });
    }
}
