package org.iolab.report.model;

import java.util.List;

/**
 * A physical limit measured in the same run as the Java methods: a native C pass or a fio job.
 *
 * @param tool {@code c} or {@code fio}
 * @param operation e.g. {@code read}, {@code fread}, {@code mmap}, {@code write} (C), or
 *     {@code read-buffered}, {@code read-direct}, {@code write-buffered}, {@code write-direct} (fio)
 * @param blockSize buffer or block size in bytes (0 when it does not apply, e.g. mmap)
 * @param fileSize bytes per pass
 * @param cache {@code warm}, {@code cold}, or null for writes
 * @param passes throughput of each pass in B/s
 * @param checksum the pass's Checksum64 as 16 hex digits when the tool computes one (C), else null
 * @param note anything a reader must know (e.g. how cold was made)
 */
public record Limit(String tool, String operation, long blockSize, long fileSize, String cache,
                    List<Double> passes, String checksum, String note) {
    /** Copies the list (null stays null: a limits.json entry without passes, which {@code RunData} refuses). */
    public Limit {
        passes = passes == null ? null : List.copyOf(passes);
    }

    /** @return median, min and max of the passes */
    public Stats stats() {
        return Stats.of(passes);
    }
}
