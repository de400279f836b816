package org.iolab.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import org.iolab.IolabException;
import org.iolab.catalogue.Article;
import org.iolab.catalogue.Kind;
import org.iolab.catalogue.MethodInfo;
import org.iolab.catalogue.Preallocation;

/**
 * What {@code --profile} runs: a list of studies (methods x buffers x sizes x cache states), how many passes
 * and forks, and the time budget per pass.
 *
 * @param name the profile's name
 * @param studies what to measure
 * @param warmups warm-up passes per fork
 * @param runs measured passes per fork
 * @param forks JMH forks per point
 * @param budget seconds one measured pass may take; larger files are shrunk (see {@link CostModel})
 */
record Profile(String name, List<Study> studies, int warmups, int runs, int forks, double budget) {
    static final long K = 1024;
    static final long M = K * K;
    static final long G = M * K;
    /** Fisher's stride between probes. */
    static final long STRIDE = 20000;

    /**
     * One block of a profile.
     *
     * @param name a label
     * @param kinds the kinds of method it is for
     * @param select which methods of those kinds
     * @param buffers buffer sizes (methods that ignore the buffer run once, at 8 KiB or the first)
     * @param sizes file sizes; a {@code 0} entry stands for "larger than RAM"
     * @param caches cache states (reads, random access)
     * @param prealloc preallocation (writes)
     * @param sync whether writes sync (writes)
     * @param runs measured passes per fork, or 0 for the profile's
     */
    record Study(String name, Set<Kind> kinds, Predicate<MethodInfo> select, List<Long> buffers,
                 List<Long> sizes, List<Cache> caches, Preallocation prealloc, boolean sync, int runs) {
        boolean covers(MethodInfo m) {
            return kinds.contains(m.kind()) && select.test(m);
        }
    }

    static final Set<Kind> READS = Set.of(Kind.READ, Kind.READ_CHARS);
    static final Set<Kind> WRITES = Set.of(Kind.WRITE);
    static final Set<Kind> RANDOM = Set.of(Kind.RANDOM_ACCESS);
    private static final List<Cache> WARM = List.of(Cache.WARM);
    private static final List<Cache> BOTH = List.of(Cache.WARM, Cache.COLD);

    /** @return 1 B .. 16 MiB in powers of 16, and 128 MiB */
    static List<Long> coarseSweep() {
        return List.of(1L, 16L, 256L, 4 * K, 64 * K, M, 16 * M, 128 * M);
    }

    /** @return 1 B .. 64 MiB in powers of 4, and 128 MiB */
    static List<Long> bufferSweep() {
        List<Long> b = new ArrayList<>();
        for (long s = 1; s <= 64 * M; s *= 4) {
            b.add(s);
        }
        b.add(128 * M);
        return List.copyOf(b);
    }

    private static Predicate<MethodInfo> ids(String... ids) {
        Set<String> set = Set.of(ids);
        return m -> set.contains(m.id());
    }

    private static Predicate<MethodInfo> all() {
        return m -> true;
    }

    /**
     * @param text smoke, quick, seeds or full
     * @return that profile
     */
    static Profile parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "smoke" -> smoke();
            case "quick" -> quick();
            case "seeds" -> seeds();
            case "full" -> full();
            default -> throw new IolabException("bad --profile '" + text + "': expected smoke, quick, seeds or full");
        };
    }

    /** @return every catalogue method once on a 1 MiB file, 8 KiB buffer, warm: a correctness check */
    static Profile smoke() {
        List<Long> b = List.of(8 * K);
        List<Long> s = List.of(M);
        return new Profile("smoke", List.of(
                new Study("reads", READS, all(), b, s, WARM, null, false, 0),
                new Study("writes", WRITES, all(), b, s, null, Preallocation.NONE, false, 0),
                new Study("random", RANDOM, all(), b, s, WARM, null, false, 0)),
                0, 1, 1, 0.25);
    }

    /** @return the main question on a 256 MiB file: every method at 8 KiB, warm and cold, plus buffer sizes */
    static Profile quick() {
        List<Long> s = List.of(256 * M);
        return new Profile("quick", List.of(
                new Study("reads", READS, all(), List.of(8 * K), s, BOTH, null, false, 0),
                new Study("read buffers", READS, MethodInfo::usesBuffer, List.of(64 * K, M), s, WARM, null,
                        false, 0),
                new Study("writes", WRITES, all(), List.of(8 * K), s, null, Preallocation.NONE, false, 0),
                new Study("seek vs skip", RANDOM, all(), List.of(8 * K), s, BOTH, null, false, 0)),
                1, 3, 1, 0.5);
    }

    /** @return each seed article's experiment */
    static Profile seeds() {
        Predicate<MethodInfo> nadeau = m -> m.article() == Article.NADEAU;
        Predicate<MethodInfo> jib = ids("fis-array", "channel-heap-array", "channel-direct-array", "mapped-array",
                "fos-array-write", "channel-heap-write", "channel-direct-write", "mapped-write");
        return new Profile("seeds", List.of(
                new Study("Thompson writes", WRITES,
                        ids("raf-write", "bos-byte-write", "channel-heap-write", "channel-direct-write", "mapped-write"),
                        List.of(4 * K), List.of(400 * M, 8 * G), null, Preallocation.ZERO_FILL, false, 5),
                new Study("Thompson reads", READS, ids("raf-array", "bis-byte", "channel-direct-byte", "mapped-byte"),
                        List.of(4 * K), List.of(400 * M, 8 * G), WARM, null, false, 5),
                new Study("Nadeau", READS, nadeau, bufferSweep(), List.of(256 * M), WARM, null, false, 0),
                new Study("java-io-benchmark reads", READS, jib, List.of(K, 8 * K), List.of(G), WARM, null,
                        false, 50),
                new Study("java-io-benchmark writes", WRITES, jib, List.of(K, 8 * K), List.of(G), null,
                        Preallocation.NONE, false, 50),
                new Study("Fisher", RANDOM, all(), List.of(8 * K), List.of(G), BOTH, null, false, 5)),
                1, 3, 1, 5);
    }

    /**
     * @return every method x buffers 1 B..128 MiB (powers of 16) x warm/cold on 64 MiB and 1 GiB, plus every method on a
     *     read and write methods on a file larger than RAM (1 MiB buffers, cold: such a file cannot stay
     *     cached; methods too slow to pass over it in 3 minutes are left out): a few hours
     */
    static Profile full() {
        List<Long> s = List.of(64 * M, G);
        List<Long> big = List.of(0L);
        List<Long> mib = List.of(M);
        return new Profile("full", List.of(
                new Study("reads", READS, all(), coarseSweep(), s, BOTH, null, false, 0),
                new Study("writes", WRITES, all(), coarseSweep(), s, null, Preallocation.NONE, false, 0),
                new Study("random", RANDOM, all(), List.of(8 * K), s, BOTH, null, false, 0),
                // cold random probes already measure the device; a file larger than RAM adds nothing there
                new Study("reads larger than RAM", READS, all(), mib, big, List.of(Cache.COLD), null, false, 3),
                new Study("writes larger than RAM", WRITES, all(), mib, big, null, Preallocation.NONE, true, 3)),
                1, 5, 1, 5);
    }
}
