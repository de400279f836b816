package org.iolab.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.iolab.checksum.Checksum64;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What checking a record costs against reading it: one pass of the JDK's CRC32C (the journal's and the store's
 * per-record check) and of {@link Checksum64} (the catalogue's read checksum) over {@code size} bytes in calls of
 * {@code chunk} bytes, from a heap array or from native memory. With {@code size} in the caches it is the CPU's
 * rate; larger, memory's. The score is the time of one pass (ms); GB/s = {@code size / (score × 1e6)}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class ChecksumRateBenchmark {
    /** Bytes per pass, e.g. {@code 1m} (in the caches) or {@code 64m}. */
    @Param({"1m", "64m"})
    public String size;

    /** Bytes per call (a record). */
    @Param("64k")
    public String chunk;

    private byte[] heap;
    private Arena arena;
    private MemorySegment nativeBytes;
    private int n;
    private int step;

    /** Creates the state; JMH sets the parameters. */
    public ChecksumRateBenchmark() {
    }

    /** Fills the heap array and the native copy. */
    @Setup(Level.Trial)
    public void setup() {
        n = (int) Params.size(size, "size", Integer.MAX_VALUE - 8);
        step = (int) Params.size(chunk, "chunk", n);
        heap = new byte[n];
        new java.util.SplittableRandom(7).nextBytes(heap);
        arena = Arena.ofShared();
        nativeBytes = arena.allocate(n, 4096);
        MemorySegment.copy(heap, 0, nativeBytes, ValueLayout.JAVA_BYTE, 0, n);
    }

    /** Frees the native copy. */
    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** @return the CRCs of the chunks of the heap array, folded */
    @Benchmark
    public int crc32cHeap() {
        CRC32C c = new CRC32C();
        int x = 0;
        for (int o = 0; o < n; o += step) {
            c.reset();
            c.update(heap, o, Math.min(step, n - o));
            x ^= (int) c.getValue();
        }
        return x;
    }

    /** @return the CRCs of the chunks of native memory (through direct buffers, as a mapped journal's), folded */
    @Benchmark
    public int crc32cNative() {
        CRC32C c = new CRC32C();
        ByteBuffer all = nativeBytes.asByteBuffer();
        int x = 0;
        for (int o = 0; o < n; o += step) {
            c.reset();
            c.update(all.limit(Math.min(n, o + step)).position(o));
            all.clear();
            x ^= (int) c.getValue();
        }
        return x;
    }

    /** @return the checksum of the heap array */
    @Benchmark
    public long checksum64Heap() {
        Checksum64 s = new Checksum64();
        for (int o = 0; o < n; o += step) {
            s.update(heap, o, Math.min(step, n - o));
        }
        return s.value();
    }

    /** @return the checksum of native memory */
    @Benchmark
    public long checksum64Native() {
        Checksum64 s = new Checksum64();
        for (int o = 0; o < n; o += step) {
            s.update(nativeBytes, o, Math.min(step, n - o));
        }
        return s.value();
    }
}
