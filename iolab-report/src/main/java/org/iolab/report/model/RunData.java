package org.iolab.report.model;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.IolabException;

/**
 * Everything a report is made from: {@code results.json} and, beside it, {@code machine.json} (facts about
 * the machine), {@code limits.json} (native and fio baselines), {@code journal-latency.json} (the journal's
 * latency runs), {@code store-latency.json} (the store's per-put latency runs) and {@code store-compaction.json} (the
 * store's sizes before and after compaction), when present.
 *
 * @param results the measurements
 * @param machine facts about the machine (empty when machine.json is missing)
 * @param limits physical limits measured in the same run (empty when limits.json is missing)
 * @param notes why a part is missing, for the report (e.g. "no C compiler: C baseline skipped")
 * @param latency the journal's latency runs (empty when journal-latency.json is missing)
 * @param putLatency the store's per-put latency runs (empty when store-latency.json is missing)
 * @param compaction the store's sizes before and after compaction (empty when store-compaction.json is missing)
 */
public record RunData(ResultSet results, List<Fact> machine, List<Limit> limits, List<String> notes,
                      List<Latency> latency, List<PutLatency> putLatency, List<StoreCompaction> compaction) {
    /** File name of the machine facts beside results.json. */
    public static final String MACHINE_FILE = "machine.json";
    /** File name of the physical limits beside results.json. */
    public static final String LIMITS_FILE = "limits.json";
    /** File name of the notes beside results.json. */
    public static final String NOTES_FILE = "notes.json";
    /** File name of the journal latency runs beside results.json. */
    public static final String LATENCY_FILE = "journal-latency.json";
    /** File name of the store's per-put latency runs beside results.json. */
    public static final String PUT_LATENCY_FILE = "store-latency.json";
    /** File name of the store's compaction sizes beside results.json. */
    public static final String COMPACTION_FILE = "store-compaction.json";

    /** Copies the lists. */
    public RunData {
        machine = List.copyOf(machine);
        limits = List.copyOf(limits);
        notes = List.copyOf(notes);
        latency = List.copyOf(latency);
        putLatency = List.copyOf(putLatency);
        compaction = List.copyOf(compaction);
    }

    /**
     * A run without the store's compaction sizes.
     *
     * @param results the measurements
     * @param machine facts about the machine
     * @param limits physical limits
     * @param notes why a part is missing
     * @param latency the journal's latency runs
     * @param putLatency the store's per-put latency runs
     */
    public RunData(ResultSet results, List<Fact> machine, List<Limit> limits, List<String> notes,
                   List<Latency> latency, List<PutLatency> putLatency) {
        this(results, machine, limits, notes, latency, putLatency, List.of());
    }

    /**
     * A run without the store's per-put latency runs.
     *
     * @param results the measurements
     * @param machine facts about the machine
     * @param limits physical limits
     * @param notes why a part is missing
     * @param latency the journal's latency runs
     */
    public RunData(ResultSet results, List<Fact> machine, List<Limit> limits, List<String> notes,
                   List<Latency> latency) {
        this(results, machine, limits, notes, latency, List.of(), List.of());
    }

    /**
     * A run without journal latency runs.
     *
     * @param results the measurements
     * @param machine facts about the machine
     * @param limits physical limits
     * @param notes why a part is missing
     */
    public RunData(ResultSet results, List<Fact> machine, List<Limit> limits, List<String> notes) {
        this(results, machine, limits, notes, List.of(), List.of(), List.of());
    }

    /**
     * @param resultsJson a results.json
     * @return it and its sibling files
     */
    public static RunData load(Path resultsJson) {
        ResultSet results = ResultSet.load(resultsJson);
        Path dir = resultsJson.toAbsolutePath().getParent();
        List<Fact> machine = read(dir.resolve(MACHINE_FILE), new TypeReference<List<Fact>>() { });
        List<Limit> limits = read(dir.resolve(LIMITS_FILE), new TypeReference<List<Limit>>() { });
        List<String> notes = read(dir.resolve(NOTES_FILE), new TypeReference<List<String>>() { });
        List<Latency> latency = read(dir.resolve(LATENCY_FILE), new TypeReference<List<Latency>>() { });
        List<PutLatency> putLatency = read(dir.resolve(PUT_LATENCY_FILE), new TypeReference<List<PutLatency>>() { });
        List<StoreCompaction> compaction = read(dir.resolve(COMPACTION_FILE),
                new TypeReference<List<StoreCompaction>>() { });
        return new RunData(results, machine, limits, notes, latency, putLatency, compaction);
    }

    /**
     * Writes machine.json, limits.json and notes.json into {@code dir}, journal-latency.json when the run has
     * journal latency runs, store-latency.json when it has per-put latency runs of the store and
     * store-compaction.json when it has the store's compaction sizes.
     *
     * @param dir the results folder
     */
    public void writeSiblings(Path dir) {
        write(dir.resolve(MACHINE_FILE), machine);
        write(dir.resolve(LIMITS_FILE), limits);
        write(dir.resolve(NOTES_FILE), notes);
        if (!latency.isEmpty()) {
            write(dir.resolve(LATENCY_FILE), latency);
        }
        if (!putLatency.isEmpty()) {
            write(dir.resolve(PUT_LATENCY_FILE), putLatency);
        }
        if (!compaction.isEmpty()) {
            write(dir.resolve(COMPACTION_FILE), compaction);
        }
    }

    private static <T> List<T> read(Path file, TypeReference<List<T>> type) {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            List<T> list = ResultSet.JSON.readValue(file.toFile(), type);
            if (list == null) {
                throw new IolabException(file + " holds null, not a list; delete it or re-run ./iolab bench");
            }
            for (int i = 0; i < list.size(); i++) {
                String missing = missing(list.get(i));
                if (missing != null) {
                    throw new IolabException(file + ": entry " + i + " has no " + missing + "; delete the file or"
                            + " re-run ./iolab bench");
                }
            }
            return list;
        } catch (IOException e) {
            throw new IolabException(file + " cannot be read (" + e.getMessage().lines().findFirst().orElse("")
                    + "); delete it or re-run ./iolab bench", e);
        }
    }

    /** @return the first field {@code entry} needs and lacks ("value" for a null entry), or null */
    private static String missing(Object entry) {
        return switch (entry) {
            case null -> "value";
            case Fact f -> f.name() == null ? "name" : f.value() == null ? "value" : null;
            case Limit l -> l.tool() == null ? "tool" : l.operation() == null ? "operation"
                    : l.passes() == null ? "passes"
                    : l.passes().stream().anyMatch(v -> v == null || !(v >= 0) || v.isInfinite()) ? "valid passes"
                    : null;
            case Latency l -> l.mode() == null ? "mode" : l.backend() == null ? "backend"
                    : l.durability() == null ? "durability" : null;
            case PutLatency l -> l.engine() == null ? "engine" : l.durability() == null ? "durability"
                    : l.mode() == null ? "mode" : null;
            case StoreCompaction c -> c.invalid();
            default -> null;
        };
    }

    private static void write(Path file, Object value) {
        try {
            WholeFile.write(file, out -> ResultSet.JSON.writerWithDefaultPrettyPrinter().writeValue(out, value));
        } catch (IOException e) {
            throw IolabException.io("write", file, e);
        }
    }
}
