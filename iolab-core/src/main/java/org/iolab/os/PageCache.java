package org.iolab.os;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.iolab.IolabException;

/**
 * Controls and checks whether a file's pages are in the Linux page cache, so that "cold" and "warm"
 * measurements are what they claim to be.
 *
 * <ul>
 *   <li>{@link #residency(Path)} asks the kernel with {@code mincore(2)} over a read-only mapping (mapping
 *       does not fault pages in, so looking does not change the answer);</li>
 *   <li>{@link #evict(Path)} syncs the file ({@code fsync}: dirty pages cannot be dropped) and then asks
 *       the kernel to drop its clean pages with {@code posix_fadvise(POSIX_FADV_DONTNEED)}, and checks the
 *       result with {@code mincore};</li>
 *   <li>{@link #dropAll()} writes {@code 3} to {@code /proc/sys/vm/drop_caches} (root only);</li>
 *   <li>{@link #warm(Path)} reads the file once.</li>
 * </ul>
 */
public final class PageCache {
    /** A cold file may keep at most this fraction of its pages resident (e.g. pages another process maps). */
    public static final double COLD_TOLERANCE = 0.01;
    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private PageCache() {
    }

    /**
     * How much of a file is in the page cache.
     *
     * @param file the file
     * @param residentPages pages in memory
     * @param totalPages pages the file spans
     * @param pageSize bytes per page
     */
    public record Residency(Path file, long residentPages, long totalPages, int pageSize) {
        /** @return resident pages / total pages; 0 for an empty file */
        public double fraction() {
            return totalPages == 0 ? 0 : (double) residentPages / totalPages;
        }

        /** @return e.g. {@code "12 of 256 pages (4.7%)"} */
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d of %d pages (%.1f%%) of %s in the page cache",
                    residentPages, totalPages, 100 * fraction(), file);
        }
    }

    /** @return the kernel's page size */
    public static int pageSize() {
        return Libc.pageSize();
    }

    /**
     * @param file a regular file
     * @return how many of its pages are in the page cache now, according to {@code mincore(2)}
     */
    public static Residency residency(Path file) {
        int page = Libc.pageSize();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            long size = ch.size();
            if (size == 0) {
                return new Residency(file, 0, 0, page);
            }
            long pages = (size + page - 1) / page;
            MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            MemorySegment vec = arena.allocate(pages);
            Libc.mincore(map, size, vec, file);
            long resident = 0;
            for (long i = 0; i < pages; i++) {
                resident += vec.get(ValueLayout.JAVA_BYTE, i) & 1;
            }
            return new Residency(file, resident, pages, page);
        } catch (IOException e) {
            throw IolabException.io("check the page-cache residency of", file, e);
        }
    }

    /**
     * Drops {@code file}'s pages from the page cache and checks that they are gone.
     *
     * @param file the file to make cold
     * @return the residency after eviction
     * @throws CacheStateException when more than {@link #COLD_TOLERANCE} of the pages stay resident
     */
    public static Residency evict(Path file) {
        Residency after = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int fd = Libc.open(file, Libc.O_RDONLY, 0);
            try {
                Libc.fsync(fd, file);
                Libc.fadviseDontNeed(fd, file);
            } finally {
                Libc.close(fd, file);
            }
            after = residency(file);
            if (after.fraction() <= COLD_TOLERANCE) {
                return after;
            }
        }
        throw new CacheStateException("could not evict " + file + " from the page cache: " + after
                + " remain after fsync + posix_fadvise(DONTNEED); another process may be using it (mapped or"
                + " being written); stop it, or run as root with drop_caches");
    }

    /**
     * Flushes dirty data and drops the whole page cache, dentries and inodes: {@code sync; echo 3 >
     * /proc/sys/vm/drop_caches}.
     *
     * @throws IolabException when not running as root (or the file is not writable)
     */
    public static void dropAll() {
        if (!Files.isWritable(DROP_CACHES)) {
            throw new IolabException("cannot write " + DROP_CACHES + ": dropping all caches needs root;"
                    + " run as root, or use per-file eviction (the default)");
        }
        writeBackAll();
        try {
            Files.writeString(DROP_CACHES, "3\n");
        } catch (IOException e) {
            throw IolabException.io("write", DROP_CACHES, e);
        }
    }

    /**
     * Writes every dirty page of the machine to its device and waits ({@code sync}): a measurement that includes
     * syncs then starts with no earlier writing (another benchmark's, a deleted file's) still going to the device
     * beside it. Needs no privilege.
     *
     * @throws IolabException when {@code sync} cannot be run or fails
     */
    public static void writeBackAll() {
        try {
            Process sync = new ProcessBuilder("sync").inheritIO().start();
            if (sync.waitFor() != 0) {
                throw new IolabException("'sync' failed (exit " + sync.exitValue() + ")");
            }
        } catch (IOException e) {
            throw new IolabException("cannot run 'sync': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IolabException("interrupted while waiting for 'sync'", e);
        }
    }

    /**
     * @return whether {@link #dropAll()} can work here (running as root on Linux)
     */
    public static boolean canDropAll() {
        return Files.isWritable(DROP_CACHES);
    }

    /**
     * Reads {@code file} once so its pages are cached (as far as memory allows).
     *
     * @param file the file to make warm
     * @return the residency after reading
     */
    public static Residency warm(Path file) {
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                buf.clear();
            }
        } catch (IOException e) {
            throw IolabException.io("read (to warm the page cache)", file, e);
        }
        return residency(file);
    }
}
