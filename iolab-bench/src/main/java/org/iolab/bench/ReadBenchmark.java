package org.iolab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.ReadMethod;
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
 * One whole-file read of a data file of {@link Content#DEFAULT} bytes by a catalogue {@link ReadMethod},
 * checked against the checksum the content formula predicts.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g",
    "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@State(Scope.Benchmark)
public class ReadBenchmark {
    /** Catalogue id of the read method. */
    @Param("fis-array")
    public String method;

    /** Buffer or array size, e.g. {@code 1}, {@code 8192}, {@code 8k}, {@code 128m}. */
    @Param("8k")
    public String bufferSize;

    /** Size of the file read, e.g. {@code 64m}. */
    @Param("64m")
    public String fileSize;

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

    private ReadMethod readMethod;
    private int buffer;
    private long size;
    private CachePrep cachePrep;
    private FileHome home;
    private Path file;
    private long expected;

    /** Creates the state; JMH sets the parameters. */
    public ReadBenchmark() {
    }

    /** Checks the parameters, finds or creates the data file and computes the expected checksum. */
    @Setup(Level.Trial)
    public void setupTrial() {
        readMethod = Catalogue.read(method);
        buffer = Params.bufferSize(bufferSize, "bufferSize");
        size = Params.fileSize(fileSize, "fileSize");
        cachePrep = new CachePrep(cache, evict);
        home = FileHome.open(dir);
        try {
            file = DataFiles.ensureReadFile(home, size);
            expected = Content.DEFAULT.checksum(size);
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
     * Reads the whole file once.
     *
     * @return the checksum of the bytes read
     * @throws IllegalStateException when it is not the expected one
     */
    @Benchmark
    public long pass() {
        long got;
        try {
            got = readMethod.read(file, buffer);
        } catch (IOException e) {
            throw IolabException.io("read (" + describe() + ")", file, e);
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
        return "method=" + method + " bufferSize=" + bufferSize + " fileSize=" + fileSize + " "
                + cachePrep.describe();
    }
}
