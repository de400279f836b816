package org.iolab.report.analysis;

import java.util.Locale;

/** How the analysis prints throughputs and ratios, so every sentence uses the same units. */
public final class Rates {
    private Rates() {
    }

    /**
     * @param v a throughput
     * @param unit {@code B/s}, or a count per second such as {@code probes/s} or {@code appends/s}
     * @return e.g. {@code 1.23 GB/s}, {@code 456 MB/s}, {@code 829 k probes/s}, {@code 4.05 k appends/s}, {@code -}
     *     for NaN
     */
    public static String format(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if ("B/s".equals(unit)) {
            if (v >= 1e9) {
                return String.format(Locale.ROOT, v >= 10e9 ? "%.1f GB/s" : "%.2f GB/s", v / 1e9);
            }
            if (v >= 1e6) {
                return String.format(Locale.ROOT, v >= 100e6 ? "%.0f MB/s" : v >= 10e6 ? "%.1f MB/s" : "%.2f MB/s",
                        v / 1e6);
            }
            return String.format(Locale.ROOT, "%.1f kB/s", v / 1e3);
        }
        String u = unit == null || unit.isEmpty() ? "probes/s" : unit;
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M %s", v / 1e6, u);
        }
        if (v >= 1e3) {
            return String.format(Locale.ROOT, v >= 100e3 ? "%.0f k %s" : v >= 10e3 ? "%.1f k %s" : "%.2f k %s",
                    v / 1e3, u);
        }
        return String.format(Locale.ROOT, "%.0f %s", v, u);
    }

    /**
     * @param r a ratio of two medians
     * @return e.g. {@code 2.05x}, {@code 12.3x}, {@code 2530x}
     */
    public static String ratio(double r) {
        if (Double.isNaN(r) || Double.isInfinite(r)) {
            return "-";
        }
        if (r >= 100) {
            return String.format(Locale.ROOT, "%.0fx", r);
        }
        if (r >= 10) {
            return String.format(Locale.ROOT, "%.1fx", r);
        }
        return String.format(Locale.ROOT, "%.2fx", r);
    }

    /**
     * @param percent a change in percent
     * @return e.g. {@code +3.2%}, {@code -41%}
     */
    public static String percent(double percent) {
        if (Double.isNaN(percent)) {
            return "-";
        }
        return String.format(Locale.ROOT, Math.abs(percent) >= 10 ? "%+.0f%%" : "%+.1f%%", percent);
    }
}
