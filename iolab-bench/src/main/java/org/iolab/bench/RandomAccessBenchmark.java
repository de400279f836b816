package org.iolab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.RandomAccessMethod;
import org.iolab.content.Content;
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
 * Fisher's seek versus skip: a catalogue {@link RandomAccessMethod} reads {@code length} bytes at every
 * {@code stride}-th offset of a data file of {@link Content#DEFAULT} bytes, checked against the checksum
 * the content formula predicts.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g",
    "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@State(Scope.Benchmark)
public class RandomAccessBenchmark {
    /** Catalogue id of the random-access method. */
    @Param("raf-seek")
    public String method;

    /** Size of the file probed, e.g. {@code 64m}. */
    @Param("64m")
    public String fileSize;

    /** Distance between probed offsets: 0, stride, 2*stride, ... while below fileSize - length. */
    @Param("20000")
    public String stride;

    /** Bytes read at each offset. */
    @Param("1")
    public String length;

    /** {@code warm} (file read once before each pass) or {@code cold} (evicted before each pass). */
    @Param("warm")
    public String cache;

    /** How a cold file is evicted: {@code fadvise} (per file) or {@code drop-caches} (everything, root). */
    @Param("fadvise")
    public String evict;

    /**
     * Folder holding the data file {@code read-<bytes>.dat}; empty for a temporary folder in
     * {@code java.io.tmpdir}, deleted at the end of the trial.
     */
    @Param("")
    public String dir;

    private RandomAccessMethod probeMethod;
    private long size;
    private int probeLength;
    private long[] positions;
    private CachePrep cachePrep;
    private FileHome home;
    private Path file;
    private long expected;

    /** Creates the state; JMH sets the parameters. */
    public RandomAccessBenchmark() {
    }

    /** Checks the parameters, finds or creates the data file, and computes the offsets and expected checksum. */
    @Setup(Level.Trial)
    public void setupTrial() {
        probeMethod = Catalogue.randomAccess(method);
        size = Params.fileSize(fileSize, "fileSize");
        probeLength = Params.bufferSize(length, "length");
        positions = BenchmarkNames.probePositions(size, Params.size(stride, "stride", Long.MAX_VALUE), probeLength);
        cachePrep = new CachePrep(cache, evict);
        home = FileHome.open(dir);
        try {
            file = DataFiles.ensureReadFile(home, size);
            expected = Content.DEFAULT.checksumAt(positions, probeLength);
        } catch (RuntimeException e) {
            home.close();
            throw e;
        }
    }

    /** Warms or evicts the data file. */
    @Setup(Level.Iteration)
    public void setupIteration() {
        cachePrep.apply(file);
    }

    /**
     * Reads the bytes at every offset once.
     *
     * @return the checksum of the bytes read
     * @throws IllegalStateException when it is not the expected one
     */
    @Benchmark
    public long pass() {
        long got;
        try {
            got = probeMethod.probe(file, positions, probeLength);
        } catch (IOException e) {
            throw IolabException.io("probe (" + describe() + ")", file, e);
        }
        return DataFiles.requireChecksum(expected, got, describe(), file);
    }

    /** Deletes the data file if this trial created it, and the temporary folder. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        if (home != null) {
            home.close();
            home = null;
        }
    }

    /** @return the data file (for tests) */
    Path file() {
        return file;
    }

    /** @return the checksum a correct pass returns (for tests) */
    long expected() {
        return expected;
    }

    private String describe() {
        return "method=" + method + " fileSize=" + fileSize + " stride=" + stride + " length=" + length
                + " probes=" + positions.length + " " + cachePrep.describe();
    }
}
