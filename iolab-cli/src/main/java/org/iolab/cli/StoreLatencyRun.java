package org.iolab.cli;

import java.util.List;
import java.util.Locale;

/**
 * What the store workload measures after its JMH points: the per-put latency runs
 * ({@code org.iolab.bench.store.StoreLatency}, all points in one child JVM) and fio's 4 KiB write+fdatasync
 * rate of the device.
 *
 * @param points {@code ENGINE:LEVEL} entries, e.g. {@code iolab:always}; empty when no latency runs
 * @param puts puts recorded per point
 * @param warmup puts made first per point, not recorded
 * @param fioSeconds run time of each fio pass; 0 for no fio job
 * @param fioRuns fio passes
 */
record StoreLatencyRun(List<String> points, int puts, int warmup, int fioSeconds, int fioRuns) implements Task {
    /** Most bytes a fio pass writes: at 4 KiB per fdatasync even a fast SSD takes a few seconds for it. */
    static final long FIO_MAX_SIZE = 64L << 20;

    /** Copies the list. */
    StoreLatencyRun {
        points = List.copyOf(points);
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "store per-put latency %s puts=%d warmup=%d", String.join(",", points), puts,
                warmup);
    }

    /** @return the dry-run line of the fio job, or {@code null} when there is none */
    String describeFio() {
        return fioSeconds == 0 ? null : String.format(Locale.ROOT, "fio 4 KiB write+fdatasync (the device's synced"
                + " write rate) for %d s or %s, %d run(s)", fioSeconds, org.iolab.Sizes.format(FIO_MAX_SIZE), fioRuns);
    }

    /** @return estimated seconds of the child JVM alone */
    double latencySeconds() {
        if (points.isEmpty()) {
            return 0;
        }
        double s = StorePlan.FORK_OVERHEAD;
        for (String p : points) {
            boolean always = p.endsWith(":always");
            // the puts, then a get of each and a scan (the check)
            s += (puts + warmup) * ((always ? StorePlan.SYNC_SECONDS : StorePlan.RECORD_SECONDS)
                    + 2 * StorePlan.RECORD_SECONDS) + 0.2;
        }
        return s;
    }

    @Override
    public double wallSeconds() {
        return latencySeconds() + fioRuns * (fioSeconds + 0.2);
    }
}
