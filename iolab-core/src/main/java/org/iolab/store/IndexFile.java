package org.iolab.store;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.iolab.IolabException;

/**
 * The index checkpoint file {@code FILE.idx} (see {@link Store}): the hash table's entries (8 bytes per record, in
 * table order, so loading places each with no probing beyond its own cluster), the holes, and what they cover, with
 * a CRC32C over everything.
 */
final class IndexFile {
    /** "IOLABIDX" as a little-endian long. */
    static final long MAGIC = 0x5844494241424F49L;
    static final int FIXED = 80;
    /** 2: the table's entries only, in table order after an empty entry (1 held the whole table). */
    static final int VERSION = 2;
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** A loaded checkpoint. */
    record Loaded(KeyIndex index, long[] holes, long liveBytes, long storedBytes) {
    }

    private IndexFile() {
    }

    static Path of(Path dataFile) {
        return dataFile.resolveSibling(dataFile.getFileName() + ".idx");
    }

    /** Writes {@code FILE.idx.tmp}, syncs it, renames it over {@code FILE.idx} and syncs the directory. */
    static void write(Path dataFile, Header covers, KeyIndex index, FreeSpace free, long liveBytes,
            long storedBytes) {
        Path idx = of(dataFile);
        Path tmp = idx.resolveSibling(idx.getFileName() + ".tmp");
        long tableLength = index.table().length;
        long total = FIXED + 8L * index.size() + 16L * free.count() + 8;
        if (total > Integer.MAX_VALUE - 16) {
            throw new IolabException("cannot write the index checkpoint " + idx + ": " + total
                    + " bytes is more than 2 GiB; use fewer records per store");
        }
        ByteBuffer b = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putInt(VERSION).putInt(0).putLong(covers.incarnation()).putLong(covers.checkpointSeq())
                .putLong(covers.dataEnd()).putLong(tableLength).putLong(index.size()).putLong(free.count())
                .putLong(liveBytes).putLong(storedBytes);
        index.forEachEntry(b::putLong);
        free.forEach((offset, length) -> b.putLong(offset).putLong(length));
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue()).putInt(0);
        b.flip();
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        } catch (IOException e) {
            throw IolabException.io("write the index checkpoint", tmp, e);
        }
        try {
            Files.move(tmp, idx, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw IolabException.io("rename the index checkpoint into place", idx, e);
        }
        Store.syncDirectory(idx);
    }

    /**
     * Loads {@code FILE.idx} if it is valid and covers exactly {@code header}'s checkpoint.
     *
     * @param problem receives why not, when it is not
     * @return the checkpoint, or null (missing, damaged or stale)
     */
    static Loaded load(Path dataFile, Header header, String[] problem) {
        Path idx = of(dataFile);
        try (FileChannel ch = FileChannel.open(idx, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < FIXED + 8) {
                problem[0] = "the index checkpoint is only " + size + " bytes long";
                return null;
            }
            KeyIndex index;
            long[] h;
            ByteBuffer head = ByteBuffer.allocate(FIXED).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, head, 0);
            long tableLength = head.getLong(40);
            long entries = head.getLong(48);
            long holes = head.getLong(56);
            if (head.getLong(0) != MAGIC || head.getInt(8) != VERSION) {
                problem[0] = "the index checkpoint has no valid magic/version";
                return null;
            }
            if (head.getLong(16) != header.incarnation() || head.getLong(24) != header.checkpointSeq()
                    || head.getLong(32) != header.dataEnd()) {
                problem[0] = "the index checkpoint covers another state (sequence " + head.getLong(24) + ", data end "
                        + head.getLong(32) + ") than the data file's header (" + header.checkpointSeq() + ", "
                        + header.dataEnd() + ")";
                return null;
            }
            if (!KeyIndex.validLength(tableLength) || entries < 0 || entries > KeyIndex.maxEntries(tableLength)
                    || holes < 0 || holes > header.dataEnd() / Slots.HEADER
                    || size != FIXED + 8 * entries + 16 * holes + 8 || size > Integer.MAX_VALUE - 16) {
                problem[0] = "the index checkpoint has impossible sizes (table " + tableLength + ", entries "
                        + entries + ", holes " + holes + ", file " + size + " bytes)";
                return null;
            }
            // mapped: one CRC pass and one pass placing the entries, no heap or temporary buffers
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment all = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
                CRC32C crc = new CRC32C();
                crc.update(all.asSlice(0, size - 8).asByteBuffer());
                if (all.get(INT_LE, size - 8) != (int) crc.getValue()) {
                    problem[0] = "the index checkpoint's CRC does not match";
                    return null;
                }
                index = KeyIndex.ofLength((int) tableLength);
                for (long i = 0; i < entries; i++) {
                    long e = all.get(LONG_LE, FIXED + 8 * i);
                    if (e == 0 || KeyIndex.offsetOf(e) < Slots.DATA_START
                            || KeyIndex.offsetOf(e) + Slots.HEADER > header.dataEnd()) {
                        problem[0] = "the index checkpoint's entry " + i + " points at no slot (offset "
                                + KeyIndex.offsetOf(e) + ")";
                        return null;
                    }
                    index.addEntry(e);
                }
                h = new long[(int) holes * 2];
                MemorySegment.copy(all, LONG_LE, FIXED + 8 * entries, h, 0, (int) holes * 2);
            }
            return new Loaded(index, h, head.getLong(64), head.getLong(72));
        } catch (NoSuchFileException e) {
            problem[0] = "there is no index checkpoint " + idx;
            return null;
        } catch (IOException e) {
            problem[0] = "cannot read the index checkpoint " + idx + ": " + e;
            return null;
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long pos = at;
        while (b.hasRemaining()) {
            int n = ch.read(b, pos);
            if (n < 0) {
                throw new IOException("unexpected end of file");
            }
            pos += n;
        }
    }

    static void delete(Path dataFile) {
        try {
            Files.deleteIfExists(of(dataFile));
        } catch (IOException e) {
            throw IolabException.io("delete the stale index checkpoint", of(dataFile), e);
        }
    }
}
