package org.iolab.bench.store;

import java.util.Locale;
import org.iolab.IolabException;

/** The phases of the employee workload, in the order they run. */
public enum Phase {
    /** Put every employee, {@code 0 .. records-1}. */
    PUT,
    /** Scan every live record and decode it. */
    SCAN,
    /** Get every employee in a shuffled (fixed-seed) order and decode it. */
    GET,
    /** Delete every second employee (the odd numbers). */
    DELETE,
    /** Insert {@code records / 2} new employees, {@code records .. records + records/2 - 1}. */
    REINSERT,
    /** Open the closed store again (the close happens before, untimed) and read one record. */
    REOPEN;

    /** @return the lower-case name used as the {@code phase} parameter */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text a phase's label
     * @return the phase
     * @throws IolabException naming the parameter and the labels when unknown
     */
    public static Phase parse(String text) {
        for (Phase p : values()) {
            if (p.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IolabException("bad phase '" + text + "': expected put, scan, get, delete, reinsert or reopen");
    }
}
