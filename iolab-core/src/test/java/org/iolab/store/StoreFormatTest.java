package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The slot header's encoding at its limits, and files of another format version. */
class StoreFormatTest {
    @TempDir
    Path tmp;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Rewrites both header copies with {@code change} applied to each valid one (a new CRC). */
    private static void rewriteHeaders(Path file, java.util.function.Consumer<ByteBuffer> change) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int at : new int[] {Header.COPY_A, Header.COPY_B}) {
                ByteBuffer b = ByteBuffer.allocate(Header.SIZE).order(ByteOrder.LITTLE_ENDIAN);
                ch.read(b, at);
                if (b.getLong(0) != Header.MAGIC) {
                    continue;
                }
                change.accept(b);
                CRC32C crc = new CRC32C();
                crc.update(b.slice(0, 56));
                b.putInt(56, (int) crc.getValue());
                ch.write(b.clear(), at);
            }
        }
    }

    @Test
    void theSlotLayoutIsTheDocumentedOne() {
        // a 10-byte key and a 40-byte value: 16 + 10 + 40 = 66, padded to 72
        ByteBuffer b = ByteBuffer.allocate(80).order(ByteOrder.LITTLE_ENDIAN);
        long seq = 0x0000_8765_4321_0FEDL;
        int n = Slots.writeLive(b, 0, 72, seq, ByteBuffer.wrap(new byte[10]), ByteBuffer.wrap(new byte[40]),
                false, new CRC32C());
        assertEquals(72, n);
        int first = b.getInt(0);
        assertEquals(72 / 8, first & 0x7F_FFFF);
        assertEquals(Slots.LIVE, (first >>> 23) & 3);
        assertEquals(6, (first >>> 25) & 63, "padding");
        assertEquals(10, b.getShort(4));
        assertEquals(0x0FED, b.getShort(6) & 0xFFFF);
        assertEquals(0x8765_4321, b.getInt(8));
        assertEquals(seq, Slots.seq(b.getLong(0), b.getInt(8)));
        assertEquals(40, Slots.valueLength(b.getLong(0)));
        assertEquals(Slots.crc(new CRC32C(), b, 0, 50), b.getInt(12));
    }

    @Test
    void theLastSequenceTheHeaderHoldsIsWrittenReadBackAndThenRefused() throws IOException {
        Path file = tmp.resolve("seq.store");
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            s.put(bytes("a"), bytes("1"));
        }
        // as if 2^48 - 2 operations had run: the next one is the last
        rewriteHeaders(file, h -> h.putLong(24, Slots.MAX_SEQ - 1));
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            assertEquals(Slots.MAX_SEQ, s.put(bytes("b"), bytes("2")));
            IolabException full = assertThrows(IolabException.class, () -> s.put(bytes("c"), bytes("3")));
            assertTrue(full.getMessage().contains(file.toString()) && full.getMessage().contains("2^48"),
                    full.getMessage());
            assertFalse(s.contains(bytes("c")));
        }
        // a scan reads the sequence back from the slot (all 48 bits set) and keeps the newer copy of a key
        Files.delete(IndexFile.of(file));
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            assertArrayEquals(bytes("2"), s.get(bytes("b")));
            assertArrayEquals(bytes("1"), s.get(bytes("a")));
            assertEquals(Slots.MAX_SEQ, s.stats().lastSequence());
        }
        assertTrue(Store.verify(file).ok());
    }

    @Test
    void aSlotNeverGrowsPastTheLongestSlot() {
        int k = Slots.MAX_KEY;
        int v = Slots.MAX_VALUE;
        int length = Slots.needed(k, v);
        assertEquals(Slots.MAX_SLOT, length);
        ByteBuffer b = ByteBuffer.allocate(length + 8).order(ByteOrder.LITTLE_ENDIAN);
        Slots.writeLive(b, 0, length, 5, ByteBuffer.allocate(k), ByteBuffer.allocate(v), false,
                new CRC32C());
        long before = b.getLong(0);
        // a repair extending it by the 8 bytes of damage after it would make a slot no open accepts
        assertFalse(Slots.relength(b, 0, length + 8, new CRC32C()));
        assertEquals(before, b.getLong(0));
        assertTrue(Slots.checkShape(b.getLong(0), Slots.DATA_START, Slots.DATA_START + length) == null);
    }

    @Test
    void aFullIndexShardRefusesThePutBeforeLoggingItAndTheStoreStaysUsable() throws IOException {
        // keys whose hashes all fall in shard 0 fill it long before the store's record limit
        long max = (long) ((1L << KeyIndex.MAX_SHARD_BITS) * 0.9);
        java.util.List<byte[]> keys = new java.util.ArrayList<>();
        ByteBuffer k = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; keys.size() <= max; i++) {
            k.putLong(0, i);
            if (Slots.hash(k, 0, 8) >>> 56 == 0) {
                keys.add(k.array().clone());
            }
        }
        Path file = tmp.resolve("full.store");
        byte[] one = {1};
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            for (int i = 0; i < max; i++) {
                s.put(keys.get(i), one);
            }
            byte[] last = keys.get((int) max);
            IolabException full = assertThrows(IolabException.class, () -> s.put(last, one));
            assertFalse(full instanceof StoreCorruptedException, full.toString());
            assertTrue(full.getMessage().contains("full"), full.getMessage());
            assertFalse(s.contains(last));
            // not failed: other shards take puts, the full one takes updates and deletes
            s.put(bytes("elsewhere"), one);
            s.put(keys.get(0), bytes("updated"));
            s.delete(keys.get(1));
            s.put(last, one);
        }
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            assertEquals(max + 1, s.size());
            assertArrayEquals(bytes("updated"), s.get(keys.get(0)));
            assertTrue(s.contains(keys.get((int) max)));
        }
    }

    @Test
    void aCheckpointCutWhileTheStoreIsOpenIsAnIolabErrorAndTheNextOpenRebuildsTheIndex() throws IOException {
        Path file = tmp.resolve("cut-idx.store");
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            for (int i = 0; i < 5000; i++) {
                s.put(bytes("k" + i), bytes("v" + i));
            }
        }
        Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE));
        try {
            try (FileChannel ch = FileChannel.open(IndexFile.of(file), StandardOpenOption.WRITE)) {
                ch.truncate(0);
            }
            int failed = 0;
            for (int i = 0; i < 5000; i++) {
                try {
                    byte[] v = s.get(bytes("k" + i));
                    assertArrayEquals(bytes("v" + i), v);
                } catch (IolabException e) {
                    assertTrue(e.getMessage().contains(IndexFile.of(file).toString()), e.getMessage());
                    failed++;
                }
            }
            assertTrue(failed > 0, "every get succeeded from a cut checkpoint");
        } finally {
            try {
                s.close();
            } catch (IolabException e) {
                // the checkpoint of the close cannot read the cut entries either
                assertTrue(e.getMessage().contains(IndexFile.of(file).toString()), e.getMessage());
            }
        }
        try (Store again = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            assertEquals(5000, again.size());
            assertArrayEquals(bytes("v4999"), again.get(bytes("k4999")));
        }
    }

    @Test
    void aFileOfAnotherFormatVersionIsRefusedByNameAndLeftUnchanged() throws IOException {
        Path file = tmp.resolve("old.store");
        try (Store s = Store.open(file, StoreOptions.defaults().withBackend(Backend.RANDOM_ACCESS_FILE))) {
            s.put(bytes("k"), bytes("v"));
        }
        rewriteHeaders(file, h -> h.putInt(8, 1));
        byte[] before = Files.readAllBytes(file);
        for (var attempt : java.util.List.<Runnable>of(() -> Store.open(file, StoreOptions.defaults()).close(),
                () -> Store.verify(file), () -> Store.repair(file))) {
            IolabException e = assertThrows(IolabException.class, attempt::run);
            assertFalse(e instanceof StoreCorruptedException, e.toString());
            assertTrue(e.getMessage().contains("format version 1") && e.getMessage().contains(file.toString()),
                    e.getMessage());
        }
        assertArrayEquals(before, Files.readAllBytes(file), "the refused file was changed");
    }
}
