package org.iolab.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.Preallocation;

/** Turns a profile and the user's overrides into the list of points to measure. */
final class Planner {
    /** Buffer used by methods that ignore the buffer size, when the study lists it. */
    static final long DEFAULT_BUFFER = 8192;
    /**
     * Longest pass (seconds) allowed for a file that must stay larger than RAM; slower methods are left out
     * of such a study rather than measured on a file small enough to be cached.
     */
    static final double LARGER_THAN_RAM_PASS_LIMIT = 180;

    private Planner() {
    }

    /**
     * The user's overrides; a null field keeps the profile's choice.
     *
     * @param methods method ids
     * @param buffers buffer sizes
     * @param sizes file sizes
     * @param caches cache states
     * @param forks forks per point
     * @param runs measured passes per fork
     * @param prealloc preallocation for writes
     * @param sync whether writes sync
     * @param budget seconds per measured pass
     */
    record Request(List<String> methods, List<Long> buffers, List<Long> sizes, List<Cache> caches, Integer forks,
                   Integer runs, Preallocation prealloc, Boolean sync, Double budget) {
        /** @return a request that changes nothing */
        static Request defaults() {
            return new Request(null, null, null, null, null, null, null, null, null);
        }
    }

    /**
     * @param profile the profile
     * @param r the overrides
     * @param ram bytes of physical memory (for "larger than RAM" sizes)
     * @return the points, in profile order, without duplicates
     */
    static List<Point> plan(Profile profile, Request r, long ram) {
        List<MethodInfo> catalogue = Catalogue.infos();
        int forks = r.forks() != null ? r.forks() : profile.forks();
        double budget = r.budget() != null ? r.budget() : profile.budget();
        Map<Profile.Study, List<MethodInfo>> chosen = new LinkedHashMap<>();
        for (Profile.Study s : profile.studies()) {
            chosen.put(s, new ArrayList<>());
        }
        Set<String> covered = new LinkedHashSet<>();
        for (Profile.Study s : profile.studies()) {
            for (MethodInfo m : catalogue) {
                if (s.covers(m) && (r.methods() == null || r.methods().contains(m.id()))) {
                    chosen.get(s).add(m);
                    covered.add(m.id());
                }
            }
        }
        if (r.methods() != null) {
            // a method the profile does not study runs with the first study of its kind
            for (String id : r.methods()) {
                if (covered.contains(id)) {
                    continue;
                }
                MethodInfo m = Catalogue.find(id).orElseThrow(() -> Catalogue.unknown(id));
                Profile.Study home = profile.studies().stream().filter(s -> s.kinds().contains(m.kind()))
                        .findFirst().orElseThrow(() -> new IolabException("profile " + profile.name()
                                + " measures no " + m.kind() + " methods; choose another --profile for " + id));
                chosen.get(home).add(m);
            }
        }
        Map<String, Point> points = new LinkedHashMap<>();
        long tooLargeToReadWarm = 0;
        for (Map.Entry<Profile.Study, List<MethodInfo>> e : chosen.entrySet()) {
            Profile.Study s = e.getKey();
            List<Long> buffers = r.buffers() != null ? r.buffers() : s.buffers();
            List<Long> sizes = r.sizes() != null ? r.sizes() : s.sizes();
            List<Cache> caches = r.caches() != null ? r.caches() : s.caches();
            Preallocation prealloc = r.prealloc() != null ? r.prealloc() : s.prealloc();
            boolean sync = r.sync() != null ? r.sync() : s.sync();
            int runs = r.runs() != null ? r.runs() : s.runs() > 0 ? s.runs() : profile.runs();
            for (MethodInfo m : e.getValue()) {
                Bench bench = Bench.of(m.kind());
                List<Long> bufs = bench == Bench.RANDOM ? List.of(0L)
                        : m.usesBuffer() ? buffers
                        : List.of(buffers.contains(DEFAULT_BUFFER) ? DEFAULT_BUFFER : buffers.getFirst());
                List<Cache> cs = bench == Bench.WRITE ? java.util.Collections.singletonList(null) : caches;
                for (long requested0 : sizes) {
                    long requested = requested0 == 0 ? largerThan(ram) : requested0;
                    for (long buf : bufs) {
                        for (Cache c : cs) {
                            Point p = point(bench, m, (int) buf, requested, c, prealloc, sync,
                                    profile.warmups(), runs, forks, budget);
                            if (requested0 == 0 && p.fileSize() < requested) {
                                // the study is about a file the page cache cannot hold: keep its size
                                Point whole = point(bench, m, (int) buf, requested, c, prealloc, sync,
                                        profile.warmups(), runs, forks, LARGER_THAN_RAM_PASS_LIMIT);
                                if (whole.fileSize() < requested) {
                                    continue;
                                }
                                p = whole;
                            }
                            if (c == Cache.WARM && p.fileSize() > ram / 4 * 3) {
                                // a file the page cache cannot hold beside everything else is not read warm: its
                                // passes would be partly cold and published as warm (its cold point stays)
                                tooLargeToReadWarm = Math.max(tooLargeToReadWarm, p.fileSize());
                                continue;
                            }
                            if (bench == Bench.RANDOM && p.probes() == 0) {
                                // the benchmark would refuse it in its fork, after every point before it had run
                                throw new IolabException("--sizes " + Sizes.format(p.fileSize()) + " is too small for"
                                        + " the random-access method " + m.id() + ": its probes read " + p.length()
                                        + " byte(s) below the file's end, so the file needs at least "
                                        + (p.length() + 1) + " bytes; give a larger size, or leave the random-access"
                                        + " methods out with --methods");
                            }
                            points.putIfAbsent(key(p), p);
                        }
                    }
                }
            }
        }
        if (points.isEmpty() && tooLargeToReadWarm > 0) {
            throw new IolabException("a warm read of a " + Sizes.format(tooLargeToReadWarm) + " file needs it in the"
                    + " page cache, and it is more than 3/4 of this machine's " + Sizes.format(ram) + " of memory:"
                    + " give smaller --sizes, or --cache cold");
        }
        return List.copyOf(points.values());
    }

    /**
     * @param ram bytes of memory
     * @return the smallest power of two above {@code ram}
     */
    static long largerThan(long ram) {
        return Long.highestOneBit(Math.max(ram, 1)) << 1;
    }

    private static String key(Point p) {
        // the size measured, not the one asked for: two requested sizes shrunk to one file are one point
        return p.bench() + "/" + p.method().id() + "/" + p.bufferSize() + "/" + p.fileSize() + "/"
                + p.cache() + "/" + p.prealloc() + "/" + p.sync();
    }

    static Point point(Bench bench, MethodInfo m, int buf, long requested, Cache cache, Preallocation prealloc,
                       boolean sync, int warmups, int runs, int forks, double budget) {
        long stride = bench == Bench.RANDOM ? Profile.STRIDE : 0;
        int length = bench == Bench.RANDOM ? 1 : 0;
        long size = CostModel.fit(requested, budget,
                s -> CostModel.pass(m, bench, buf, s, cache, sync, stride, length));
        double pass = CostModel.pass(m, bench, buf, size, cache, sync, stride, length);
        double setup = CostModel.setup(bench, size, cache, prealloc);
        int f = Math.max(forks, 1);
        double wall = (forks > 0 ? forks * CostModel.FORK_OVERHEAD : 0.1) + f * (warmups + runs) * (pass + setup);
        return new Point(bench, m, buf, requested, size, cache, bench == Bench.WRITE ? prealloc : null,
                bench == Bench.WRITE && sync, stride, length, warmups, runs, forks, pass, wall);
    }
}
