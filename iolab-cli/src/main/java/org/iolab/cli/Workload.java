package org.iolab.cli;

import java.util.Locale;
import org.iolab.IolabException;

/** What {@code --workload} measures: the catalogue's file methods, the journal, or both. */
enum Workload {
    /** The catalogue's reads, writes and random access (the default). */
    FILE,
    /** iolab's journal: appends, replay, latency, next to Chronicle Queue and fio. */
    JOURNAL,
    /** Both. */
    ALL;

    /** @return whether the file methods run */
    boolean files() {
        return this != JOURNAL;
    }

    /** @return whether the journal runs */
    boolean journal() {
        return this != FILE;
    }

    /**
     * @param text {@code file}, {@code journal} or {@code all}
     * @return the workload
     * @throws IolabException naming the value when it is none of these
     */
    static Workload parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "file", "files" -> FILE;
            case "journal" -> JOURNAL;
            case "all" -> ALL;
            default -> throw new IolabException("bad --workload '" + text + "': expected file, journal or all");
        };
    }
}
