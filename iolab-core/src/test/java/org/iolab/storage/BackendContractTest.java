package org.iolab.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.iolab.IolabException;
import org.iolab.testing.DirtyPages;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One contract, every backend. */
class BackendContractTest {
    @TempDir
    Path dir;

    /** The byte every test expects at {@code offset}: a pattern that differs at neighbouring offsets. */
    static byte pattern(long offset) {
        return (byte) (offset * 31 + (offset >>> 9) + 7);
    }

    static ByteBuffer patterned(long offset, int length, boolean direct) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            b.put(i, pattern(offset + i));
        }
        return b;
    }

    static void assertPattern(StorageFile f, long offset, int length, boolean direct) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
        f.read(offset, b);
        assertEquals(length, b.position(), "position advanced to limit");
        for (int i = 0; i < length; i++) {
            if (b.get(i) != pattern(offset + i)) {
                throw new AssertionError(f + ": byte at " + (offset + i) + " is " + b.get(i) + ", expected "
                        + pattern(offset + i));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void roundTripsAtAwkwardOffsets(Backend backend) {
        Path p = dir.resolve("f");
        long[] offsets = {0, 1, 4095, 4096, 12_345, 65_537};
        int[] lengths = {1, 7, 4096, 3, 100_001, 300_000};
        try (StorageFile f = backend.open(p, true)) {
            assertEquals(p, f.path());
            assertEquals(0, f.size());
            for (int i = 0; i < offsets.length; i++) {
                ByteBuffer src = patterned(offsets[i], lengths[i], i % 2 == 0);
                f.write(offsets[i], src);
                assertEquals(src.limit(), src.position(), "src position advanced");
            }
            for (int i = 0; i < offsets.length; i++) {
                assertPattern(f, offsets[i], lengths[i], i % 2 == 1);
            }
            assertEquals(365_537, f.size());
            // a heap buffer slice with a non-zero array offset and position
            ByteBuffer big = ByteBuffer.allocate(64);
            big.position(10).limit(30);
            ByteBuffer slice = big.slice();
            slice.position(5);
            f.read(20_000, slice);
            for (int i = 5; i < 20; i++) {
                assertEquals(pattern(20_000 + i - 5), big.get(10 + i));
            }
            f.force(false);
            f.force(true);
        }
        try (StorageFile f = backend.open(p, false)) {
            assertEquals(365_537, f.size());
            assertPattern(f, 65_537, 300_000, false);
            assertThrows(IolabException.class, () -> f.write(0, ByteBuffer.allocate(1)));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void growsPastSeveralStepsAndReopensWithTheExactLength(Backend backend) throws IOException {
        Path p = dir.resolve("g");
        int chunk = 100_003;
        long end = 0;
        try (StorageFile f = backend.open(p, true)) {
            while (end < 9L << 20) {
                f.write(end, patterned(end, chunk, false));
                end += chunk;
                assertEquals(end, f.size());
            }
            f.force(true);
        }
        assertEquals(end, Files.size(p));
        try (StorageFile f = backend.open(p, true)) {
            assertEquals(end, f.size());
            assertPattern(f, 0, (int) end, true);
            f.write(end, patterned(end, 10, false));
            assertEquals(end + 10, f.size());
        }
        assertEquals(end + 10, Files.size(p));
    }

    /** @return {@code p} opened with {@code backend}, {@code length} patterned bytes written and not yet synced */
    private static StorageFile dirtyFile(Backend backend, Path p, int length) {
        StorageFile f = backend.open(p, true);
        f.write(0, patterned(0, length, false));
        f.written(length);
        long dirty = DirtyPages.count(p, 0, length);
        if (dirty <= 0) {
            f.close();
        }
        Assumptions.assumeTrue(dirty > 0, "needs cachestat and pages not yet written back: " + dirty);
        return f;
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void forceRangeCleansTheRangeAndKeepsEveryByte(Backend backend) throws Exception {
        Path control = DirtyPages.control(dir);
        Path p = dir.resolve("r");
        int length = 4 << 20;
        try (StorageFile f = dirtyFile(backend, p, length)) {
            f.forceRange(100, 64);
            assertEquals(0, DirtyPages.count(p, 0, 4096), "the range's page is clean");
            if (backend == Backend.SEGMENT) {
                long rest = DirtyPages.count(p, 1 << 20, length - (1 << 20));
                Assumptions.assumeTrue(DirtyPages.untouched(control), "the kernel wrote pages back on its own");
                assertTrue(rest > 0, "the rest is left dirty");
            }
            assertPattern(f, 0, length, false);
        }
        assertEquals(length, Files.size(p));
    }

    /** force(false) and force(true) each leave no page of the file dirty: a sync that syncs nothing fails here. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void forceCleansEveryPage(Backend backend) throws Exception {
        int length = 4 << 20;
        for (boolean metadata : new boolean[] {false, true}) {
            Path p = dir.resolve("force-" + metadata);
            try (StorageFile f = dirtyFile(backend, p, length)) {
                f.force(metadata);
                assertEquals(0, DirtyPages.count(p, 0, length),
                        backend + ": dirty pages after force(" + metadata + ")");
                assertPattern(f, 0, length, false);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void writeBehindStartsTheWriteBackOfTheRangeAndLosesNothing(Backend backend) throws Exception {
        Path p = dir.resolve("b");
        int length = 4 << 20;
        try (StorageFile f = dirtyFile(backend, p, length)) {
            f.writeBehind(0, 2 << 20);
            if (backend != Backend.MAPPED) {
                assertEquals(0, DirtyPages.awaitClean(p, 0, 2 << 20, 20_000), "the range is written back");
            }
            f.writeBehind(length - 10, 1000);
            assertPattern(f, 0, length, true);
        }
        assertEquals(length, Files.size(p));
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void truncateShrinksAndGrowsWithZeros(Backend backend) throws IOException {
        Path p = dir.resolve("t");
        try (StorageFile f = backend.open(p, true)) {
            f.write(0, patterned(0, 10_000, false));
            f.truncate(5_000);
            assertEquals(5_000, f.size());
            assertPattern(f, 0, 5_000, false);
            assertThrows(IolabException.class, () -> f.read(4_999, ByteBuffer.allocate(2)));
            f.truncate(8_000);
            assertEquals(8_000, f.size());
            ByteBuffer tail = ByteBuffer.allocate(3_000);
            f.read(5_000, tail);
            for (int i = 0; i < 3_000; i++) {
                assertEquals(0, tail.get(i), "zeros after growing by truncate");
            }
            f.truncate(3L << 20);
            assertEquals(3L << 20, f.size());
            f.write(5_000, patterned(5_000, 100, true));
            f.truncate(5_100);
        }
        assertEquals(5_100, Files.size(p));
        try (StorageFile f = backend.open(p, false)) {
            assertEquals(5_100, f.size());
            assertPattern(f, 0, 5_000, false);
            assertPattern(f, 5_000, 100, false);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void readingPastTheEndNamesFileAndOffset(Backend backend) {
        Path p = dir.resolve("short");
        try (StorageFile f = backend.open(p, true)) {
            f.write(0, patterned(0, 100, false));
            IolabException e = assertThrows(IolabException.class, () -> f.read(90, ByteBuffer.allocate(20)));
            assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("offset 90"), e.getMessage());
            assertThrows(IolabException.class, () -> f.read(1_000_000, ByteBuffer.allocateDirect(1)));
            assertThrows(IolabException.class, () -> f.read(-1, ByteBuffer.allocate(1)));
            f.read(100, ByteBuffer.allocate(0));
        }
        IolabException missing = assertThrows(IolabException.class,
                () -> backend.open(dir.resolve("missing"), false));
        assertTrue(missing.getMessage().contains("missing"), missing.getMessage());
    }

    /**
     * A reader opened while a writer's file was long, after the writer has cut it to a page boundary: readPresent
     * returns what is left and 0 past it. A mapped backend's read would touch the cut pages of its old mapping
     * (SIGBUS); readPresent must not.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void readPresentReadsWhatIsLeftOfAFileCutSinceItWasOpened(Backend backend) throws IOException {
        Path p = dir.resolve("cut");
        try (StorageFile w = backend.open(p, true)) {
            w.write(0, patterned(0, 3 * 4096, false));
        }
        try (StorageFile r = backend.open(p, false)) {
            assertEquals(3 * 4096, r.size());
            ByteBuffer all = ByteBuffer.allocate(3 * 4096);
            assertEquals(3 * 4096, r.readPresent(0, all));
            assertEquals(all.capacity(), all.position());
            assertArrayEquals(patterned(0, 3 * 4096, false).array(), all.array());
            try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(p.toFile(), "rw")) {
                raf.setLength(4096); // what a mapped writer's close does to its zero tail
            }
            ByteBuffer word = ByteBuffer.allocate(4);
            assertEquals(0, r.readPresent(4096, word));
            assertEquals(0, word.position());
            assertEquals(0, r.readPresent(2 * 4096 + 8, ByteBuffer.allocateDirect(16)));
            ByteBuffer straddle = ByteBuffer.allocate(100);
            assertEquals(40, r.readPresent(4096 - 40, straddle));
            assertEquals(40, straddle.position());
            assertArrayEquals(java.util.Arrays.copyOfRange(patterned(0, 4096, false).array(), 4096 - 40, 4096),
                    java.util.Arrays.copyOf(straddle.array(), 40));
            assertThrows(IolabException.class, () -> r.readPresent(-1, ByteBuffer.allocate(1)));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void concurrentReadersSeeWrittenBytesWhileTheWriterGrowsTheFile(Backend backend) throws Exception {
        Path p = dir.resolve("c");
        AtomicLong published = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (StorageFile f = backend.open(p, true)) {
            List<Future<Long>> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                long seed = r;
                readers.add(pool.submit(() -> {
                    Random rnd = new Random(seed);
                    long reads = 0;
                    while (!done.get() || reads < 10) {
                        long end = published.get();
                        if (end == 0) {
                            Thread.onSpinWait();
                            continue;
                        }
                        long at = rnd.nextLong(end);
                        int len = (int) Math.min(end - at, 1 + rnd.nextInt(20_000));
                        assertPattern(f, at, len, rnd.nextBoolean());
                        reads++;
                    }
                    return reads;
                }));
            }
            Random rnd = new Random(42);
            long end = 0;
            while (end < 12L << 20) {
                int len = 1 + rnd.nextInt(70_000);
                f.write(end, patterned(end, len, rnd.nextBoolean()));
                end += len;
                published.set(end);
            }
            done.set(true);
            for (Future<Long> reader : readers) {
                assertTrue(reader.get(60, TimeUnit.SECONDS) >= 10);
            }
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"MAPPED", "SEGMENT"})
    @Tag("slow")
    void filesOverTwoGibibytesWork(Backend backend) throws IOException {
        Path p = dir.resolve("huge");
        long boundary = 1L << 31;
        long end = boundary + (1L << 20) + 3;
        try (StorageFile f = backend.open(p, true)) {
            f.write(0, patterned(0, 4096, false));
            f.write(boundary - 5_000, patterned(boundary - 5_000, 10_000, true));
            f.write(end - 100, patterned(end - 100, 100, false));
            assertEquals(end, f.size());
            assertPattern(f, boundary - 5_000, 10_000, false);
        }
        assertEquals(end, Files.size(p));
        try (StorageFile f = backend.open(p, false)) {
            assertEquals(end, f.size());
            assertPattern(f, 0, 4096, true);
            assertPattern(f, boundary - 5_000, 10_000, false);
            assertPattern(f, end - 100, 100, false);
            assertThrows(IolabException.class, () -> f.read(end - 1, ByteBuffer.allocate(2)));
        } finally {
            Files.delete(p);
        }
    }

    @Test
    void mappedWindowsSplitCopiesAtTheirBoundaries() {
        Path p = dir.resolve("w");
        try (StorageFile f = new MappedStorage(p, true, 12)) {
            f.write(4000, patterned(4000, 20_000, false));
            assertPattern(f, 4000, 20_000, true);
            assertPattern(f, 8190, 5, false);
        }
        try (StorageFile f = new MappedStorage(p, false, 12)) {
            assertEquals(24_000, f.size());
            assertPattern(f, 4000, 20_000, false);
        }
    }

    @Test
    void mappedBackendsLendTheirFirstWindowAsAReadOnlyBuffer() {
        Path p = dir.resolve("lend");
        try (StorageFile w = new MappedStorage(p, true, 12)) {
            assertNull(w.mappedBuffer(), "an empty file has no window");
            w.write(0, patterned(0, 10_000, false));
            ByteBuffer first = w.mappedBuffer();
            assertTrue(first.isReadOnly() && first.isDirect());
            assertEquals(4096, first.capacity(), "the first window only");
            assertEquals(0, first.position());
            for (int i = 0; i < 4096; i += 61) {
                assertEquals(patterned(0, 10_000, false).get(i), first.get(i), "byte " + i);
            }
            w.write(100, ByteBuffer.wrap(new byte[] {7}));
            assertEquals(7, first.get(100), "a lent buffer sees later writes to the mapping");
        }
        StorageFile f = new MappedStorage(p, false, 30);
        ByteBuffer whole;
        try {
            whole = f.mappedBuffer();
            assertEquals(10_000, whole.capacity(), "a window no larger than the file");
        } finally {
            f.close();
        }
        assertNull(f.mappedBuffer(), "a closed file lends nothing");
        assertEquals(7, whole.get(100), "a buffer lent before the close stays readable");
        // a writer cuts the file's tail after a reader opened it, before the reader asks for the buffer (a segment
        // sealed and closed under a tailer): the buffer stops at the file's end
        Path cut = dir.resolve("lend-cut");
        try (StorageFile w = Backend.SEGMENT.open(cut, true)) {
            w.write(0, patterned(0, 50_000, false));
        }
        try (StorageFile r = Backend.SEGMENT.open(cut, false)) {
            try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(cut.toFile(), "rw")) {
                raf.setLength(20_000);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            ByteBuffer lent = r.mappedBuffer();
            assertEquals(20_000, lent.capacity());
            assertEquals(patterned(0, 50_000, false).get(19_999), lent.get(19_999));
        }
        for (Backend b : Backend.values()) {
            Path q = dir.resolve("lend-" + b.label());
            try (StorageFile other = b.open(q, true)) {
                other.write(0, patterned(0, 100, false));
                assertEquals(b == Backend.MAPPED, other.mappedBuffer() != null, b.label() + " writable");
            }
            try (StorageFile other = b.open(q, false)) {
                ByteBuffer lent = other.mappedBuffer();
                // the FFM backend lends a second mapping to readers only; the copying backends have none
                assertEquals(b == Backend.MAPPED || b == Backend.SEGMENT, lent != null, b.label() + " read-only");
                if (lent != null) {
                    assertTrue(lent.isReadOnly() && lent.isDirect());
                    assertEquals(100, lent.capacity());
                    for (int i = 0; i < 100; i++) {
                        assertEquals(patterned(0, 100, false).get(i), lent.get(i), b.label() + " byte " + i);
                    }
                }
            }
        }
    }

    @Test
    void parseKnowsEveryLabelAndListsThemOnError() {
        for (Backend b : Backend.values()) {
            assertEquals(b, Backend.parse(" " + b.label().toUpperCase(java.util.Locale.ROOT) + " "));
            assertTrue(!b.description().isBlank());
        }
        assertEquals(Backend.SEGMENT, Backend.DEFAULT);
        IolabException e = assertThrows(IolabException.class, () -> Backend.parse("nio"));
        assertTrue(e.getMessage().contains("'nio'"), e.getMessage());
        assertTrue(e.getMessage().contains("raf, channel-heap, channel-direct, mapped, segment"), e.getMessage());
        assertThrows(IolabException.class, () -> Backend.parse(null));
    }

    @Test
    void closedFilesRefuseWork() {
        for (Backend b : Backend.values()) {
            StorageFile f = b.open(dir.resolve("closed-" + b.label()), true);
            f.write(0, patterned(0, 10, false));
            f.close();
            assertThrows(IolabException.class, () -> f.read(0, ByteBuffer.allocate(1)), b.label());
            assertThrows(IolabException.class, () -> f.write(0, ByteBuffer.allocate(1)), b.label());
        }
    }

    @Test
    void growthDoublesThenStepsByOneGibibyte() {
        assertEquals(1L << 20, Growth.next(0, 10));
        assertEquals(4L << 20, Growth.next(2L << 20, (2L << 20) + 1));
        assertEquals(3L << 30, Growth.next(2L << 30, (2L << 30) + 1));
        assertEquals(40_960, Growth.next(0, 40_000) < 40_960 ? 0 : Math.min(Growth.next(0, 40_000), 40_960));
        assertEquals((5L << 30) + 4096, Growth.next(1L << 20, (5L << 30) + 1));
    }
}
