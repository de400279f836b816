package org.iolab.cli;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.iolab.Sizes;
import org.iolab.report.analysis.JournalTargets;
import org.iolab.report.analysis.Rates;
import org.iolab.report.analysis.StoreTargets;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.PutLatency;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.Stats;

/**
 * The store's part of the summary {@code iolab bench} prints: by durability and phase, fastest first; then the
 * per-put latency runs and the device's 4 KiB write+fdatasync rate.
 */
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
                        .thenComparing(m -> ResultSet.STORE_PHASES.indexOf(m.phase()))
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

    /**
     * @param latency the per-put latency runs ({@code RunData.putLatency()})
     * @param limits the run's limits (the fio device job among them, when measured)
     * @param measured whether the run had a fio device job planned (else no DEVICE line is printed)
     * @param out where
     */
    static void printLatency(List<PutLatency> latency, List<Limit> limits, boolean measured, PrintStream out) {
        Optional<Limit> device = StoreTargets.deviceSync(limits);
        if (!latency.isEmpty()) {
            out.println();
            out.println("STORE PUT LATENCY (one put after another; put: call to return, durable: call to durable)");
            out.printf("  %-16s %-10s %-8s %6s %16s %10s %10s %10s %10s %9s%n", "engine", "durability", "latency",
                    "puts", "puts/s", "p50", "p99", "p99.9", "max", "vs device");
            List<PutLatency> rows = latency.stream().sorted(Comparator
                    .comparing((PutLatency l) -> StoreTargets.order(l.durability()))
                    .thenComparing(l -> StoreTargets.iolab(l.engine()) ? 0 : 1).thenComparing(PutLatency::engine)
                    .thenComparing(l -> PutLatency.PUT.equals(l.mode()) ? 0 : 1)).toList();
            for (PutLatency l : rows) {
                boolean vs = PutLatency.PUT.equals(l.mode()) && "always".equals(l.durability());
                out.printf("  %-16s %-10s %-8s %6d %16s %10s %10s %10s %10s %9s%n", l.engine(), l.durability(),
                        l.mode(), l.puts(), Rates.format(l.putsPerSecond(), "puts/s"),
                        JournalTargets.micros(l.p50Nanos()), JournalTargets.micros(l.p99Nanos()),
                        JournalTargets.micros(l.p999Nanos()), JournalTargets.micros(l.maxNanos()),
                        device.filter(d -> vs).map(d -> Rates.ratio(l.putsPerSecond() / StoreTargets.deviceRate(d)))
                                .orElse("-"));
            }
        }
        if (device.isPresent()) {
            Limit d = device.get();
            Stats s = d.stats();
            out.println("DEVICE: fio 4 KiB write+fdatasync " + Rates.format(StoreTargets.deviceRate(d), "writes/s")
                    + " (" + Rates.format(s.min() / d.blockSize(), "writes/s") + " - " + Rates.format(s.max()
                    / d.blockSize(), "writes/s") + ", " + s.n() + " run" + (s.n() == 1 ? "" : "s") + ")");
        } else if (measured) {
            out.println("DEVICE: fio 4 KiB write+fdatasync not measured (fio not installed, or --no-limits; see the"
                    + " report's notes)");
        }
    }
}
