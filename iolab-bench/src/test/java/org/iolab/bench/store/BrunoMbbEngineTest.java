package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The baseline keeps the article's file format and space reuse: exact fit, split, page growth. */
class BrunoMbbEngineTest {
    private static final KvEngine.Sizing SIZING = new KvEngine.Sizing(100, 4, 100);

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> keysInFileOrder(KvEngine e) {
        List<String> keys = new ArrayList<>();
        e.scan((k, v) -> keys.add(StandardCharsets.UTF_8.decode(k).toString()));
        return keys;
    }

    @Test
    void aDeletedRecordIsReusedByAnExactFitAndTheFileKeepsTheArticlesLayout() throws Exception {
        BrunoMbbEngine e = new BrunoMbbEngine();
        e.open(dir, Durability.NONE, SIZING);
        e.put(b("a"), b("0123456789"));
        e.put(b("b"), b("abcdefghij"));
        e.put(b("c"), b("ABCDEFGHIJ"));
        e.delete(b("b"));
        e.put(b("d"), b("9876543210")); // same data length as b's: takes its place
        assertEquals(List.of("a", "d", "c"), keysInFileOrder(e));
        e.close();
        Path file = dir.resolve("employees.ejb");
        assertEquals(BrunoMbbEngine.PAGE_SIZE, Files.size(file));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer h = ByteBuffer.allocate(10);
            ch.read(h, 0);
            h.flip();
            assertEquals(1, h.get(), "active byte");
            assertEquals(4 + 1 + 10, h.getInt(), "data length: int key length, key, value");
            assertEquals(1, h.getInt(), "key length");
            assertEquals('a', h.get());
        }
    }

    @Test
    void aLargerHoleIsSplitLeavingAFreeRecordThatSurvivesAReopen() {
        BrunoMbbEngine e = new BrunoMbbEngine();
        e.open(dir, Durability.NONE, SIZING);
        e.put(b("a"), b("x".repeat(60)));
        e.put(b("z"), b("tail"));
        e.delete(b("a"));
        e.put(b("b"), b("short")); // 65-byte hole: 10 bytes of data + header, the rest a free record
        assertEquals(List.of("b", "z"), keysInFileOrder(e));
        e.close();
        e.open(dir, Durability.NONE, SIZING);
        assertArrayEquals(b("short"), e.get(b("b")));
        assertNull(e.get(b("a")));
        // the remainder (65 - 10 - 5 = 50 data bytes) takes an exact fit: 4 + 1 + 45
        e.put(b("c"), b("y".repeat(45)));
        assertEquals(List.of("b", "c", "z"), keysInFileOrder(e));
        e.close();
    }

    @Test
    void theFileGrowsByWholePagesAndIsRemappedWhole() {
        BrunoMbbEngine e = new BrunoMbbEngine();
        e.open(dir, Durability.BATCH, SIZING);
        byte[] value = new byte[100_000];
        for (int i = 0; i < 25; i++) {
            value[0] = (byte) i;
            e.put(b("k" + i), value);
        }
        assertEquals(3L * BrunoMbbEngine.PAGE_SIZE, e.sizeOnDisk());
        for (int i = 0; i < 25; i++) {
            assertEquals((byte) i, e.get(b("k" + i))[0]);
        }
        e.close();
    }

    @Test
    void aGarbageLengthIsReportedWithFileAndOffset() throws Exception {
        BrunoMbbEngine e = new BrunoMbbEngine();
        e.open(dir, Durability.NONE, SIZING);
        e.put(b("a"), b("value"));
        e.close();
        Path file = dir.resolve("employees.ejb");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).putInt(0, Integer.MAX_VALUE), 1);
        }
        IolabException x = assertThrows(IolabException.class, () -> e.open(dir, Durability.NONE, SIZING));
        assertEquals(file + ": bad record length " + Integer.MAX_VALUE
                + " at offset 0; Bruno's format has no way to recover", x.getMessage());
    }
}
