package org.iolab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Catalogue;
import org.iolab.content.Content;
import org.iolab.os.PageCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Drives the benchmark states by hand, without JMH, for every catalogue method. */
class BenchmarkStatesTest {
    private static final String SIZE = "256k";
    private static final long BYTES = 256 << 10;

    @TempDir
    Path dir;

    static Stream<String> readIds() {
        return Catalogue.reads().stream().map(m -> m.info().id());
    }

    static Stream<String> writeIds() {
        return Catalogue.writes().stream().map(m -> m.info().id());
    }

    static Stream<String> randomIds() {
        return Catalogue.randomAccess().stream().map(m -> m.info().id());
    }

    private ReadBenchmark read(String method, String cache) {
        ReadBenchmark b = new ReadBenchmark();
        b.method = method;
        b.bufferSize = "8k";
        b.fileSize = SIZE;
        b.cache = cache;
        b.evict = "fadvise";
        b.dir = dir.toString();
        return b;
    }

    private WriteBenchmark write(String method, String prealloc, String sync) {
        WriteBenchmark b = new WriteBenchmark();
        b.method = method;
        b.bufferSize = "8k";
        b.fileSize = SIZE;
        b.prealloc = prealloc;
        b.sync = sync;
        b.dir = dir.toString();
        return b;
    }

    private RandomAccessBenchmark random(String method, String cache) {
        RandomAccessBenchmark b = new RandomAccessBenchmark();
        b.method = method;
        b.fileSize = SIZE;
        b.stride = "20000";
        b.length = "3";
        b.cache = cache;
        b.evict = "fadvise";
        b.dir = dir.toString();
        return b;
    }

    @ParameterizedTest
    @MethodSource("readIds")
    void everyReadMethodPassesWarm(String id) {
        ReadBenchmark b = read(id, "warm");
        b.setupTrial();
        try {
            assertEquals(Content.DEFAULT.checksum(BYTES), b.expected());
            for (int i = 0; i < 2; i++) {
                b.setupIteration();
                assertEquals(b.expected(), b.pass(), id);
            }
        } finally {
            b.tearDownTrial();
        }
        assertFalse(Files.exists(dir.resolve(BenchmarkNames.dataFileName(BYTES))),
                "the data file the trial created is deleted at its end");
    }

    @ParameterizedTest
    @MethodSource("readIds")
    void everyReadMethodPassesCold(String id) {
        ReadBenchmark b = read(id, "cold");
        b.setupTrial();
        try {
            for (int i = 0; i < 2; i++) {
                b.setupIteration();
                assertTrue(PageCache.residency(b.file()).fraction() <= PageCache.COLD_TOLERANCE,
                        () -> PageCache.residency(b.file()).toString());
                assertEquals(b.expected(), b.pass(), id);
            }
        } finally {
            b.tearDownTrial();
        }
    }

    @Test
    void preparedDataFileIsUsedAndKept() throws IOException {
        Path data = dir.resolve(BenchmarkNames.dataFileName(BYTES));
        BenchmarkNames.prepareDataFile(data, BYTES);
        assertEquals(BYTES, Files.size(data));
        assertEquals(Content.DEFAULT.checksum(BYTES), DataFiles.checksum(data));
        ReadBenchmark b = read("fis-array", "warm");
        b.setupTrial();
        try {
            assertEquals(data, b.file());
            b.setupIteration();
            assertEquals(b.expected(), b.pass());
        } finally {
            b.tearDownTrial();
        }
        assertTrue(Files.exists(data), "a file the trial did not create is left in place");
        assertThrows(IolabException.class, () -> BenchmarkNames.prepareDataFile(data, BYTES));
    }

    @Test
    void emptyDirUsesATemporaryWorkspace() {
        ReadBenchmark b = read("fis-array", "warm");
        b.dir = "";
        b.setupTrial();
        Path file;
        try {
            file = b.file();
            assertFalse(file.startsWith(dir));
            b.setupIteration();
            assertEquals(b.expected(), b.pass());
        } finally {
            b.tearDownTrial();
        }
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(file.getParent()), "the workspace folder is removed");
    }

    @Test
    void dataFileOfTheWrongSizeIsRefused() throws IOException {
        Files.write(dir.resolve(BenchmarkNames.dataFileName(BYTES)), new byte[10]);
        ReadBenchmark b = read("fis-array", "warm");
        IolabException e = assertThrows(IolabException.class, b::setupTrial);
        assertTrue(e.getMessage().contains("expected 262144"), e.getMessage());
    }

    @Test
    void corruptDataFileMakesPassThrowNamingTheParameters() throws IOException {
        ReadBenchmark b = read("fis-array", "warm");
        b.setupTrial();
        try {
            b.setupIteration();
            flipByte(b.file(), BYTES / 2);
            IllegalStateException e = assertThrows(IllegalStateException.class, b::pass);
            String m = e.getMessage();
            assertTrue(m.contains("checksum mismatch"), m);
            assertTrue(m.contains("method=fis-array"), m);
            assertTrue(m.contains("bufferSize=8k"), m);
            assertTrue(m.contains("fileSize=256k"), m);
            assertTrue(m.contains(String.format("%016x", b.expected())), m);
        } finally {
            b.tearDownTrial();
        }
    }

    @Test
    void corruptDataFileMakesProbeThrow() throws IOException {
        RandomAccessBenchmark b = random("raf-seek", "warm");
        b.setupTrial();
        try {
            b.setupIteration();
            flipByte(b.file(), 20000);
            IllegalStateException e = assertThrows(IllegalStateException.class, b::pass);
            assertTrue(e.getMessage().contains("method=raf-seek"), e.getMessage());
            assertTrue(e.getMessage().contains("stride=20000"), e.getMessage());
        } finally {
            b.tearDownTrial();
        }
    }

    @ParameterizedTest
    @MethodSource("writeIds")
    void everyWriteMethodWritesTheContent(String id) {
        for (String[] variant : new String[][] {{"none", "true"}, {"zero-fill", "false"}, {"fallocate", "true"}}) {
            WriteBenchmark b = write(id, variant[0], variant[1]);
            b.setupTrial();
            try {
                for (int i = 0; i < 2; i++) {
                    b.setupIteration();
                    assertEquals(BYTES, b.pass());
                    b.tearDownIteration();
                }
                assertTrue(Files.exists(b.file()));
            } finally {
                b.tearDownTrial();
            }
            assertFalse(Files.exists(b.file()), "the written file is deleted at the end of the trial");
        }
    }

    @Test
    void badWriteIsCaughtAtIterationTearDown() throws IOException {
        WriteBenchmark b = write("channel-heap-write", "none", "false");
        b.setupTrial();
        try {
            b.setupIteration();
            b.pass();
            flipByte(b.file(), 7);
            IllegalStateException e = assertThrows(IllegalStateException.class, b::tearDownIteration);
            assertTrue(e.getMessage().contains("method=channel-heap-write"), e.getMessage());
            assertTrue(e.getMessage().contains("fileSize=256k"), e.getMessage());
            b.setupIteration();
            b.pass();
            try (FileChannel ch = FileChannel.open(b.file(), StandardOpenOption.WRITE)) {
                ch.truncate(BYTES - 1);
            }
            e = assertThrows(IllegalStateException.class, b::tearDownIteration);
            assertTrue(e.getMessage().contains("wrong file size"), e.getMessage());
        } finally {
            b.tearDownTrial();
        }
    }

    @ParameterizedTest
    @MethodSource("randomIds")
    void everyRandomAccessMethodProbes(String id) {
        for (String cache : new String[] {"warm", "cold"}) {
            RandomAccessBenchmark b = random(id, cache);
            b.setupTrial();
            try {
                assertEquals(Content.DEFAULT.checksumAt(BenchmarkNames.probePositions(BYTES, 20000, 3), 3),
                        b.expected());
                b.setupIteration();
                if (cache.equals("cold")) {
                    assertTrue(PageCache.residency(b.file()).fraction() <= PageCache.COLD_TOLERANCE);
                }
                assertEquals(b.expected(), b.pass(), id + " " + cache);
            } finally {
                b.tearDownTrial();
            }
        }
    }

    @Test
    void badParametersAreNamed() {
        ReadBenchmark r = read("no-such-method", "warm");
        assertTrue(assertThrows(IolabException.class, r::setupTrial).getMessage().contains("no-such-method"));
        ReadBenchmark r2 = read("fis-array", "warm");
        r2.bufferSize = "0";
        assertTrue(assertThrows(IolabException.class, r2::setupTrial).getMessage().contains("bufferSize"));
        ReadBenchmark r3 = read("fis-array", "warm");
        r3.fileSize = "lots";
        assertTrue(assertThrows(IolabException.class, r3::setupTrial).getMessage().contains("fileSize"));
        ReadBenchmark r4 = read("fis-array", "tepid");
        assertTrue(assertThrows(IolabException.class, r4::setupTrial).getMessage().contains("cache"));
        ReadBenchmark r5 = read("fis-array", "cold");
        r5.evict = "magic";
        assertTrue(assertThrows(IolabException.class, r5::setupTrial).getMessage().contains("evict"));
        ReadBenchmark r6 = read("fis-array", "warm");
        r6.dir = dir.resolve("missing").toString();
        assertTrue(assertThrows(IolabException.class, r6::setupTrial).getMessage().contains("dir"));
        WriteBenchmark w = write("channel-heap-write", "sometimes", "true");
        assertTrue(assertThrows(IolabException.class, w::setupTrial).getMessage().contains("preallocation"));
        WriteBenchmark w2 = write("channel-heap-write", "none", "maybe");
        assertTrue(assertThrows(IolabException.class, w2::setupTrial).getMessage().contains("sync"));
        WriteBenchmark w3 = write("fis-array", "none", "true");
        assertThrows(IolabException.class, w3::setupTrial, "a read method is not a write method");
        RandomAccessBenchmark a = random("raf-seek", "warm");
        a.stride = "0";
        assertTrue(assertThrows(IolabException.class, a::setupTrial).getMessage().contains("stride"));
        RandomAccessBenchmark a2 = random("raf-seek", "warm");
        a2.length = SIZE;
        assertTrue(assertThrows(IolabException.class, a2::setupTrial).getMessage().contains("length"));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count(), "failed setups leave nothing behind");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void flipByte(Path file, long position) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, position);
            one.flip();
            one.put(0, (byte) ~one.get(0));
            ch.write(one, position);
        }
    }
}
