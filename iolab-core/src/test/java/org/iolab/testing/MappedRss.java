package org.iolab.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** How much of a file this process has mapped in, from {@code /proc/self/smaps}. */
public final class MappedRss {
    private static final Pattern VMA = Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

    private MappedRss() {
    }

    /**
     * @param file a file
     * @return bytes of the file's pages that this process's mappings of it hold (the {@code Rss} of its mappings),
     *     -1 when no mapping of it exists
     */
    public static long of(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String name = file.toAbsolutePath().toString();
        long total = -1;
        boolean in = false;
        for (String line : lines) {
            if (VMA.matcher(line).lookingAt()) {
                in = line.endsWith(" " + name);
            } else if (in && line.startsWith("Rss:")) {
                long kb = Long.parseLong(line.substring(4, line.length() - 3).trim());
                total = Math.max(total, 0) + kb * 1024;
            }
        }
        return total;
    }
}
