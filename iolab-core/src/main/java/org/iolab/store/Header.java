package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;

/**
 * One of the two header copies of a data file (see {@link Store}).
 *
 * @param generation increases with every header write; the valid copy with the higher one wins
 * @param checkpointSeq the last sequence the checkpoint covers
 * @param dataEnd the end of the data at the checkpoint
 * @param clean true when the file and {@code FILE.idx} match the checkpoint exactly (no change since)
 * @param incarnation a random number chosen when the file is created or compacted and at every checkpoint; the index
 *        file names it
 * @param redoFlag the writer that changed the file since the checkpoint logs to a redo log
 * @param packed the file holds a {@link SymbolTable} at {@link #TABLE} of its header page, and its live slots may hold
 *        values compressed with it ({@link Slots#PACKED}): format version 3, which earlier iolab versions refuse
 */
record Header(long generation, long checkpointSeq, long dataEnd, boolean clean, long incarnation, boolean redoFlag,
        boolean packed) {
    /** "IOLABSTO" as a little-endian long. */
    static final long MAGIC = 0x4F545342414C4F49L;
    /** 2: 16-byte slot headers (1 had 24-byte ones). */
    static final int VERSION = 2;
    /** 3: version 2 with a symbol table and compressed values ({@link #packed}). */
    static final int VERSION_PACKED = 3;
    /** Where a version-3 file's symbol table begins in its header page (after both header copies). */
    static final int TABLE = 1024;
    static final int SIZE = 64;
    static final int COPY_A = 0;
    static final int COPY_B = 512;
    static final int PAGE = 4096;

    /** @return where this header's copy goes (alternating by generation) */
    int position() {
        return generation % 2 == 0 ? COPY_A : COPY_B;
    }

    ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, MAGIC).putInt(8, packed ? VERSION_PACKED : VERSION).putInt(12, (clean ? 1 : 0) | (redoFlag ? 2 : 0))
                .putLong(16, generation)
                .putLong(24, checkpointSeq).putLong(32, dataEnd).putLong(40, incarnation);
        CRC32C crc = new CRC32C();
        crc.update(b.slice(0, 56));
        b.putInt(56, (int) crc.getValue());
        return b;
    }

    /**
     * @param page the header page (at least {@code at + 64} bytes)
     * @param at {@link #COPY_A} or {@link #COPY_B}
     * @return the copy, or null when it is not a valid header
     */
    static Header decode(ByteBuffer page, int at) {
        ByteBuffer b = page.slice(at, SIZE).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        crc.update(b.slice(0, 56));
        int version = b.getInt(8);
        if (b.getLong(0) != MAGIC || version != VERSION && version != VERSION_PACKED
                || b.getInt(56) != (int) crc.getValue()) {
            return null;
        }
        long dataEnd = b.getLong(32);
        if (dataEnd < Slots.DATA_START || dataEnd % 8 != 0 || dataEnd > Slots.MAX_FILE || b.getLong(24) < 0) {
            return null;
        }
        return new Header(b.getLong(16), b.getLong(24), dataEnd, (b.getInt(12) & 1) != 0, b.getLong(40),
                (b.getInt(12) & 2) != 0, version == VERSION_PACKED);
    }

    /**
     * Refuses a data file written in another format version: a header copy with the magic and a matching CRC but
     * another version. (Read as damage, it would be "repaired" away.)
     *
     * @param page the header page (at least {@code COPY_B + 64} bytes)
     * @throws IolabException naming the file and both versions
     */
    static void checkVersion(ByteBuffer page, java.nio.file.Path file) {
        for (int at : new int[] {COPY_A, COPY_B}) {
            ByteBuffer b = page.slice(at, SIZE).order(ByteOrder.LITTLE_ENDIAN);
            CRC32C crc = new CRC32C();
            crc.update(b.slice(0, 56));
            int version = b.getInt(8);
            if (b.getLong(0) == MAGIC && b.getInt(56) == (int) crc.getValue() && version != VERSION
                    && version != VERSION_PACKED) {
                throw new org.iolab.IolabException("store " + file + " is in format version " + version
                        + "; this iolab reads versions " + VERSION + " and " + VERSION_PACKED
                        + ". Dump it with the iolab that wrote it and load"
                        + " the dump into a new store; the file is unchanged");
            }
        }
    }

    Header next(long cpSeq, long end, boolean isClean, boolean redo) {
        return new Header(generation + 1, cpSeq, end, isClean, incarnation, redo, packed);
    }

    /** @return the clean header of a checkpoint at {@code cpSeq}, with a new incarnation for its FILE.idx to name */
    Header nextCheckpoint(long cpSeq, long end) {
        return new Header(generation + 1, cpSeq, end, true, ThreadLocalRandom.current().nextLong(), false, packed);
    }
}
