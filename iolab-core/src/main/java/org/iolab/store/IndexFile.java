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
import org.iolab.storage.StorageFile;

/**
 * The index checkpoint file {@code FILE.idx} (see {@link Store}): the index's entries (8 bytes per record), shard by
 * shard in table order, with each shard's table size; the holes; what they cover; a CRC32C over everything. A load
 * maps it and makes one CRC pass: the index reads a shard's entries from the mapping when the shard is first used.
 */
final class IndexFile {
    /** "IOLABIDX" as a little-endian long. */
    static final long MAGIC = 0x5844494241424F49L;
    static final int FIXED = 80;
    /** 2: the entries only, shard by shard (1 held one whole, half-empty table). */
    static final int VERSION = 2;
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * A loaded checkpoint.
     *
     * @param index its index
     * @param holes its holes: offset, length, offset, length... (each one checked against the data end)
     * @param liveBytes live key and value bytes
     * @param storedBytes live slot bytes
     */
    record Loaded(KeyIndex index, long[] holes, long liveBytes, long storedBytes) {
        /** Adds the holes to {@code free}. */
        void addHoles(FreeSpace free) {
            free.expect(holes.length / 2);
            for (int i = 0; i < holes.length; i += 2) {
                free.add(holes[i], (int) holes[i + 1]);
            }
        }
    }

    private IndexFile() {
    }

    static Path of(Path dataFile) {
        return dataFile.resolveSibling(dataFile.getFileName() + ".idx");
    }

    /** @return {@code FILE.idx.tmp}, where a checkpoint is written before it is renamed over {@code FILE.idx} */
    static Path unfinished(Path dataFile) {
        Path idx = of(dataFile);
        return idx.resolveSibling(idx.getFileName() + ".tmp");
    }

    /**
     * Writes {@code FILE.idx.tmp}, syncs it, renames it over {@code FILE.idx} and syncs the directory.
     *
     * @param opener how the temporary file is written ({@link StoreOptions#sideFileOpener()})
     * @param syncFailed told first when the sync of {@code FILE.idx.tmp} fails (the write-back of the store's files
     *     failed: {@code Store}'s failed-sync note)
     */
    static void write(Path dataFile, Header covers, KeyIndex index, FreeSpace free, long liveBytes,
            long storedBytes, FileOpener opener, java.util.function.Consumer<Throwable> syncFailed) {
        Path idx = of(dataFile);
        Path tmp = unfinished(dataFile);
        // the old FILE.idx is about to be replaced: its entries must be placed before its mapping goes
        index.placeAll();
        long total = FIXED + 8L * KeyIndex.SHARDS + 8L * index.size() + 16L * free.count() + 8;
        if (total > Integer.MAX_VALUE - 16) {
            throw new IolabException("cannot write the index checkpoint " + idx + ": " + total
                    + " bytes is more than 2 GiB; use fewer records per store");
        }
        ByteBuffer b = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putInt(VERSION).putInt(0).putLong(covers.incarnation()).putLong(covers.checkpointSeq())
                .putLong(covers.dataEnd()).putLong(KeyIndex.SHARDS).putLong(index.size()).putLong(free.count())
                .putLong(liveBytes).putLong(storedBytes);
        int[] shard = {0};
        int[] entryAt = {FIXED + 8 * KeyIndex.SHARDS};
        index.forEachShard((bits, count) -> b.putLong(FIXED + 8 * shard[0]++, (long) bits << 32 | count),
                e -> {
                    b.putLong(entryAt[0], e);
                    entryAt[0] += 8;
                });
        b.position(entryAt[0]);
        free.forEach((offset, length) -> b.putLong(offset).putLong(length));
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue()).putInt(0);
        b.flip();
        try (StorageFile ch = opener.open(tmp, true)) {
            ch.truncate(0);
            ch.write(0, b);
            try {
                ch.force(true);
            } catch (RuntimeException e) {
                syncFailed.accept(e);
                throw e;
            }
        } catch (RuntimeException e) {
            // the cause names the file, offset and what to do (a full disk: free some space)
            IolabException failure = new IolabException("cannot write the index checkpoint: " + e.getMessage(), e);
            try {
                // not left behind half written (on a full disk, an empty one was)
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                failure.addSuppressed(suppressed);
            }
            throw failure;
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
            // mapped, and the entries stay there (no heap copy: fresh heap pages cost a fault each, mapped page-cache
            // pages are faulted in groups); each shard's entries are placed into its table on first use. The
            // mapping is unmapped when the index is collected. The header is read from the mapping too: an open
            // runs with cold caches when it follows a collection, and every call it makes costs then
            MemorySegment all = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, Arena.ofAuto());
            long shards = all.get(LONG_LE, 40);
            long entries = all.get(LONG_LE, 48);
            long holes = all.get(LONG_LE, 56);
            if (all.get(LONG_LE, 0) != MAGIC || all.get(INT_LE, 8) != VERSION) {
                problem[0] = "the index checkpoint has no valid magic/version";
                return null;
            }
            if (all.get(LONG_LE, 16) != header.incarnation() || all.get(LONG_LE, 24) != header.checkpointSeq()
                    || all.get(LONG_LE, 32) != header.dataEnd()) {
                problem[0] = "the index checkpoint covers another state (sequence " + all.get(LONG_LE, 24)
                        + ", data end " + all.get(LONG_LE, 32) + ") than the data file's header ("
                        + header.checkpointSeq() + ", " + header.dataEnd() + ")";
                return null;
            }
            if (shards != KeyIndex.SHARDS || entries < 0 || entries > KeyIndex.MAX_RECORDS || holes < 0
                    || holes > header.dataEnd() / Slots.HEADER
                    || size != FIXED + 8 * shards + 8 * entries + 16 * holes + 8 || size > Integer.MAX_VALUE - 16) {
                problem[0] = "the index checkpoint has impossible sizes (shards " + shards + ", entries " + entries
                        + ", holes " + holes + ", file " + size + " bytes)";
                return null;
            }
            CRC32C crc = new CRC32C();
            crc.update(all.asSlice(0, size - 8).asByteBuffer());
            if (all.get(INT_LE, size - 8) != (int) crc.getValue()) {
                problem[0] = "the index checkpoint's CRC does not match";
                return null;
            }
            long[] words = new long[KeyIndex.SHARDS];
            MemorySegment.copy(all, LONG_LE, FIXED, words, 0, KeyIndex.SHARDS);
            byte[] bits = new byte[KeyIndex.SHARDS];
            int[] counts = new int[KeyIndex.SHARDS];
            long sum = 0;
            for (int s = 0; s < KeyIndex.SHARDS; s++) {
                long count = words[s] & 0xFFFF_FFFFL;
                if (!KeyIndex.validShard((int) (words[s] >>> 32), count)) {
                    problem[0] = "the index checkpoint's shard " + s + " has an impossible size ("
                            + (words[s] >>> 32) + " bits, " + count + " entries)";
                    return null;
                }
                bits[s] = (byte) (words[s] >>> 32);
                counts[s] = (int) count;
                sum += count;
            }
            if (sum != entries) {
                problem[0] = "the index checkpoint's shards hold " + sum + " entries, not " + entries;
                return null;
            }
            long at = FIXED + 8L * KeyIndex.SHARDS;
            long[] h = new long[(int) holes * 2];
            MemorySegment.copy(all, LONG_LE, at + 8 * entries, h, 0, (int) holes * 2);
            for (int i = 0; i < h.length; i += 2) {
                long off = h[i];
                long len = h[i + 1];
                if (off < Slots.DATA_START || off % 8 != 0 || len < Slots.HEADER || len % 8 != 0
                        || len > Slots.MAX_SLOT || off + len > header.dataEnd()) {
                    problem[0] = "the index checkpoint's hole " + (i / 2) + " (" + off + "+" + len + ") is impossible";
                    return null;
                }
            }
            KeyIndex index = KeyIndex.loaded(all.asSlice(at, 8 * entries), bits, counts, idx, size);
            return new Loaded(index, h, all.get(LONG_LE, 64), all.get(LONG_LE, 72));
        } catch (NoSuchFileException e) {
            problem[0] = "there is no index checkpoint " + idx;
            return null;
        } catch (IOException e) {
            problem[0] = "cannot read the index checkpoint " + idx + ": " + e;
            return null;
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
