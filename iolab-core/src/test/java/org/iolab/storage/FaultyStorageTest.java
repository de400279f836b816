package org.iolab.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FaultyStorageTest {
    private static final int LIMIT = 48 * 1024;

    @TempDir
    Path dir;

    /** What the test knows: the synced bytes, the latest bytes, and every value written at each offset since. */
    private static final class Model {
        byte[] synced = new byte[0];
        byte[] latest = new byte[0];
        /** 256 bits per offset: values written there since the last sync. */
        long[] since = new long[LIMIT * 4];

        void write(long position, byte[] bytes) {
            int end = (int) position + bytes.length;
            if (end > latest.length) {
                latest = Arrays.copyOf(latest, end);
            }
            System.arraycopy(bytes, 0, latest, (int) position, bytes.length);
            for (int i = 0; i < bytes.length; i++) {
                int v = bytes[i] & 0xff;
                since[((int) position + i) * 4 + (v >>> 6)] |= 1L << (v & 63);
            }
        }

        void sync() {
            synced = latest.clone();
            Arrays.fill(since, 0);
        }

        boolean possible(int offset, byte value) {
            byte before = offset < synced.length ? synced[offset] : 0;
            int v = value & 0xff;
            return value == before || value == 0 && offset >= synced.length
                    || (since[offset * 4 + (v >>> 6)] & 1L << (v & 63)) != 0;
        }
    }

    private static byte[] randomBytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CHANNEL_HEAP", "SEGMENT", "MAPPED"})
    void syncedWritesSurviveAndUnsyncedOnesNeverInventBytes(Backend backend) {
        int lostInAll = 0;
        int changedInAll = 0;
        for (int seed = 0; seed < 40; seed++) {
            Random rnd = new Random(seed);
            Path p = dir.resolve(backend.label() + "-" + seed);
            Model model = new Model();
            FaultyStorage f = FaultyStorage.open(backend, p);
            int ops = 5 + rnd.nextInt(40);
            for (int i = 0; i < ops; i++) {
                if (rnd.nextInt(6) == 0) {
                    f.force(rnd.nextBoolean());
                    model.sync();
                } else {
                    // appends mostly, some overwrites
                    long at = rnd.nextInt(4) == 0 && model.latest.length > 0
                            ? rnd.nextInt(model.latest.length) : model.latest.length;
                    byte[] bytes = randomBytes(rnd, 1 + rnd.nextInt(Math.min(3000, LIMIT - (int) at - 1)));
                    if (at + bytes.length >= LIMIT) {
                        continue;
                    }
                    f.write(at, ByteBuffer.wrap(bytes));
                    model.write(at, bytes);
                }
                // page-cache semantics before the power goes
                assertEquals(model.latest.length, f.size());
            }
            ByteBuffer all = ByteBuffer.allocate(model.latest.length);
            f.read(0, all);
            assertArrayEquals(model.latest, all.array(), "reads see every write before power-off");

            lostInAll += f.powerOff(rnd);
            assertTrue(f.isDead());
            assertThrows(IolabException.class, () -> f.read(0, ByteBuffer.allocate(1)));
            assertThrows(IolabException.class, () -> f.write(0, ByteBuffer.allocate(1)));
            assertThrows(IolabException.class, () -> f.force(true));
            assertThrows(IolabException.class, f::size);

            try (StorageFile after = backend.open(p, false)) {
                long size = after.size();
                assertTrue(size >= model.synced.length, "seed " + seed + ": synced length " + model.synced.length
                        + " but the file is " + size);
                ByteBuffer got = ByteBuffer.allocate((int) size);
                after.read(0, got);
                for (int i = 0; i < size; i++) {
                    byte b = got.get(i);
                    if (!model.possible(i, b)) {
                        throw new AssertionError("seed " + seed + ": byte " + b + " at offset " + i
                                + " was never written there (synced " + (i < model.synced.length
                                        ? model.synced[i] : "none") + ")");
                    }
                    if (i >= model.latest.length || b != model.latest[i]) {
                        changedInAll++;
                    }
                }
            }
        }
        assertTrue(lostInAll > 0, "the simulator dropped or tore something in 40 runs");
        assertTrue(changedInAll > 0, "some unsynced bytes did not survive in 40 runs");
    }

    @Test
    void armedPowerOffFailsTheCountedOperationAndKeepsSyncedData() {
        Path p = dir.resolve("armed");
        FaultyStorage f = FaultyStorage.open(Backend.CHANNEL_HEAP, p);
        byte[] first = randomBytes(new Random(1), 4096);
        f.write(0, ByteBuffer.wrap(first));
        f.force(true);
        f.armPowerOff(3, new Random(2));
        f.write(4096, ByteBuffer.allocate(100));
        f.write(4196, ByteBuffer.allocate(100));
        IolabException e = assertThrows(IolabException.class, () -> f.write(4296, ByteBuffer.allocate(100)));
        assertTrue(e.getMessage().contains("power lost"), e.getMessage());
        assertTrue(f.isDead());
        try (StorageFile after = Backend.CHANNEL_HEAP.open(p, false)) {
            ByteBuffer got = ByteBuffer.allocate(4096);
            after.read(0, got);
            assertArrayEquals(first, got.array());
        }
    }

    @Test
    void forceRangeMakesOnlyTheBytesInsideTheRangeDurable() throws Exception {
        Path p = dir.resolve("range");
        FaultyStorage f = FaultyStorage.open(Backend.CHANNEL_HEAP, p);
        byte[] a = randomBytes(new Random(4), 300);
        byte[] b = randomBytes(new Random(5), 300);
        f.write(0, ByteBuffer.wrap(a));
        f.write(1000, ByteBuffer.wrap(b));
        f.forceRange(100, 1200); // all of b's bytes but only a's from 100 on
        byte[] disk = java.nio.file.Files.readAllBytes(p);
        assertArrayEquals(Arrays.copyOfRange(a, 100, 300), Arrays.copyOfRange(disk, 100, 300));
        assertArrayEquals(b, Arrays.copyOfRange(disk, 1000, 1300));
        assertArrayEquals(new byte[100], Arrays.copyOfRange(disk, 0, 100), "a's first 100 bytes are still pending");
        f.force(false);
        assertArrayEquals(a, Arrays.copyOfRange(java.nio.file.Files.readAllBytes(p), 0, 300));
        f.close();
    }

    @Test
    void truncateIsVisibleBeforeSyncAndCleanCloseWritesEverything() {
        Path p = dir.resolve("clean");
        byte[] bytes = randomBytes(new Random(3), 10_000);
        try (FaultyStorage f = FaultyStorage.open(Backend.SEGMENT, p)) {
            f.write(0, ByteBuffer.wrap(bytes));
            f.truncate(6_000);
            f.truncate(7_000);
            ByteBuffer got = ByteBuffer.allocate(7_000);
            f.read(0, got);
            assertArrayEquals(Arrays.copyOf(Arrays.copyOf(bytes, 6_000), 7_000), got.array());
            assertThrows(IolabException.class, () -> f.read(6_999, ByteBuffer.allocate(2)));
        }
        try (StorageFile after = Backend.SEGMENT.open(p, false)) {
            assertEquals(7_000, after.size());
            ByteBuffer got = ByteBuffer.allocate(6_000);
            after.read(0, got);
            assertArrayEquals(Arrays.copyOf(bytes, 6_000), got.array());
        }
    }
}
