package org.iolab.report.model;

import java.util.List;
import org.iolab.Sizes;
import org.iolab.catalogue.Kind;

/**
 * One benchmark point of a results file: a method with its parameters and the throughput of every pass.
 *
 * <p>Journal measurements ({@link Bench#journal()}) reuse the fields: {@code method} is the storage backend
 * ({@code segment}, ...) or {@code chronicle}, {@code bufferSize} the record's payload size, {@code passes}
 * records per second ({@code appends/s} or {@code records/s}); {@link #byteStats()} gives payload bytes per
 * second. Replays and write-then-sync passes ({@link Bench#JOURNAL_BULK}) have {@code records} per pass and
 * {@code fileSize} = their payload bytes.
 *
 * <p>Store measurements ({@link Bench#store()}) reuse them too: {@code method} is the engine ({@code iolab},
 * {@code iolab-<backend>}, {@code lmdb}, ...), {@code passes} the phase's time in milliseconds (unit
 * {@code ms}: lower is better, unlike every other unit here), {@code fileSize} the store's size on disk after the
 * phase (JMH's mean of {@code sizeBytes}; 0 when not recorded), {@code bufferSize} the live key and value bytes
 * the workload holds after the phase (0 when the results file does not say), {@code records} the employees
 * put first, {@code durability} the level and {@code phase} the phase.
 *
 * @param bench which benchmark
 * @param method catalogue id
 * @param kind the method's kind (from the catalogue; {@code null} for an id this build does not know)
 * @param bufferSize buffer size in bytes; 0 for random access
 * @param usesBuffer whether the method's speed depends on the buffer size
 * @param fileSize file size in bytes
 * @param cache {@code warm} or {@code cold} for reads and random access, {@code null} for writes
 * @param prealloc preallocation of writes ({@code none}, {@code zero-fill}, {@code fallocate}), else null
 * @param sync whether a write pass ended with a sync
 * @param stride random access: bytes between probes, else 0
 * @param length random access: bytes read per probe, else 0
 * @param unit {@code B/s} or {@code probes/s}
 * @param passes measured throughput of every pass, in the order run (forks one after another)
 * @param warmups throughput of the warm-up passes, in order (empty when not recorded)
 * @param jdk the JDK version that ran it
 * @param durability journal appends and write-then-sync passes, store points: {@code none}, {@code batch} or
 *     {@code always}; null otherwise
 * @param records journal replay and write-then-sync passes: records per pass; store: employees put first; 0
 *     otherwise
 * @param phase store: {@code put}, {@code scan}, {@code get}, {@code delete}, {@code reinsert} or
 *     {@code reopen}; null otherwise
 */
public record Measurement(Bench bench, String method, Kind kind, long bufferSize, boolean usesBuffer,
                          long fileSize, String cache, String prealloc, boolean sync, long stride, int length,
                          String unit, List<Double> passes, List<Double> warmups, String jdk, String durability,
                          long records, String phase) {
    /** Copies the lists. */
    public Measurement {
        passes = List.copyOf(passes);
        warmups = List.copyOf(warmups);
    }

    /**
     * A measurement of a catalogue method or a journal (no phase).
     *
     * @param bench which benchmark
     * @param method catalogue id or journal backend
     * @param kind the method's kind
     * @param bufferSize buffer or record size in bytes
     * @param usesBuffer whether the buffer size matters
     * @param fileSize file size in bytes
     * @param cache warm or cold (null for writes)
     * @param prealloc preallocation of writes
     * @param sync whether a write pass synced
     * @param stride random access stride
     * @param length random access probe length
     * @param unit the unit of the passes
     * @param passes every pass
     * @param warmups the warm-up passes
     * @param jdk the JDK version
     * @param durability journal appends: the durability level
     * @param records journal replay: records per pass
     */
    public Measurement(Bench bench, String method, Kind kind, long bufferSize, boolean usesBuffer, long fileSize,
                       String cache, String prealloc, boolean sync, long stride, int length, String unit,
                       List<Double> passes, List<Double> warmups, String jdk, String durability, long records) {
        this(bench, method, kind, bufferSize, usesBuffer, fileSize, cache, prealloc, sync, stride, length, unit,
                passes, warmups, jdk, durability, records, null);
    }

    /**
     * A measurement of a catalogue method (no durability, no record count).
     *
     * @param bench which benchmark
     * @param method catalogue id
     * @param kind the method's kind
     * @param bufferSize buffer size in bytes
     * @param usesBuffer whether the buffer size matters
     * @param fileSize file size in bytes
     * @param cache warm or cold (null for writes)
     * @param prealloc preallocation of writes
     * @param sync whether a write pass synced
     * @param stride random access stride
     * @param length random access probe length
     * @param unit {@code B/s} or {@code probes/s}
     * @param passes throughput of every pass
     * @param warmups throughput of the warm-up passes
     * @param jdk the JDK version
     */
    public Measurement(Bench bench, String method, Kind kind, long bufferSize, boolean usesBuffer, long fileSize,
                       String cache, String prealloc, boolean sync, long stride, int length, String unit,
                       List<Double> passes, List<Double> warmups, String jdk) {
        this(bench, method, kind, bufferSize, usesBuffer, fileSize, cache, prealloc, sync, stride, length, unit,
                passes, warmups, jdk, null, 0, null);
    }

    /**
     * @return for a journal measurement, payload bytes per second of every pass (records/s × record size);
     *     otherwise the same as {@link #stats()}
     */
    public Stats byteStats() {
        if (!bench.journal()) {
            return stats();
        }
        return Stats.of(passes.stream().map(p -> p * bufferSize).toList());
    }

    /** @return median, min and max of the measured passes */
    public Stats stats() {
        return Stats.of(passes);
    }

    /** @return e.g. {@code fis-array 8 KiB 256 MiB cold} */
    public String label() {
        if (bench.store()) {
            return "store " + method + " " + phase + " " + durability + " x " + records;
        }
        if (bench.journal()) {
            StringBuilder j = new StringBuilder(bench.chronicle() ? "chronicle" : "journal " + method)
                    .append(bench.append() ? " append " : bench == Bench.JOURNAL_BULK ? " write+sync "
                            : " replay ").append(Sizes.format(bufferSize));
            if (durability != null) {
                j.append(' ').append(durability);
            }
            if (bench == Bench.JOURNAL_BULK) {
                j.append(' ').append(Sizes.format(fileSize));
            } else if (records > 0) {
                j.append(" x ").append(records);
            }
            return j.toString();
        }
        StringBuilder b = new StringBuilder(method);
        if (bench != Bench.RANDOM && usesBuffer) {
            b.append(' ').append(Sizes.format(bufferSize));
        }
        b.append(' ').append(Sizes.format(fileSize));
        if (cache != null) {
            b.append(' ').append(cache);
        }
        if (prealloc != null && !prealloc.equals("none")) {
            b.append(' ').append(prealloc);
        }
        if (sync) {
            b.append(" sync");
        }
        return b.toString();
    }

    /**
     * @return a key that is the same for the same method and parameters in two results files, for
     *     comparing runs
     */
    public String key() {
        if (bench.store()) {
            // a store point's file and buffer sizes are what it measured (size on disk, live data), not its setting
            return bench + "|" + method + "|" + durability + "|" + records + "|" + phase;
        }
        return bench + "|" + method + "|" + (usesBuffer ? bufferSize : 0) + "|" + fileSize + "|" + cache + "|"
                + prealloc + "|" + sync + "|" + stride + "|" + length
                + (bench.journal() ? "|" + durability + "|" + records : "");
    }
}
