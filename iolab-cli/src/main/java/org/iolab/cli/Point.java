package org.iolab.cli;

import org.iolab.Sizes;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.Preallocation;

/**
 * One measured configuration: a method with all its benchmark parameters, how often it runs, and the
 * planner's time estimates.
 *
 * @param bench the JMH benchmark
 * @param method the catalogue method
 * @param bufferSize buffer size in bytes (0 for random access)
 * @param requestedSize the file size the profile or the user asked for
 * @param fileSize the file size actually used, at most {@code requestedSize} (see {@link CostModel})
 * @param cache page-cache state (reads and random access; null for writes)
 * @param prealloc preallocation (writes; null otherwise)
 * @param sync whether writes are made durable (writes)
 * @param stride bytes between probes (random access)
 * @param length bytes per probe (random access)
 * @param warmups warm-up passes per fork
 * @param runs measured passes per fork
 * @param forks JMH forks (0: in the iolab JVM)
 * @param passSeconds estimated seconds per pass
 * @param wallSeconds estimated seconds for the whole point, forks and set-up included
 */
record Point(Bench bench, MethodInfo method, int bufferSize, long requestedSize, long fileSize, Cache cache,
             Preallocation prealloc, boolean sync, long stride, int length, int warmups, int runs, int forks,
             double passSeconds, double wallSeconds) implements Task {

    /** @return the number of probes of a random-access pass, as the benchmark computes them */
    long probes() {
        return probes(fileSize, stride, length);
    }

    /**
     * @param fileSize file size
     * @param stride distance between probes
     * @param length bytes per probe
     * @return offsets {@code 0, stride, ...} below {@code fileSize - length}
     */
    static long probes(long fileSize, long stride, int length) {
        long limit = fileSize - length;
        return limit <= 0 ? 0 : (limit - 1) / stride + 1;
    }

    /** @return e.g. {@code fis-array buf=8 KiB size=256 MiB cold} */
    @Override
    public String describe() {
        StringBuilder b = new StringBuilder(method.id());
        if (bench != Bench.RANDOM && method.usesBuffer()) {
            b.append(" buf=").append(Sizes.format(bufferSize));
        }
        b.append(" size=").append(Sizes.format(fileSize));
        if (cache != null) {
            b.append(' ').append(cache.label());
        }
        if (bench == Bench.WRITE) {
            b.append(" prealloc=").append(prealloc.label()).append(" sync=").append(sync);
        }
        if (bench == Bench.RANDOM) {
            b.append(" stride=").append(stride);
        }
        return b.toString();
    }
}
