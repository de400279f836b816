package org.iolab.cli;

import java.util.Locale;
import org.iolab.storage.Durability;

/**
 * One measured store configuration: a phase of Bruno's employee workload on one engine.
 *
 * @param engine engine name ({@code iolab}, {@code iolab-<backend>}, {@code lmdb}, ...)
 * @param durability the durability level
 * @param phase {@code put}, {@code scan}, {@code get}, {@code delete}, {@code reinsert} or {@code reopen}
 * @param records employees put in the first phase
 * @param warmups warm-up passes per fork
 * @param runs measured passes per fork
 * @param forks JMH forks
 * @param passSeconds estimated seconds of one pass, its untimed set-up included
 * @param wallSeconds estimated seconds for the whole point
 */
record StorePoint(String engine, Durability durability, String phase, int records, int warmups, int runs,
                  int forks, double passSeconds, double wallSeconds) implements Task {

    @Override
    public String describe() {
        return "store " + engine + " " + phase + " durability=" + durabilityParam() + " records=" + records;
    }

    /** @return the durability as the benchmark parameter, e.g. {@code batch} */
    String durabilityParam() {
        return durability.name().toLowerCase(Locale.ROOT);
    }
}
