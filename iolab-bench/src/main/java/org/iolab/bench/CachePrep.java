package org.iolab.bench;

import java.nio.file.Path;
import java.util.Locale;
import org.iolab.IolabException;
import org.iolab.os.CacheStateException;
import org.iolab.os.PageCache;

/**
 * Puts a data file in the page-cache state a measurement asks for, before every iteration: {@code warm}
 * reads it once; {@code cold} evicts it (per file with {@code posix_fadvise}, or the whole cache with
 * {@code drop_caches}) and refuses to go on when it is still cached. When eviction fails it runs a GC
 * and tries once more, since a collected {@code MappedByteBuffer} of an earlier pass releases its mapping.
 */
final class CachePrep {
    /** The requested page-cache state. */
    enum Cache {
        /** The file's pages are in the page cache. */
        WARM,
        /** The file's pages are not in the page cache. */
        COLD
    }

    /** How a cold file is made cold. */
    enum Evict {
        /** {@code fsync} + {@code posix_fadvise(POSIX_FADV_DONTNEED)} on the one file. */
        FADVISE,
        /** {@code sync; echo 3 > /proc/sys/vm/drop_caches} (root only). */
        DROP_CACHES
    }

    private final Cache cache;
    private final Evict evict;
    private boolean warnedPartial;

    /**
     * @param cache {@code warm} or {@code cold}
     * @param evict {@code fadvise} or {@code drop-caches}
     * @throws IolabException naming the parameter when a value is unknown, or when {@code drop-caches} is
     *     asked for a cold run without root
     */
    CachePrep(String cache, String evict) {
        this.cache = switch (cache.trim().toLowerCase(Locale.ROOT)) {
            case "warm" -> Cache.WARM;
            case "cold" -> Cache.COLD;
            default -> throw new IolabException("bad cache '" + cache + "': expected warm or cold");
        };
        this.evict = switch (evict.trim().toLowerCase(Locale.ROOT)) {
            case "fadvise" -> Evict.FADVISE;
            case "drop-caches", "drop_caches", "dropcaches" -> Evict.DROP_CACHES;
            default -> throw new IolabException("bad evict '" + evict + "': expected fadvise or drop-caches");
        };
        if (this.cache == Cache.COLD && this.evict == Evict.DROP_CACHES && !PageCache.canDropAll()) {
            throw new IolabException("evict=drop-caches needs root (write access to /proc/sys/vm/drop_caches);"
                    + " run as root or use evict=fadvise");
        }
    }

    /** @return the requested state */
    Cache cache() {
        return cache;
    }

    /** @return {@code cache=... evict=...}, for messages */
    String describe() {
        return "cache=" + cache.name().toLowerCase(Locale.ROOT)
                + (cache == Cache.COLD ? " evict=" + evict.name().toLowerCase(Locale.ROOT).replace('_', '-') : "");
    }

    /**
     * Puts {@code file} in the requested state.
     *
     * @param file the data file the next pass reads
     * @return the residency afterwards
     * @throws CacheStateException when a cold file is still cached
     */
    PageCache.Residency apply(Path file) {
        if (cache == Cache.WARM) {
            PageCache.Residency r = PageCache.warm(file);
            if (r.fraction() < 0.99 && !warnedPartial) {
                warnedPartial = true;
                System.err.println("iolab: warning: only " + r + " after reading it; the 'warm' pass is"
                        + " partly cold (the file may not fit in memory)");
            }
            return r;
        }
        try {
            return evictOnce(file);
        } catch (CacheStateException stillCached) {
            // A MappedByteBuffer of an earlier pass that is unreachable but not yet collected keeps the
            // file mapped, and mapped pages cannot be evicted: collect it and try again.
            System.gc();
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stillCached.addSuppressed(e);
                throw stillCached;
            }
            return evictOnce(file);
        }
    }

    private PageCache.Residency evictOnce(Path file) {
        if (evict == Evict.FADVISE) {
            return PageCache.evict(file);
        }
        PageCache.dropAll();
        PageCache.Residency r = PageCache.residency(file);
        if (r.fraction() > PageCache.COLD_TOLERANCE) {
            throw new CacheStateException("cold pass refused: " + r + " after dropping all caches;"
                    + " another process may be using the file (mapped or being written)");
        }
        return r;
    }
}
