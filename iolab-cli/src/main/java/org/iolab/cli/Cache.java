package org.iolab.cli;

import java.util.List;
import java.util.Locale;
import org.iolab.IolabException;

/** Page-cache state a read or random-access point runs in. */
enum Cache {
    /** The file is in the page cache. */
    WARM,
    /** The file's pages are evicted before each pass. */
    COLD;

    /** @return the benchmark parameter value */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text {@code warm}, {@code cold} or {@code both}
     * @return the states it names
     */
    static List<Cache> parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "warm" -> List.of(WARM);
            case "cold" -> List.of(COLD);
            case "both" -> List.of(WARM, COLD);
            default -> throw new IolabException("bad --cache '" + text + "': expected warm, cold or both");
        };
    }
}
