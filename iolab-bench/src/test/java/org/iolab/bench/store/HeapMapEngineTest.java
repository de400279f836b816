package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The heap-map floor: NONE only, and a damaged file is refused by name, never half-loaded. */
class HeapMapEngineTest {
    private static final KvEngine.Sizing SIZING = new KvEngine.Sizing(10, 4, 4);

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"BATCH", "ALWAYS"})
    void refusedAtSyncedLevels(Durability d) {
        EngineNotRunnableException e = assertThrows(EngineNotRunnableException.class,
                () -> new HeapMapEngine().open(dir, d, SIZING));
        assertTrue(e.getMessage().contains("heap-map") && e.getMessage().contains("none only"), e.getMessage());
    }

    @Test
    void isNeitherAPeerNorLeftOutOfTheNames() {
        assertTrue(Engines.names().contains(Engines.FLOOR));
        assertFalse(Engines.PEERS.contains(Engines.FLOOR));
        assertTrue(Engines.create("heap-map") instanceof HeapMapEngine);
    }

    @Test
    void aCutFileIsRefusedNamingIt() throws Exception {
        HeapMapEngine e = new HeapMapEngine();
        e.open(dir, Durability.NONE, SIZING);
        for (int i = 0; i < 5; i++) {
            e.put(b("k" + i), b("value " + i));
        }
        e.close();
        Path f = dir.resolve("heap.map");
        byte[] whole = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(whole, whole.length - 3));
        IolabException x = assertThrows(IolabException.class, () -> new HeapMapEngine().open(dir, Durability.NONE,
                SIZING));
        assertTrue(x.getMessage().contains(f.toString()) && x.getMessage().contains("ends before"), x.getMessage());
    }

    @Test
    void aHugeLengthIsRefusedWithoutAllocatingIt() throws Exception {
        Path f = dir.resolve("heap.map");
        Files.write(f, ByteBuffer.allocate(12).putInt(1).putInt(Integer.MAX_VALUE).putInt(1).array());
        IolabException x = assertThrows(IolabException.class, () -> new HeapMapEngine().open(dir, Durability.NONE,
                SIZING));
        assertTrue(x.getMessage().contains("bad lengths"), x.getMessage());
    }

    @Test
    void storesCopies() {
        HeapMapEngine e = new HeapMapEngine();
        e.open(dir, Durability.NONE, SIZING);
        byte[] k = b("key");
        byte[] v = b("value");
        e.put(k, v);
        v[0] = 'X';
        byte[] got = e.get(b("key"));
        assertArrayEquals(b("value"), got, "a later change to the caller's array does not reach the map");
        got[0] = 'Y';
        assertArrayEquals(b("value"), e.get(b("key")), "nor does a change to a returned array");
        e.close();
    }
}
