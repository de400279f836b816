package org.iolab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.iolab.IolabException;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.Preallocation;
import org.iolab.catalogue.WriteMethod;
import org.iolab.content.Content;
import org.iolab.os.FileSpace;
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
 * One whole-file write of {@link Content#DEFAULT} bytes by a catalogue {@link WriteMethod}; after each
 * pass the file is read back and checked (outside the measured time).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g",
    "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@State(Scope.Benchmark)
public class WriteBenchmark {
    /** Catalogue id of the write method. */
    @Param("channel-heap-write")
    public String method;

    /** Buffer or array size, e.g. {@code 1}, {@code 8192}, {@code 8k}, {@code 128m}. */
    @Param("8k")
    public String bufferSize;

    /** Size of the file written, e.g. {@code 64m}. */
    @Param("64m")
    public String fileSize;

    /** How the file is prepared before each pass: {@code none}, {@code zero-fill} or {@code fallocate}. */
    @Param("none")
    public String prealloc;

    /** {@code true}: the method makes the data durable before returning; {@code false}: it does not. */
    @Param("true")
    public String sync;

    /**
     * Folder the file {@code write-<method>-<bytes>.dat} is written in (and deleted from at the end of the
     * trial); empty for a temporary folder in {@code java.io.tmpdir}.
     */
    @Param("")
    public String dir;

    private WriteMethod writeMethod;
    private int buffer;
    private long size;
    private Preallocation preallocation;
    private boolean durable;
    private FileHome home;
    private Path file;

    /** Creates the state; JMH sets the parameters. */
    public WriteBenchmark() {
    }

    /** Checks the parameters and the free space. */
    @Setup(Level.Trial)
    public void setupTrial() {
        writeMethod = Catalogue.write(method);
        buffer = Params.bufferSize(bufferSize, "bufferSize");
        size = Params.fileSize(fileSize, "fileSize");
        preallocation = Preallocation.parse(prealloc);
        durable = Params.bool(sync, "sync");
        home = FileHome.open(dir);
        try {
            FileSpace.requireFree(home.dir(), size, "the write benchmark");
            file = home.file("write-" + writeMethod.info().id() + "-" + size + ".dat");
            home.created(file);
        } catch (RuntimeException e) {
            home.close();
            throw e;
        }
    }

    /**
     * Recreates the file as {@code prealloc} says. Before that, for {@code mapped-write}, a collection: a
     * {@code MappedByteBuffer} stays mapped until it is collected (the JDK has no public unmap), so the file the last
     * pass wrote would keep its blocks on disk after the delete, one file's worth per pass until a GC.
     */
    @Setup(Level.Iteration)
    public void setupIteration() {
        if (MAPPED_WRITE.equals(writeMethod.info().id())) {
            System.gc();
        }
        preallocation.prepare(file, size);
    }

    /** The write method whose mappings outlive its call. */
    private static final String MAPPED_WRITE = "mapped-write";

    /**
     * Writes the whole file once.
     *
     * @return the number of bytes written
     */
    @Benchmark
    public long pass() {
        try {
            writeMethod.write(file, size, buffer, Content.DEFAULT, durable);
        } catch (IOException e) {
            throw IolabException.io("write (" + describe() + ")", file, e);
        }
        return size;
    }

    /** Checks the size and checksum of what the pass wrote. */
    @TearDown(Level.Iteration)
    public void tearDownIteration() {
        DataFiles.verifyWritten(file, size, describe());
    }

    /** Deletes the file and the temporary folder. */
    @TearDown(Level.Trial)
    public void tearDownTrial() {
        if (home != null) {
            home.close();
            home = null;
        }
    }

    /** @return the file written (for tests) */
    Path file() {
        return file;
    }

    private String describe() {
        return "method=" + method + " bufferSize=" + bufferSize + " fileSize=" + fileSize + " prealloc=" + prealloc
                + " sync=" + sync;
    }
}
