package org.iolab.cli;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import org.iolab.Sizes;
import org.iolab.report.analysis.Rates;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.Stats;

/** The journal's part of the summary {@code iolab bench} prints: appends, then replays, fastest first. */
final class JournalTable {
    private JournalTable() {
    }

    /**
     * @param journal the journal measurements of the results file ({@code ResultSet.journal()})
     * @param out where
     */
    static void print(List<Measurement> journal, PrintStream out) {
        for (boolean append : new boolean[] {true, false}) {
            List<Measurement> of = journal.stream().filter(m -> m.bench().append() == append && !m.passes().isEmpty())
                    .sorted(Comparator.comparingLong(Measurement::bufferSize)
                            .thenComparing(Comparator.comparingDouble((Measurement m) -> m.stats().median())
                                    .reversed())).toList();
            if (of.isEmpty()) {
                continue;
            }
            out.println();
            out.println(append ? "JOURNAL APPENDS" : "JOURNAL REPLAY (warm)");
            out.printf("  %-16s %-10s %8s %20s %12s  %-31s %4s%n", "journal", append ? "durability" : "records",
                    "record", "median", "MB/s", "min-max", "runs");
            for (Measurement m : of) {
                Stats s = m.stats();
                String who = m.bench().chronicle() ? "chronicle-queue" : m.method();
                String what = append ? (m.durability() == null ? "-" : m.durability()) : Long.toString(m.records());
                out.printf("  %-16s %-10s %8s %20s %12s  %-31s %4d%n", who, what, Sizes.format(m.bufferSize()),
                        Rates.format(s.median(), m.unit()), Rates.format(m.byteStats().median(), "B/s"),
                        Rates.format(s.min(), m.unit()) + " - " + Rates.format(s.max(), m.unit()), s.n());
            }
        }
    }
}
