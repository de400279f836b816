package org.iolab.report.html;

import java.util.Locale;

/** How the report writes numbers and escapes text. */
final class Text {
    private Text() {
    }

    /**
     * @param s any text (null gives "")
     * @return it with {@code & < > " '} escaped, safe inside elements and quoted attributes
     */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    // XML 1.0 forbids most control characters; drop them so the page stays well-formed
                    if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /**
     * @param v a rate
     * @param unit {@code B/s} or {@code probes/s}
     * @return e.g. {@code 1.23 GB/s}, {@code 456 MB/s}, {@code 1.20 M probes/s}, {@code 12.3 k probes/s}
     */
    static String rate(double v, String unit) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if ("B/s".equals(unit)) {
            if (v >= 1e9) {
                return String.format(Locale.ROOT, "%.2f GB/s", v / 1e9);
            }
            return String.format(Locale.ROOT, v >= 100e6 ? "%.0f MB/s" : v >= 10e6 ? "%.1f MB/s" : "%.2f MB/s",
                    v / 1e6);
        }
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M probes/s", v / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f k probes/s", v / 1e3);
    }

    /**
     * @param x a ratio
     * @return e.g. {@code 0.93×}, {@code 12×}
     */
    static String times(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            return "-";
        }
        return String.format(Locale.ROOT, x >= 10 ? "%.0f×" : "%.2f×", x);
    }
}
