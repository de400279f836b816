package org.iolab.bench;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.iolab.IolabException;
import org.iolab.content.Content;

/**
 * What a launcher needs to run iolab's JMH benchmarks: their names, their parameter names, the name of the
 * data files they read, and how to prepare one ahead of time.
 */
public final class BenchmarkNames {
    /** The whole-file read benchmark, {@link ReadBenchmark#pass()}. */
    public static final String READ = "org.iolab.bench.ReadBenchmark.pass";
    /** The whole-file write benchmark, {@link WriteBenchmark#pass()}. */
    public static final String WRITE = "org.iolab.bench.WriteBenchmark.pass";
    /** The seek-versus-skip benchmark, {@link RandomAccessBenchmark#pass()}. */
    public static final String RANDOM = "org.iolab.bench.RandomAccessBenchmark.pass";
    /** The journal append benchmark, {@link JournalAppendBenchmark#append(AppendedBytes)}. */
    public static final String JOURNAL_APPEND = "org.iolab.bench.JournalAppendBenchmark.append";
    /** The journal replay benchmark, {@link JournalReplayBenchmark#pass()}. */
    public static final String JOURNAL_REPLAY = "org.iolab.bench.JournalReplayBenchmark.pass";
    /** The journal write-then-sync benchmark, {@link JournalBulkBenchmark#pass()}. */
    public static final String JOURNAL_BULK = "org.iolab.bench.JournalBulkBenchmark.pass";
    /**
     * The employee store benchmark, {@link org.iolab.bench.store.StoreBenchmark#phase}: one phase of Bruno's
     * workload per pass; secondary result {@code sizeBytes}.
     */
    public static final String STORE = "org.iolab.bench.store.StoreBenchmark.phase";
    /**
     * The Chronicle Queue peer of {@link #JOURNAL_APPEND}, {@link ChronicleAppendBenchmark#append}
     * (parameters {@code recordSize} and {@code dir}).
     */
    public static final String CHRONICLE_APPEND = "org.iolab.bench.ChronicleAppendBenchmark.append";
    /**
     * The Chronicle Queue peer of {@link #JOURNAL_REPLAY}, {@link ChronicleReplayBenchmark#pass()}
     * (parameters {@code records}, {@code recordSize} and {@code dir}).
     */
    public static final String CHRONICLE_REPLAY = "org.iolab.bench.ChronicleReplayBenchmark.pass";

    /** Parameter (all benchmarks): catalogue method id. */
    public static final String PARAM_METHOD = "method";
    /** Parameter (read, write): buffer size, a size string. */
    public static final String PARAM_BUFFER_SIZE = "bufferSize";
    /** Parameter (all benchmarks): file size, a size string. */
    public static final String PARAM_FILE_SIZE = "fileSize";
    /** Parameter (read, random): {@code warm} or {@code cold}. */
    public static final String PARAM_CACHE = "cache";
    /** Parameter (read, random): {@code fadvise} or {@code drop-caches}. */
    public static final String PARAM_EVICT = "evict";
    /** Parameter (all benchmarks): folder for the files, or empty for a temporary one. */
    public static final String PARAM_DIR = "dir";
    /** Parameter (write): {@code none}, {@code zero-fill} or {@code fallocate}. */
    public static final String PARAM_PREALLOC = "prealloc";
    /** Parameter (write): {@code true} or {@code false}. */
    public static final String PARAM_SYNC = "sync";
    /** Parameter (random): distance between offsets, a size string. */
    public static final String PARAM_STRIDE = "stride";
    /** Parameter (random): bytes read at each offset, a size string. */
    public static final String PARAM_LENGTH = "length";

    /** Most offsets one random-access pass may probe (their array must fit the benchmark's heap). */
    public static final int MAX_PROBES = 1 << 26;

    private BenchmarkNames() {
    }

    /**
     * @param benchmark one of the benchmark names above, e.g. {@link #READ}
     * @return a JMH include pattern matching exactly that benchmark
     */
    public static String includePattern(String benchmark) {
        return "^" + Pattern.quote(benchmark) + "$";
    }

    /**
     * @param size file size in bytes
     * @return the name of the data file the read and random-access benchmarks look for in their
     *     {@code dir}: {@code read-<size>.dat}
     */
    public static String dataFileName(long size) {
        return DataFiles.readFileName(size);
    }

    /**
     * Writes a new data file: {@code size} bytes of {@link Content#DEFAULT}, synced, written under a
     * temporary name ({@code <name>.part}) and renamed, so a file of the final name is always complete.
     * Checks the free space first.
     *
     * @param file the file to create; it must not exist
     * @param size bytes to write
     * @throws IolabException when the file exists, space is short, or the write fails
     */
    public static void prepareDataFile(Path file, long size) {
        if (size < 0) {
            throw new IolabException("bad data file size " + size + ": must not be negative");
        }
        DataFiles.write(file, size);
    }

    /**
     * The offsets the random-access benchmark probes: {@code 0, stride, 2*stride, ...} while below
     * {@code fileSize - length}.
     *
     * @param fileSize file size in bytes
     * @param stride distance between offsets, at least 1
     * @param length bytes read at each offset, at least 1
     * @return the offsets, ascending, at least one
     * @throws IolabException naming the parameter when there would be no offset or too many
     */
    public static long[] probePositions(long fileSize, long stride, int length) {
        if (stride < 1) {
            throw new IolabException("bad stride " + stride + ": must be at least 1 byte");
        }
        if (length < 1) {
            throw new IolabException("bad length " + length + ": must be at least 1 byte");
        }
        long limit = fileSize - length;
        if (limit <= 0) {
            throw new IolabException("bad length " + length + ": must be less than fileSize " + fileSize);
        }
        long count = (limit - 1) / stride + 1;
        if (count > MAX_PROBES) {
            throw new IolabException("bad stride " + stride + ": it makes " + count + " offsets in a file of "
                    + fileSize + " bytes, more than " + MAX_PROBES + "; use a larger stride");
        }
        long[] positions = new long[(int) count];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = i * stride;
        }
        return positions;
    }
}
