package org.iolab.cli;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import org.iolab.Sizes;
import org.iolab.report.analysis.StoreTargets;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.Stats;

/** The store's part of the summary {@code iolab bench} prints: by durability and phase, fastest first. */
final class StoreTable {
    private StoreTable() {
    }

    /**
     * @param store the store measurements of the results file ({@code ResultSet.store()})
     * @param out where
     */
    static void print(List<Measurement> store, PrintStream out) {
        List<Measurement> of = store.stream().filter(m -> !m.passes().isEmpty())
                .sorted(Comparator.comparing((Measurement m) -> StoreTargets.order(m.durability()))
                        .thenComparing(Comparator.comparingLong(Measurement::records).reversed())
                        .thenComparing(m -> StoreTargets.PHASES.indexOf(m.phase()))
                        .thenComparingDouble(m -> m.stats().median())).toList();
        if (of.isEmpty()) {
            return;
        }
        out.println();
        out.println("STORE (Bruno's employee workload, ms per phase, lower is better)");
        out.printf("  %-16s %-10s %9s %-9s %12s  %-25s %10s %4s%n", "engine", "durability", "records", "phase",
                "median", "min-max", "size", "runs");
        for (Measurement m : of) {
            Stats s = m.stats();
            out.printf("  %-16s %-10s %9d %-9s %12s  %-25s %10s %4d%n", m.method(), m.durability(), m.records(),
                    m.phase(), StoreTargets.ms(s.median()), StoreTargets.ms(s.min()) + " - " + StoreTargets.ms(s.max()),
                    m.fileSize() > 0 ? Sizes.format(m.fileSize()) : "-", s.n());
        }
    }
}
