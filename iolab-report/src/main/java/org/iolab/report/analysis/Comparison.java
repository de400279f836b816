package org.iolab.report.analysis;

import java.nio.file.Path;
import java.util.List;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;

/**
 * Several results files side by side: one row per benchmark point ({@link Measurement#key()}), one cell per
 * file. The first file is the baseline.
 *
 * @param files the results files, baseline first
 * @param rows one row per point found in any file, in the order first seen (baseline first)
 */
public record Comparison(List<Path> files, List<Row> rows) {
    /** Copies the lists. */
    public Comparison {
        files = List.copyOf(files);
        rows = List.copyOf(rows);
    }

    /** @return whether some point is in two files or more (else nothing was compared: only "missing" cells) */
    public boolean anyShared() {
        return rows.stream().anyMatch(r -> r.cells().stream().filter(c -> c.status() != Status.MISSING
                && c.status() != Status.NOT_MEASURED).count() > 1);
    }

    /**
     * One benchmark point across the files.
     *
     * @param key {@link Measurement#key()}
     * @param bench which benchmark
     * @param label {@link Measurement#label()} of the first file that has the point
     * @param unit {@code B/s} or {@code probes/s}
     * @param cells one per file, in the order of {@link Comparison#files()}
     */
    public record Row(String key, Bench bench, String label, String unit, List<Cell> cells) {
        /** Copies the list. */
        public Row {
            cells = List.copyOf(cells);
        }
    }

    /**
     * One point in one file.
     *
     * @param measurement the measurement, or null when the file lacks the point
     * @param median its median (NaN when missing)
     * @param changePercent median change against the baseline in percent (NaN for the baseline itself, a
     *     missing cell or a missing baseline)
     * @param status how the change compares with the spread of the passes
     */
    public record Cell(Measurement measurement, double median, double changePercent, Status status) {
    }

    /** How one cell relates to the baseline. */
    public enum Status {
        /** The cell is the baseline's own. */
        BASELINE("baseline"),
        /** The min–max ranges of the cell and the baseline are disjoint. */
        SIGNIFICANT("significant"),
        /** The ranges overlap: the change is within the run-to-run noise. */
        WITHIN_NOISE("within noise"),
        /**
         * A side has fewer than {@link org.iolab.report.model.Stats#MIN_PASSES} passes: no spread to judge the change
         * by (such changes were called "within noise", even +233% between two one-pass runs).
         */
        TOO_FEW_PASSES("too few passes to tell"),
        /** This file lacks the point. */
        MISSING("missing"),
        /** This file has the point but no measured pass (a run that failed or was stopped there). */
        NOT_MEASURED("not measured (no passes)"),
        /** The baseline lacks the point, so there is nothing to compare with. */
        NO_BASELINE("no baseline");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        /** @return how tables print it */
        public String label() {
            return label;
        }
    }
}
