package org.iolab.report.limits;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.iolab.IolabException;
import org.iolab.checksum.Checksum64;
import org.iolab.content.Content;
import org.iolab.os.FileSpace;
import org.iolab.os.PageCache;
import org.iolab.report.model.Limit;

/**
 * The C baseline: {@code native/iolab_native.c}, shipped inside this jar, compiled with the machine's C
 * compiler and run over the same data file as the Java methods. Every pass computes the same
 * {@link org.iolab.checksum.Checksum64} as the Java side and is checked against
 * {@link Content#DEFAULT}, so a fast but wrong pass can never become a baseline.
 */
public final class NativeBaseline {
    /** {@link Limit#tool()} of every C limit. */
    public static final String TOOL = "c";
    /** {@link Limit#note()} of cold passes. */
    public static final String COLD_NOTE = "posix_fadvise(DONTNEED), checked with mincore";
    /** The C source's resource name, next to this class. */
    static final String SOURCE = "iolab_native.c";
    /** The compiled program's file name. */
    static final String BINARY = "iolab-native";
    /** Compilers looked for on the PATH, in order. */
    static final List<String> COMPILERS = List.of("cc", "gcc", "clang");

    private static final ObjectMapper JSON = new ObjectMapper();

    private NativeBaseline() {
    }

    /**
     * A C pass returned bytes that are not iolab's content: the data file is damaged or not an iolab data
     * file. Unlike other failures of the baseline, this one must stop the run.
     */
    public static final class WrongChecksumException extends IolabException {
        private static final long serialVersionUID = 1L;

        /** @param message names the mode, the file, the buffer and both checksums */
        public WrongChecksumException(String message) {
            super(message);
        }
    }

    /** @return the first of {@code cc}, {@code gcc}, {@code clang} found on the PATH */
    public static Optional<Path> compiler() {
        for (String name : COMPILERS) {
            Optional<Path> found = Processes.onPath(name);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /**
     * Extracts the embedded C source into {@code workDir} and compiles it: {@code cc -O2 -o
     * workDir/iolab-native workDir/iolab_native.c}.
     *
     * @param workDir an existing, writable folder
     * @return the compiled program
     * @throws IolabException when no compiler is found, the source is missing from the jar, or the
     *     compiler fails (the message holds the compiler's output)
     */
    public static Path build(Path workDir) {
        Path cc = compiler().orElseThrow(() -> new IolabException(
                "no C compiler (cc, gcc or clang) on the PATH: install gcc to build the C baseline"));
        Path source = workDir.resolve(SOURCE);
        Path binary = workDir.resolve(BINARY);
        try (InputStream in = NativeBaseline.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IolabException("the C baseline source org/iolab/report/limits/" + SOURCE
                        + " is missing from the iolab-report jar; rebuild iolab with ./mvnw install");
            }
            Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw IolabException.io("extract the C baseline source to", source, e);
        }
        List<String> command = List.of(cc.toString(), "-O2", "-o", binary.toString(), source.toString());
        Processes.Output out = Processes.run(command, "the C compiler");
        if (out.exitCode() != 0 || !Files.isExecutable(binary)) {
            throw new IolabException("the C compiler failed to build the C baseline (" + String.join(" ", command)
                    + ", exit " + out.exitCode() + "):\n" + out.both()
                    + "\nfix the compiler installation (e.g. apt-get install gcc libc6-dev), or run without"
                    + " the C baseline");
        }
        return binary;
    }

    /**
     * Runs the read passes: for each cache state and buffer size, {@code read} and {@code fread} passes,
     * and once per cache state an {@code mmap} pass (block size 0), {@code runs} times each. Before each
     * pass the file is made warm ({@link PageCache#warm}) or cold ({@link PageCache#evict}).
     *
     * @param binary the program from {@link #build(Path)}
     * @param dataFile a file of {@code fileSize} bytes of {@link Content#DEFAULT}
     * @param fileSize its size in bytes
     * @param bufferSizes buffer sizes in bytes, each at least 1
     * @param caches {@code warm} and/or {@code cold}
     * @param runs passes per operation, at least 1
     * @return one limit per operation, buffer size and cache state, in the order run
     * @throws WrongChecksumException when a pass returns a wrong checksum (naming mode, file and buffer)
     * @throws IolabException when a pass fails or an argument is out of range
     */
    public static List<Limit> measure(Path binary, Path dataFile, long fileSize, List<Long> bufferSizes,
                                      List<String> caches, int runs) {
        checkRuns(runs);
        checkBuffers(bufferSizes);
        for (String cache : caches) {
            if (!cache.equals("warm") && !cache.equals("cold")) {
                throw new IolabException("bad cache state '" + cache + "' for the C baseline: use warm or cold");
            }
        }
        if (!Files.isRegularFile(dataFile)) {
            throw new IolabException("the C baseline's data file " + dataFile + " does not exist;"
                    + " prepare it first (BenchmarkNames.prepareDataFile)");
        }
        String expected = hex(Content.DEFAULT.checksum(fileSize));
        Map<String, List<Double>> passes = new LinkedHashMap<>();
        Map<String, Limit> shape = new LinkedHashMap<>();
        for (String cache : caches) {
            String note = cache.equals("cold") ? COLD_NOTE : "";
            for (long buffer : bufferSizes) {
                for (int r = 0; r < runs; r++) {
                    for (String mode : List.of("read", "fread")) {
                        double bps = pass(binary, dataFile, fileSize, mode, buffer, cache, expected);
                        String key = mode + "/" + buffer + "/" + cache;
                        passes.computeIfAbsent(key, k -> new ArrayList<>()).add(bps);
                        shape.putIfAbsent(key, new Limit(TOOL, mode, buffer, fileSize, cache, List.of(), expected,
                                note));
                    }
                }
            }
            for (int r = 0; r < runs; r++) {
                double bps = pass(binary, dataFile, fileSize, "mmap", 0, cache, expected);
                String key = "mmap/0/" + cache;
                passes.computeIfAbsent(key, k -> new ArrayList<>()).add(bps);
                shape.putIfAbsent(key, new Limit(TOOL, "mmap", 0, fileSize, cache, List.of(), expected, note));
            }
        }
        return collect(shape, passes);
    }

    /** Operation of a C write pass that ends with {@code fdatasync}. */
    public static final String WRITE = "write";
    /** Operation of a C write pass left in the page cache (no sync), the match for unsynced Java writes. */
    public static final String WRITE_NOSYNC = "write-nosync";

    /**
     * Runs the write passes: mode {@code write} creates a new file of {@code fileSize} bytes of
     * {@link Content#DEFAULT} in {@code dir}, written in chunks of each buffer size and then
     * {@code fdatasync}ed, {@code runs} times per buffer size. The file is deleted before each pass and at
     * the end.
     *
     * @param binary the program from {@link #build(Path)}
     * @param dir the folder to write in (the benchmark folder, so the same filesystem is measured)
     * @param fileSize bytes per pass
     * @param bufferSizes buffer sizes in bytes, each at least 1
     * @param runs passes per buffer size, at least 1
     * @return one limit per buffer size, cache null
     * @throws WrongChecksumException when a pass writes other bytes than iolab's content
     * @throws IolabException when space is short or a pass fails
     */
    public static List<Limit> measureWrite(Path binary, Path dir, long fileSize, List<Long> bufferSizes, int runs) {
        checkRuns(runs);
        checkBuffers(bufferSizes);
        FileSpace.requireFree(dir, fileSize, "the C baseline's write passes");
        String expected = hex(Content.DEFAULT.checksum(fileSize));
        Path file = dir.resolve("iolab-native-write-" + fileSize + ".dat");
        List<Limit> limits = new ArrayList<>();
        try {
            for (String mode : List.of(WRITE, WRITE_NOSYNC)) {
                for (long buffer : bufferSizes) {
                    List<Double> passes = new ArrayList<>();
                    for (int r = 0; r < runs; r++) {
                        delete(file);
                        List<String> command = List.of(binary.toString(), mode, file.toString(),
                                Long.toString(buffer), Long.toString(fileSize));
                        passes.add(throughput(run(command, mode, file, buffer), mode, file, buffer, fileSize,
                                expected));
                        // the program's checksum is of the buffers it wrote: the file itself is read back, as the
                        // Java writes are, so a pass that left other bytes never becomes a baseline
                        readBack(file, fileSize, expected, mode, buffer);
                    }
                    limits.add(new Limit(TOOL, mode, buffer, fileSize, null, passes, expected,
                            mode.equals(WRITE) ? "ends with fdatasync" : "page cache only, no sync"));
                }
            }
        } finally {
            delete(file);
        }
        return List.copyOf(limits);
    }

    private static double pass(Path binary, Path file, long fileSize, String mode, long buffer, String cache,
                               String expected) {
        if (cache.equals("cold")) {
            PageCache.evict(file);
        } else {
            PageCache.warm(file);
        }
        List<String> command = mode.equals("mmap")
                ? List.of(binary.toString(), mode, file.toString())
                : List.of(binary.toString(), mode, file.toString(), Long.toString(buffer));
        return throughput(run(command, mode, file, buffer), mode, file, buffer, fileSize, expected);
    }

    private static JsonNode run(List<String> command, String mode, Path file, long buffer) {
        Processes.Output out = Processes.run(command, "the C baseline");
        if (out.exitCode() != 0) {
            throw new IolabException("the C baseline failed: mode " + mode + " on " + file + " with buffer "
                    + buffer + " (exit " + out.exitCode() + "): " + out.both());
        }
        String line = out.stdout().strip();
        try {
            JsonNode node = JSON.readTree(line);
            if (node == null || !node.isObject() || !node.hasNonNull("checksum") || !node.hasNonNull("bytes")
                    || !node.hasNonNull("seconds")) {
                throw new IolabException("the C baseline (mode " + mode + ", file " + file + ", buffer " + buffer
                        + ") printed no result line: '" + line + "'; rebuild it from this iolab version");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IolabException("the C baseline (mode " + mode + ", file " + file + ", buffer " + buffer
                    + ") printed unreadable JSON: '" + line + "'; rebuild it from this iolab version", e);
        }
    }

    /** @throws WrongChecksumException when {@code file} is not {@code fileSize} bytes of iolab's content */
    private static void readBack(Path file, long fileSize, String expected, String mode, long buffer) {
        long size;
        String got;
        try {
            size = Files.size(file);
            got = hex(Checksum64.of(file));
        } catch (IOException e) {
            throw IolabException.io("read back the C baseline's write", file, e);
        }
        if (size != fileSize || !got.equals(expected)) {
            throw new WrongChecksumException("C baseline " + mode + " with " + buffer + "-byte buffers left " + size
                    + " bytes in " + file + " with checksum " + got + " (expected " + fileSize + " bytes, checksum "
                    + expected + "): the pass is not a baseline");
        }
    }

    /**
     * Checks a pass's result line and turns it into a throughput.
     *
     * @return bytes per second
     */
    static double throughput(JsonNode node, String mode, Path file, long buffer, long fileSize, String expected) {
        String checksum = node.get("checksum").asText();
        long bytes = node.get("bytes").asLong();
        double seconds = node.get("seconds").asDouble();
        if (!checksum.equalsIgnoreCase(expected) || bytes != fileSize) {
            throw new WrongChecksumException(String.format(Locale.ROOT,
                    "wrong checksum from the C baseline: mode %s, file %s, buffer %d: got %s over %d bytes,"
                            + " expected %s over %d bytes of iolab's content; the file is damaged or not an"
                            + " iolab data file: delete it so it is written again", mode, file, buffer, checksum,
                    bytes, expected, fileSize));
        }
        return bytes == 0 ? 0 : bytes / Math.max(seconds, 1e-9);
    }

    /**
     * @param value a checksum
     * @return it as 16 lower-case hex digits, as the C baseline prints it
     */
    static String hex(long value) {
        return String.format("%016x", value);
    }

    private static List<Limit> collect(Map<String, Limit> shape, Map<String, List<Double>> passes) {
        List<Limit> limits = new ArrayList<>();
        shape.forEach((key, l) -> limits.add(new Limit(l.tool(), l.operation(), l.blockSize(), l.fileSize(),
                l.cache(), passes.get(key), l.checksum(), l.note())));
        return List.copyOf(limits);
    }

    private static void checkRuns(int runs) {
        if (runs < 1) {
            throw new IolabException("bad runs " + runs + " for the C baseline: must be at least 1");
        }
    }

    private static void checkBuffers(List<Long> bufferSizes) {
        for (long b : bufferSizes) {
            if (b < 1 || b > (1L << 31)) {
                throw new IolabException("bad buffer size " + b + " for the C baseline: must be 1 byte to 2 GiB");
            }
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw IolabException.io("delete", file, e);
        }
    }
}
