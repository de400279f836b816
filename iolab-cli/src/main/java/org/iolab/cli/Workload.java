package org.iolab.cli;

import java.util.Locale;
import org.iolab.IolabException;

/** What {@code --workload} measures: the catalogue's file methods, the journal, the record store, or all. */
enum Workload {
    /** The catalogue's reads, writes and random access (the default). */
    FILE,
    /** iolab's journal: appends, replay, latency, next to Chronicle Queue and fio. */
    JOURNAL,
    /** iolab's record store: Bruno's employee workload next to the embedded peers. */
    STORE,
    /** All three. */
    ALL;

    /** @return whether the file methods run */
    boolean files() {
        return this == FILE || this == ALL;
    }

    /** @return whether the journal runs */
    boolean journal() {
        return this == JOURNAL || this == ALL;
    }

    /** @return whether the store runs */
    boolean store() {
        return this == STORE || this == ALL;
    }

    /**
     * @param text {@code file}, {@code journal}, {@code store} or {@code all}
     * @return the workload
     * @throws IolabException naming the value when it is none of these
     */
    static Workload parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "file", "files" -> FILE;
            case "journal" -> JOURNAL;
            case "store" -> STORE;
            case "all" -> ALL;
            default -> throw new IolabException("bad --workload '" + text + "': expected file, journal, store or all");
        };
    }
}
