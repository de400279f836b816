package org.iolab.bench;

import java.util.Locale;
import org.iolab.IolabException;
import org.iolab.Sizes;

/** Parses and checks the benchmarks' {@code @Param} strings; every message names the parameter. */
final class Params {
    /** Largest buffer or probe length accepted: 1 GiB (one array or buffer of it must fit the heap). */
    static final long MAX_BUFFER = 1L << 30;

    private Params() {
    }

    /**
     * @param text a size string such as {@code 64m}
     * @param name the parameter's name
     * @return the size in bytes, at least 1
     */
    static long fileSize(String text, String name) {
        return size(text, name, Long.MAX_VALUE);
    }

    /**
     * @param text a size string such as {@code 8k}
     * @param name the parameter's name
     * @return the size in bytes, between 1 and {@link #MAX_BUFFER}
     */
    static int bufferSize(String text, String name) {
        return (int) size(text, name, MAX_BUFFER);
    }

    /**
     * @param text a size string such as {@code 20000} or {@code 8k}
     * @param name the parameter's name
     * @param max the largest value accepted
     * @return the size in bytes, between 1 and {@code max}
     */
    static long size(String text, String name, long max) {
        long size = Sizes.parse(text, name);
        if (size < 1 || size > max) {
            throw new IolabException("bad " + name + " '" + text + "': must be at least 1 byte"
                    + (max == Long.MAX_VALUE ? "" : " and at most " + Sizes.format(max)));
        }
        return size;
    }

    /**
     * @param text {@code true} or {@code false}
     * @param name the parameter's name
     * @return the value
     */
    static boolean bool(String text, String name) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IolabException("bad " + name + " '" + text + "': expected true or false");
        };
    }

    /**
     * @param bytes a byte count
     * @return e.g. {@code "8192 (8 KiB)"}, for messages
     */
    static String bytes(long bytes) {
        return bytes + " (" + Sizes.format(bytes) + ")";
    }
}
