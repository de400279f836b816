package org.iolab.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.iolab.IolabException;
import org.iolab.bench.store.Employee;
import org.iolab.bench.store.EmployeeCodec;
import org.iolab.bench.store.EmployeeWorkload;
import org.iolab.bench.store.Engines;
import org.iolab.bench.store.Phase;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

/**
 * The store workload of {@code iolab bench --workload store|all}: which engines, durability levels, phases and
 * record counts each profile runs through Bruno's employee workload ({@code StoreBenchmark}), and how the
 * user's {@code --engines}, {@code --phases}, {@code --records} and {@code --durability} change them.
 */
final class StorePlan {
    /** Bruno's employee count. */
    static final int BRUNO_RECORDS = 100_000;
    /** Records at ALWAYS in quick and full: every put, delete and reinsert waits for an fsync. */
    static final int ALWAYS_RECORDS = 2000;
    /** Starting a forked JVM with the peers' libraries and encoding the employees (measured: about 1.6 s). */
    static final double FORK_OVERHEAD = 2.0;
    /**
     * Estimated seconds per record and phase at NONE and BATCH, averaged over the engines (measured: quick's 96
     * points took 4 min 48 s at four passes each, where 6 µs had estimated 20 min).
     */
    static final double RECORD_SECONDS = 1.5e-6;
    /** Estimated seconds of one fsync'ed write at ALWAYS. */
    static final double SYNC_SECONDS = 5e-4;
    /** The engines whose durability levels sync (iolab's store and these peers get per-put latency runs). */
    static final List<String> SYNCED_PEERS = List.of("sqlite", "rocksdb", "lmdb");
    /** Puts recorded per engine and level by the per-put latency runs of quick and seeds. */
    static final int LATENCY_PUTS = 2000;
    /** Estimated bytes on disk per record, at most (the largest peer's size is well below). */
    static final long BYTES_PER_RECORD = 512;

    private StorePlan() {
    }

    /**
     * Every engine in {@code engines} at every durability and phase.
     *
     * @param engines engine names
     * @param durabilities durability levels
     * @param phases phase labels
     * @param records employees put first at NONE and BATCH
     * @param alwaysRecords employees put first at ALWAYS (every write waits for an fsync)
     */
    record Block(List<String> engines, List<Durability> durabilities, List<String> phases, int records,
                 int alwaysRecords) {
        /**
         * @param d a level
         * @return the record count at that level
         */
        int records(Durability d) {
            return d == Durability.ALWAYS ? alwaysRecords : records;
        }
    }

    /**
     * A profile's store study.
     *
     * @param blocks what runs
     * @param warmups warm-up passes per fork
     * @param runs measured passes per fork
     */
    record Study(List<Block> blocks, int warmups, int runs) {
    }

    /**
     * The user's overrides; a null field keeps the profile's choice.
     *
     * @param engines {@code --engines}
     * @param phases {@code --phases}
     * @param records {@code --records}
     * @param durabilities {@code --durability}
     * @param forks {@code --forks}
     * @param runs {@code --runs}
     */
    record Request(List<String> engines, List<String> phases, Integer records, List<Durability> durabilities,
                   Integer forks, Integer runs) {
        /** @return a request that changes nothing */
        static Request defaults() {
            return new Request(null, null, null, null, null, null);
        }
    }

    /** @return every phase label, in workload order */
    static List<String> allPhases() {
        return Arrays.stream(Phase.values()).map(Phase::label).toList();
    }

    /** @return {@code iolab} (the default backend), every peer, Bruno's code included, and the heap-map floor */
    static List<String> defaultEngines() {
        List<String> e = new ArrayList<>(List.of("iolab"));
        e.addAll(Engines.PEERS);
        e.add(Engines.FLOOR);
        return List.copyOf(e);
    }

    /**
     * @param profile a profile name
     * @return its store study; seeds uses quick's
     */
    static Study study(String profile) {
        List<String> phases = allPhases();
        List<Durability> none = List.of(Durability.NONE);
        List<String> synced = List.of("iolab", "sqlite", "rocksdb", "lmdb");
        return switch (profile) {
            case "smoke" -> new Study(List.of(new Block(List.of("iolab", "lmdb", "rocksdb"), none,
                    List.of("put", "get", "reopen"), ALWAYS_RECORDS, ALWAYS_RECORDS)), 0, 1);
            case "full" -> {
                List<String> iolabs = new ArrayList<>(List.of("iolab"));
                for (Backend b : Backend.values()) {
                    iolabs.add("iolab-" + b.label());
                }
                List<String> all = new ArrayList<>(iolabs);
                all.addAll(Engines.PEERS);
                all.add(Engines.FLOOR);
                List<String> syncedAll = new ArrayList<>(iolabs);
                syncedAll.addAll(synced.subList(1, synced.size()));
                yield new Study(List.of(new Block(all, none, phases, BRUNO_RECORDS, ALWAYS_RECORDS),
                        new Block(syncedAll, List.of(Durability.BATCH, Durability.ALWAYS), phases, BRUNO_RECORDS,
                                ALWAYS_RECORDS)), 2, 5);
            }
            // ten warm-up passes: the JIT-compiled engines reach their steady pace only after several (iolab's put
            // at NONE, 12 passes after 2 warm-ups: 31, 29, 28, 28, 26, 26, 26, 23, 26, 26, 27, 25 ms; Chronicle
            // Map's fell from 59 to 41 over three; LMDB, native, ran 32 then 27-28 throughout). Five were not always
            // enough: iolab's put at BATCH after 3 warm-ups ran 114, 92, 71, 51, 48, 48, 36, 38, 39 ms, and a run with
            // five measured iolab's put at NONE at 36 ms where 12 passes after 10 warm-ups give 17-21 ms
            default -> new Study(List.of(new Block(defaultEngines(), none, phases, BRUNO_RECORDS, ALWAYS_RECORDS),
                    new Block(synced, List.of(Durability.BATCH, Durability.ALWAYS), phases, BRUNO_RECORDS,
                            ALWAYS_RECORDS)), 10, 3);
        };
    }

    /**
     * @param profile the profile (its name picks the study, its forks are the default)
     * @param r the overrides
     * @return the points, without duplicates, in block order
     */
    static List<StorePoint> plan(Profile profile, Request r) {
        Study s = study(profile.name());
        int forks = Math.max(1, r.forks() != null ? r.forks() : profile.forks());
        int runs = r.runs() != null ? r.runs() : s.runs();
        Map<String, StorePoint> points = new LinkedHashMap<>();
        for (Block b : s.blocks()) {
            List<String> engines = r.engines() != null ? r.engines() : b.engines();
            List<Durability> durabilities = r.durabilities() != null ? r.durabilities() : b.durabilities();
            List<String> phases = r.phases() != null ? r.phases() : b.phases();
            for (Durability d : durabilities) {
                int records = r.records() != null ? r.records() : b.records(d);
                for (String engine : engines) {
                    if (d != Durability.NONE && engine.equals(Engines.FLOOR)) {
                        continue; // the floor keeps nothing on a crash: it has no synced level to run at
                    }
                    for (String phase : phases) {
                        double pass = passSeconds(Phase.parse(phase), d, records);
                        double wall = forks * (FORK_OVERHEAD + (s.warmups() + runs) * pass);
                        StorePoint p = new StorePoint(engine, d, phase, records, s.warmups(), runs, forks, pass, wall);
                        points.putIfAbsent(p.describe(), p);
                    }
                }
            }
        }
        return List.copyOf(points.values());
    }

    /**
     * @param phase the measured phase
     * @param d the durability
     * @param records employees put first
     * @return estimated seconds of one pass: the phases before it (untimed set-up), the phase, the checks
     */
    static double passSeconds(Phase phase, Durability d, int records) {
        double s = 0;
        for (Phase p : Phase.values()) {
            double ops = switch (p) {
                case PUT, SCAN, GET -> records;
                case DELETE, REINSERT -> records / 2.0;
                case REOPEN -> 1;
            };
            boolean writes = p == Phase.PUT || p == Phase.DELETE || p == Phase.REINSERT;
            s += ops * (d == Durability.ALWAYS && writes ? SYNC_SECONDS : RECORD_SECONDS);
            if (p == phase) {
                break;
            }
        }
        return s + 2 * records * RECORD_SECONDS; // the check scans the store afterwards
    }

    /**
     * @param points the store points
     * @return bytes the largest store may take on disk
     */
    static long spaceNeeded(List<StorePoint> points) {
        return points.stream().mapToLong(p -> (long) p.records() * BYTES_PER_RECORD).max().orElse(0);
    }

    /**
     * The per-put latency runs and the device's synced write rate that follow the store points: every engine of
     * the plan that syncs (iolab's, {@link #SYNCED_PEERS}) at ALWAYS, and iolab's at BATCH (where put and
     * put-to-durable differ); {@code --durability} keeps only the levels it lists (the fio job runs with
     * ALWAYS). Smoke: 200 puts and one 1 s fio pass; full: 10,000 puts and three 5 s passes; otherwise
     * {@value #LATENCY_PUTS} puts and two 3 s passes.
     *
     * @param profile the profile
     * @param r the overrides
     * @param points the plan's store points
     * @return what runs after the points (no points and no fio job when nothing fits)
     */
    static StoreLatencyRun latency(Profile profile, Request r, List<StorePoint> points) {
        List<Durability> levels = r.durabilities() != null ? r.durabilities()
                : List.of(Durability.BATCH, Durability.ALWAYS);
        Set<String> engines = new LinkedHashSet<>();
        points.stream().map(StorePoint::engine).filter(e -> e.equals("iolab") || e.startsWith("iolab-")
                || SYNCED_PEERS.contains(e)).forEach(engines::add);
        List<String> out = new ArrayList<>();
        if (levels.contains(Durability.ALWAYS)) {
            engines.forEach(e -> out.add(e + ":always"));
        }
        if (levels.contains(Durability.BATCH)) {
            engines.stream().filter(e -> e.equals("iolab") || e.startsWith("iolab-")).forEach(e -> out.add(e
                    + ":batch"));
        }
        boolean fio = !points.isEmpty() && levels.contains(Durability.ALWAYS);
        return switch (profile.name()) {
            case "smoke" -> new StoreLatencyRun(out, 200, 20, fio ? 1 : 0, fio ? 1 : 0);
            case "full" -> new StoreLatencyRun(out, 10_000, 500, fio ? 5 : 0, fio ? 3 : 0);
            default -> new StoreLatencyRun(out, LATENCY_PUTS, 200, fio ? 3 : 0, fio ? 2 : 0);
        };
    }

    private static final Map<Integer, Long> LIVE = new ConcurrentHashMap<>();

    /**
     * The live data after the whole workload: the key and value bytes, as {@link EmployeeCodec} encodes them, of
     * the employees live after the reinsert (every even one of {@code 0 .. records-1} and the
     * {@code records / 2} new ones), as {@code EmployeeWorkload} defines them.
     *
     * @param records employees put first
     * @return the live bytes
     */
    static long liveBytes(int records) {
        return LIVE.computeIfAbsent(records, n -> new EmployeeWorkload(n).liveBytes(Phase.REOPEN));
    }

    // ---- the options ----

    /**
     * @param text {@code --engines}: comma list of engine names, or {@code all}
     * @return the names, in the order given, without duplicates
     * @throws IolabException naming the option and the bad entry
     */
    static List<String> engines(String text) {
        if (text.trim().equalsIgnoreCase("all")) {
            return Engines.names();
        }
        Set<String> out = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                throw new IolabException("bad --engines '" + text + "': empty entry in the comma list");
            }
            if (!Engines.names().contains(p)) {
                throw new IolabException("bad --engines '" + part.trim() + "': expected all or a comma list of "
                        + String.join(", ", Engines.names()));
            }
            out.add(p);
        }
        return List.copyOf(out);
    }

    /**
     * @param text {@code --phases}: comma list of phases, or {@code all}
     * @return the labels, in workload order, without duplicates
     * @throws IolabException naming the option and the bad entry
     */
    static List<String> phases(String text) {
        if (text.trim().equalsIgnoreCase("all")) {
            return allPhases();
        }
        Set<Phase> out = new java.util.TreeSet<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new IolabException("bad --phases '" + text + "': empty entry in the comma list");
            }
            try {
                out.add(Phase.parse(p));
            } catch (IolabException e) {
                throw new IolabException("bad --phases '" + p + "': expected all or a comma list of "
                        + String.join(", ", allPhases()));
            }
        }
        return out.stream().map(Phase::label).toList();
    }

    /**
     * @param text {@code --records}: a whole number, e.g. {@code 100000}, {@code 100_000} or {@code 100k}
     *     (k = 1,000, m = 1,000,000)
     * @return the count
     * @throws IolabException naming the option when it is not a count from 2 to {@link EmployeeWorkload#MAX_RECORDS}
     */
    static int records(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long factor = 1;
        if (t.endsWith("k")) {
            factor = 1000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            factor = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Math.multiplyExact(Long.parseLong(t), factor);
        } catch (NumberFormatException | ArithmeticException e) {
            n = -1;
        }
        if (n < 2 || n > EmployeeWorkload.MAX_RECORDS) {
            throw new IolabException("bad --records '" + text + "': expected a whole number of employees from 2 to "
                    + EmployeeWorkload.MAX_RECORDS + ", e.g. 100000 or 100k");
        }
        return (int) n;
    }
}
