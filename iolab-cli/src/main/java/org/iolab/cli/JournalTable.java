package org.iolab.cli;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import org.iolab.Sizes;
import org.iolab.report.analysis.Rates;
import org.iolab.report.model.Bench;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.Stats;

/**
 * The journal's part of the summary {@code iolab bench} prints: appends, then replays, then write-then-sync
 * passes, fastest first within a record size.
 */
final class JournalTable {
    private JournalTable() {
    }

    /**
     * @param journal the journal measurements of the results file ({@code ResultSet.journal()})
     * @param out where
     */
    static void print(List<Measurement> journal, PrintStream out) {
        for (String block : List.of("JOURNAL APPENDS", "JOURNAL REPLAY (warm)", "JOURNAL WRITE + SYNC")) {
            boolean append = block.equals("JOURNAL APPENDS");
            boolean bulk = block.equals("JOURNAL WRITE + SYNC");
            List<Measurement> of = journal.stream().filter(m -> !m.passes().isEmpty() && m.bench().append() == append
                            && (m.bench() == Bench.JOURNAL_BULK) == bulk)
                    .sorted(Comparator.comparingInt((Measurement m) -> bulk ? level(m.durability()) : 0)
                            .thenComparingLong(Measurement::bufferSize)
                            .thenComparing(Comparator.comparingDouble((Measurement m) -> m.stats().median())
                                    .reversed())).toList();
            if (of.isEmpty()) {
                continue;
            }
            out.println();
            out.println(block);
            if (bulk) {
                out.printf("  %-16s %-10s %8s %9s %20s %12s  %-23s %4s%n", "journal", "durability", "record",
                        "total", "median", "MB/s", "min-max (MB/s)", "runs");
            } else {
                out.printf("  %-16s %-10s %8s %20s %12s  %-31s %4s%n", "journal", append ? "durability" : "records",
                        "record", "median", "MB/s", "min-max", "runs");
            }
            for (Measurement m : of) {
                Stats s = m.stats();
                String who = m.bench().chronicle() ? "chronicle-queue" : m.method();
                if (bulk) {
                    Stats bytes = m.byteStats();
                    out.printf("  %-16s %-10s %8s %9s %20s %12s  %-23s %4d%n", who, m.durability(),
                            Sizes.format(m.bufferSize()), Sizes.format(m.fileSize()), Rates.format(s.median(),
                                    m.unit()), Rates.format(bytes.median(), "B/s"), Rates.format(bytes.min(), "B/s")
                                    + " - " + Rates.format(bytes.max(), "B/s"), s.n());
                    continue;
                }
                String what = append ? (m.durability() == null ? "-" : m.durability()) : Long.toString(m.records());
                out.printf("  %-16s %-10s %8s %20s %12s  %-31s %4d%n", who, what, Sizes.format(m.bufferSize()),
                        Rates.format(s.median(), m.unit()), Rates.format(m.byteStats().median(), "B/s"),
                        Rates.format(s.min(), m.unit()) + " - " + Rates.format(s.max(), m.unit()), s.n());
            }
        }
    }

    /** @return none before batch before always (and anything else after) */
    private static int level(String durability) {
        return switch (durability == null ? "" : durability) {
            case "none" -> 0;
            case "batch" -> 1;
            case "always" -> 2;
            default -> 3;
        };
    }
}
