package org.iolab;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints byte counts the way iolab's users write them: {@code 1}, {@code 4k}, {@code 8KiB}, {@code 1g}. */
public final class Sizes {
    private static final Pattern SIZE =
            Pattern.compile("(\\d+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)?", Pattern.CASE_INSENSITIVE);
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Sizes() {
    }

    /**
     * @param text a size such as {@code 512}, {@code 8k}, {@code 8KiB}, {@code 1m}, {@code 2GiB}; units are
     *     powers of 1024
     * @param what the parameter's name, for the message
     * @return the size in bytes
     * @throws IolabException naming the parameter and the accepted forms when the text is not a size
     */
    public static long parse(String text, String what) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IolabException("bad " + what + " '" + text
                    + "': expected a number of bytes with an optional unit, e.g. 512, 8k, 8KiB, 64m, 1g");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IolabException("bad " + what + " '" + text + "': the number is too large");
        }
        String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
        int shift = switch (unit.charAt(0)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new IolabException("bad " + what + " '" + text + "': the size is too large");
        }
        return n << shift;
    }

    /**
     * @param bytes a byte count
     * @return it in the largest binary unit that keeps it exact when possible: {@code 8 KiB},
     *     {@code 1.5 GiB}, {@code 17 B}
     */
    public static String format(long bytes) {
        int u = 0;
        double v = bytes;
        while (u < UNITS.length - 1 && Math.abs(v) >= 1024) {
            v /= 1024;
            u++;
        }
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%d %s", (long) v, UNITS[u]);
        }
        return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
    }
}
