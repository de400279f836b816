package org.iolab.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.catalogue.Catalogue;

/** Parses the comma lists of the command line. */
final class Options {
    private Options() {
    }

    /**
     * @param text comma-separated sizes, e.g. {@code 1,8k,1m}
     * @param option the option's name, for messages
     * @param max the largest size allowed
     * @return the sizes in bytes, each at least 1, in the order given, without duplicates
     */
    static List<Long> sizes(String text, String option, long max) {
        Set<Long> out = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new IolabException("bad " + option + " '" + text + "': empty entry in the comma list");
            }
            if (p.startsWith("-")) {
                throw new IolabException("bad " + option + " '" + p + "': a size must be at least 1 byte");
            }
            long v = Sizes.parse(p, option);
            if (v < 1) {
                throw new IolabException("bad " + option + " '" + p + "': a size must be at least 1 byte");
            }
            if (v > max) {
                // in bytes too: a limit just under a round size reads as that size ("at most 256.0 MiB" for 256m)
                throw new IolabException("bad " + option + " '" + p + "': at most " + Sizes.format(max)
                        + (max % 1024 != 0 ? " (" + max + " bytes; this is " + v + ")" : ""));
            }
            out.add(v);
        }
        return new ArrayList<>(out);
    }

    /**
     * @param text comma-separated catalogue ids
     * @return the ids, lower-case, checked against the catalogue
     */
    static List<String> methods(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String id = part.trim().toLowerCase(Locale.ROOT);
            if (id.isEmpty()) {
                throw new IolabException("bad --methods '" + text + "': empty entry in the comma list");
            }
            if (Catalogue.find(id).isEmpty()) {
                throw Catalogue.unknown(id);
            }
            out.add(id);
        }
        return new ArrayList<>(out);
    }
}
