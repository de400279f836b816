package org.iolab.cli;

import java.util.Set;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.Preallocation;

/**
 * A deliberately simple model of how long one pass takes, used to keep slow points (one system call per
 * byte, 1-byte buffers) within a time budget by shrinking their file, and to estimate the run time.
 *
 * <p>Per pass: bytes / bandwidth (5 GB/s warm, 1.4 GB/s cold, 2 GB/s for writes, 1 GB/s for synced
 * writes) + 1 us per system call (one per buffer, or one per byte for the unbuffered byte readers) + 5 ns
 * per byte for per-byte Java calls (20 ns per char for {@code Reader.read()}). Random access: 2 us per
 * probe warm (0.2 us mapped), 100 us cold.
 */
final class CostModel {
    /** Smallest file a point is shrunk to. */
    static final long MIN_FILE = 64 << 10;
    static final double WARM_BW = 5e9;
    static final double COLD_BW = 1.4e9;
    static final double WRITE_BW = 2e9;
    static final double SYNC_BW = 1e9;
    static final double SYSCALL = 1e-6;
    static final double PER_BYTE = 5e-9;
    static final double PER_CHAR = 20e-9;
    /** Starting a forked JVM, JMH set-up and tear-down. */
    static final double FORK_OVERHEAD = 0.8;
    /** Methods that make one system call per byte. */
    private static final Set<String> SYSCALL_PER_BYTE = Set.of("fis-byte", "raf-byte");

    private CostModel() {
    }

    /**
     * @param m the method
     * @param bench its benchmark
     * @param buffer buffer size
     * @param size file size
     * @param cache cache state (reads, random)
     * @param sync whether writes sync
     * @param stride probe stride (random)
     * @param length probe length (random)
     * @return estimated seconds for one pass
     */
    static double pass(MethodInfo m, Bench bench, int buffer, long size, Cache cache, boolean sync,
                       long stride, int length) {
        String id = m.id();
        boolean mapped = id.contains("mapped") || id.contains("segment");
        if (bench == Bench.RANDOM) {
            long probes = Point.probes(size, stride, length);
            double perProbe = cache == Cache.COLD ? 100e-6 : mapped ? 0.2e-6 : 2e-6;
            return probes * perProbe;
        }
        double bw = bench == Bench.WRITE ? (sync ? SYNC_BW : WRITE_BW) : cache == Cache.COLD ? COLD_BW : WARM_BW;
        double t = size / bw;
        if (SYSCALL_PER_BYTE.contains(id)) {
            t += size * SYSCALL;
        } else {
            int chunk = m.usesBuffer() ? Math.max(1, buffer) : 8192;
            double perCall = mapped ? 10e-9 : SYSCALL;
            t += Math.ceil((double) size / chunk) * perCall;
        }
        if (m.kind() == Kind.READ_CHARS && id.endsWith("-char")) {
            t += size * PER_CHAR;
        } else if (m.kind() == Kind.READ_CHARS) {
            t += size * 1e-9;
        } else if (id.contains("-byte") && !SYSCALL_PER_BYTE.contains(id)) {
            t += size * PER_BYTE;
        }
        return t;
    }

    /**
     * @param bench the benchmark
     * @param size file size
     * @param cache cache state
     * @param prealloc preallocation (writes)
     * @return estimated seconds of set-up around each pass (warming, evicting, preallocating)
     */
    static double setup(Bench bench, long size, Cache cache, Preallocation prealloc) {
        if (bench == Bench.WRITE) {
            return prealloc == Preallocation.ZERO_FILL ? size / SYNC_BW : 0.01;
        }
        return cache == Cache.COLD ? 0.02 + size / 20e9 : size / 10e9;
    }

    /**
     * The largest power of two (or {@code requested} itself) whose estimated pass fits {@code budget}
     * seconds, not below {@link #MIN_FILE} (nor above {@code requested}).
     *
     * @param requested the file size asked for
     * @param budget seconds per pass
     * @param cost estimated seconds for a pass over a file of the given size
     * @return the file size to use
     */
    static long fit(long requested, double budget, java.util.function.LongToDoubleFunction cost) {
        if (requested <= MIN_FILE || cost.applyAsDouble(requested) <= budget) {
            return requested;
        }
        long s = Long.highestOneBit(requested);
        if (s == requested) {
            s >>= 1;
        }
        while (s > MIN_FILE && cost.applyAsDouble(s) > budget) {
            s >>= 1;
        }
        return Math.max(s, MIN_FILE);
    }
}
