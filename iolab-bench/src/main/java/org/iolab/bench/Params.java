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
        long size = Sizes.parse(text, name);
        if (size < 1) {
            throw new IolabException("bad " + name + " '" + text + "': a file needs at least 1 byte");
        }
        return size;
    }

    /**
     * @param text a size string such as {@code 8k}
     * @param name the parameter's name
     * @return the size in bytes, between 1 and {@link #MAX_BUFFER}
     */
    static int bufferSize(String text, String name) {
        long size = Sizes.parse(text, name);
        if (size < 1 || size > MAX_BUFFER) {
            throw new IolabException("bad " + name + " '" + text + "': must be between 1 byte and "
                    + Sizes.format(MAX_BUFFER));
        }
        return (int) size;
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
