package org.iolab.report.limits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.iolab.IolabException;
import org.iolab.content.Content;
import org.iolab.journal.JournalOptions;
import org.iolab.report.model.Limit;

/**
 * Measures the physical limits at the end of {@code iolab bench}: the C baseline when a C compiler is
 * installed, fio when it is installed, over the same data file and sizes as the Java methods. What cannot
 * be measured (no compiler or fio, a compile failure, a filesystem refusing O_DIRECT, a file that cannot be
 * evicted, short space) becomes a note for the report; a wrong checksum is an error.
 */
public final class LimitsRunner {
    /** Note when no C compiler is found. */
    public static final String NO_COMPILER = "no C compiler (cc/gcc/clang) found: C baseline skipped;"
            + " install gcc to see how close Java gets to C";
    /** Note when fio is not installed. */
    public static final String NO_FIO = "fio not installed: fio baseline skipped; apt-get install fio";
    /** Note when fio is not installed and the journal workload ran. */
    public static final String NO_FIO_JOURNAL = "fio not installed: the journal's fio comparators skipped;"
            + " apt-get install fio";
    /** Note when fio is not installed and the store workload ran. */
    public static final String NO_FIO_STORE = "fio not installed: the device's 4 KiB write+fdatasync rate beside the"
            + " store not measured; apt-get install fio";
    /** Cache states the C read passes run in. */
    public static final List<String> CACHES = List.of("warm", "cold");

    private LimitsRunner() {
    }

    /**
     * The limits measured and what a reader must know about what was not.
     *
     * @param limits C and fio limits
     * @param notes why a baseline or a part of one is missing
     */
    public record Result(List<Limit> limits, List<String> notes) {
        /** Copies the lists. */
        public Result {
            limits = List.copyOf(limits);
            notes = List.copyOf(notes);
        }
    }

    /**
     * Runs the baselines.
     *
     * @param workDir a writable folder on the benchmark filesystem: the C program is built there, and the
     *     write passes and fio's file go there (all deleted afterwards)
     * @param dataFile the read benchmarks' data file, {@code fileSize} bytes of {@link Content#DEFAULT}
     * @param fileSize its size
     * @param bufferSizes buffer (block) sizes, as for the Java methods
     * @param runs passes per operation
     * @return the limits and notes
     * @throws NativeBaseline.WrongChecksumException when a C pass returns a wrong checksum (the data file is
     *     not what it should be)
     * @throws IolabException when the arguments are bad
     */
    public static Result measure(Path workDir, Path dataFile, long fileSize, List<Long> bufferSizes, int runs) {
        if (runs < 1) {
            throw new IolabException("bad runs " + runs + " for the baselines: must be at least 1");
        }
        if (!Files.isDirectory(workDir)) {
            throw new IolabException("the baselines' work folder " + workDir + " does not exist; create it");
        }
        List<Limit> limits = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        cBaseline(workDir, dataFile, fileSize, bufferSizes, runs, limits, notes);
        if (Fio.available()) {
            try {
                limits.addAll(Fio.measure(workDir, fileSize, bufferSizes, runs, notes::add));
            } catch (IolabException e) {
                notes.add("fio baseline skipped: " + e.getMessage());
            }
        } else {
            notes.add(NO_FIO);
        }
        return new Result(limits, notes);
    }

    /**
     * Runs the journal's fio comparators ({@link Fio#measureJournal}): sequential buffered writes with the
     * block size equal to each record size, without and with an fdatasync at the journal's BATCH cadence
     * ({@link JournalOptions#batchBytes()} of {@link JournalOptions#defaults()}).
     *
     * @param workDir a writable folder on the benchmark filesystem (fio's file is deleted afterwards)
     * @param fileSize bytes per pass
     * @param recordSizes the journal's record sizes
     * @param runs passes per job
     * @return the limits and notes (a note instead of limits when fio is missing)
     */
    public static Result measureJournal(Path workDir, long fileSize, List<Long> recordSizes, int runs) {
        List<Limit> limits = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (!Fio.available()) {
            notes.add(NO_FIO_JOURNAL);
            return new Result(limits, notes);
        }
        try {
            limits.addAll(Fio.measureJournal(workDir, fileSize, recordSizes,
                    JournalOptions.defaults().batchBytes(), runs, notes::add));
        } catch (IolabException e) {
            notes.add("fio journal comparators skipped: " + e.getMessage());
        }
        return new Result(limits, notes);
    }

    /**
     * Measures the device's 4 KiB write+fdatasync rate beside the store ({@link Fio#measureDeviceSync}).
     *
     * @param workDir a writable folder on the benchmark filesystem (fio's file is deleted afterwards)
     * @param maxSize most bytes per pass
     * @param seconds run time per pass
     * @param runs passes
     * @return the limit and notes (a note instead of the limit when fio is missing or failed)
     */
    public static Result measureStore(Path workDir, long maxSize, int seconds, int runs) {
        List<Limit> limits = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (!Fio.available()) {
            notes.add(NO_FIO_STORE);
            return new Result(limits, notes);
        }
        try {
            Fio.measureDeviceSync(workDir, maxSize, seconds, runs, n -> notes.add("store: " + n))
                    .ifPresent(limits::add);
        } catch (IolabException e) {
            notes.add("fio's 4 KiB write+fdatasync beside the store skipped: " + e.getMessage());
        }
        return new Result(limits, notes);
    }

    private static void cBaseline(Path workDir, Path dataFile, long fileSize, List<Long> bufferSizes, int runs,
                                  List<Limit> limits, List<String> notes) {
        Optional<Path> cc = NativeBaseline.compiler();
        if (cc.isEmpty()) {
            notes.add(NO_COMPILER);
            return;
        }
        Path buildDir;
        try {
            buildDir = Files.createTempDirectory(workDir, "iolab-native-");
        } catch (IOException e) {
            notes.add("C baseline skipped: cannot create a build folder in " + workDir + ": " + e.getMessage());
            return;
        }
        try {
            Path binary;
            try {
                binary = NativeBaseline.build(buildDir);
            } catch (IolabException e) {
                notes.add("C baseline skipped: " + e.getMessage());
                return;
            }
            try {
                limits.addAll(NativeBaseline.measure(binary, dataFile, fileSize, bufferSizes, CACHES, runs));
            } catch (NativeBaseline.WrongChecksumException e) {
                throw e;
            } catch (IolabException e) {
                notes.add("C baseline read passes skipped: " + e.getMessage());
            }
            try {
                limits.addAll(NativeBaseline.measureWrite(binary, workDir, fileSize, bufferSizes, runs));
            } catch (NativeBaseline.WrongChecksumException e) {
                throw e;
            } catch (IolabException e) {
                notes.add("C baseline write passes skipped: " + e.getMessage());
            }
        } finally {
            deleteTree(buildDir);
        }
    }

    private static void deleteTree(Path dir) {
        for (String name : List.of(NativeBaseline.SOURCE, NativeBaseline.BINARY)) {
            try {
                Files.deleteIfExists(dir.resolve(name));
            } catch (IOException e) {
                // left behind; reported below if the folder stays
            }
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            System.err.println("iolab: could not delete " + dir + ": " + e.getMessage());
        }
    }
}
