package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A data file past 2 GiB works on every backend. The first 2.1 GiB are crafted as a sparse file of 32 MiB
 * records whose values are zeros (no disk space, nothing to write), so the store's own records land beyond 2 GiB.
 */
@Tag("slow")
@Timeout(300)
class LargeStoreTest {
    private static final int FILLERS = 66;

    @TempDir
    Path tmp;

    /** Writes the header page and {@link #FILLERS} live slots of 32 MiB zero values, sparse; returns the data end. */
    private static long craft(Path file) throws IOException {
        int valueLength = Slots.MAX_VALUE;
        long end = Slots.DATA_START;
        CRC32C crc = new CRC32C();
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < FILLERS; i++) {
                byte[] key = ("filler" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                int length = Slots.needed(key.length, valueLength);
                ByteBuffer h = ByteBuffer.allocate(Slots.HEADER + key.length).order(ByteOrder.LITTLE_ENDIAN);
                h.putLong(0, Slots.word0(length, Slots.LIVE, key.length, length - Slots.HEADER - key.length
                        - valueLength, i + 1)).putInt(8, Slots.seqHigh(i + 1));
                h.put(Slots.HEADER, key);
                crc.reset();
                crc.update(h.array(), 0, 12);
                crc.update(key);
                for (int left = valueLength; left > 0; left -= zeros.capacity()) {
                    crc.update(zeros.clear().limit(Math.min(left, zeros.capacity())));
                }
                h.putInt(12, (int) crc.getValue());
                ch.write(h, end);
                end += length;
            }
            Header header = new Header(0, FILLERS, end, true, 42, false, false);
            ch.write(header.encode(), 0);
            ch.truncate(end);
            if (ch.size() < end) {
                ch.write(ByteBuffer.allocate(1), end - 1);
            }
        }
        return end;
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void recordsBeyondTwoGiBAreWrittenReadDeletedAndReopened(Backend backend) throws IOException {
        Path file = tmp.resolve("large.store");
        long end = craft(file);
        assertTrue(end > (1L << 31) + (1L << 26), "crafted only " + end + " bytes");
        StoreOptions options = StoreOptions.defaults().withBackend(backend).withDurability(Durability.BATCH);
        try (Store s = Store.open(file, options)) {
            assertEquals(FILLERS, s.size());
            for (int i = 0; i < 1000; i++) {
                s.put(("big" + i).getBytes(), StoreContractTest.value(i, 100 + i));
            }
            StoreStats st = s.stats();
            assertTrue(st.dataEnd() > end, st.toString());
            s.delete("big7".getBytes());
            s.delete("filler3".getBytes());
            assertArrayEquals(StoreContractTest.value(999, 1099), s.get("big999".getBytes()));
        }
        try (Store s = Store.open(file, options)) {
            assertEquals(FILLERS + 1000 - 2, s.size());
            assertNull(s.get("big7".getBytes()));
            assertEquals(Slots.MAX_VALUE, s.get("filler10".getBytes()).length);
            for (int i = 0; i < 1000; i += 37) {
                if (i != 7) {
                    assertArrayEquals(StoreContractTest.value(i, 100 + i), s.get(("big" + i).getBytes()));
                }
            }
        }
    }
}
