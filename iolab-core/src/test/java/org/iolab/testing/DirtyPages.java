package org.iolab.testing;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file's dirty and cached pages, from Linux's {@code cachestat(2)} (6.5+): what tests of write-back hints and
 * prefaulting look at.
 */
@SuppressWarnings("restricted") // a test reading the kernel's page-cache state
public final class DirtyPages {
    private static final long SYS_CACHESTAT = 451; // x86_64 and aarch64
    private static final int CONTROL_BYTES = 256 * 1024;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle SYSCALL = LINKER.downcallHandle(LINKER.defaultLookup().find("syscall")
            .orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(1));
    private static final MethodHandle OPEN = LINKER.downcallHandle(LINKER.defaultLookup().find("open").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LINKER.defaultLookup().find("close")
            .orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private DirtyPages() {
    }

    /**
     * @param file a file
     * @param offset first byte
     * @param length bytes
     * @return the dirty pages of {@code [offset, offset + length)}, or -1 where the kernel has no cachestat
     */
    public static long count(Path file, long offset, long length) {
        return stat(file, offset, length, 8);
    }

    /**
     * @param file a file
     * @param offset first byte
     * @param length bytes
     * @return the pages of {@code [offset, offset + length)} in the page cache, or -1 where the kernel has no
     *     cachestat
     */
    public static long cached(Path file, long offset, long length) {
        return stat(file, offset, length, 0);
    }

    /** One field of {@code struct cachestat} (nr_cache at 0, nr_dirty at 8). */
    private static long stat(Path file, long offset, long length, long field) {
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(file.toString()), 0);
            if (fd < 0) {
                throw new IllegalStateException("cannot open " + file);
            }
            try {
                MemorySegment range = arena.allocate(16, 8);
                range.set(ValueLayout.JAVA_LONG, 0, offset);
                range.set(ValueLayout.JAVA_LONG, 8, length);
                MemorySegment out = arena.allocate(40, 8);
                long rc = (long) SYSCALL.invokeExact(SYS_CACHESTAT, fd, range, out, 0);
                return rc == 0 ? out.get(ValueLayout.JAVA_LONG, field) : -1;
            } finally {
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("cachestat of " + file, t);
        }
    }

    /**
     * Writes a small control file of dirty pages. Make it before the pages a test watches: when the kernel writes
     * pages back on its own (another process's {@code sync}, the system passing its background threshold) it takes
     * the oldest first, so a test that finds the control still dirty knows its own pages were not cleaned by it.
     *
     * @param dir a folder
     * @return the control file
     * @throws IOException when it cannot be written
     */
    public static Path control(Path dir) throws IOException {
        // a new file, not a truncated one: ext4 starts the write-back of a file truncated to zero and rewritten
        // when it is closed (auto_da_alloc)
        Path control = dir.resolve("dirty-control-" + System.nanoTime() + ".bin");
        try (FileChannel ch = FileChannel.open(control, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(CONTROL_BYTES);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        return control;
    }

    /**
     * @param control a file from {@link #control}
     * @return whether all its pages are still dirty (false also where the kernel has no cachestat)
     */
    public static boolean untouched(Path control) {
        return count(control, 0, CONTROL_BYTES) == CONTROL_BYTES / 4096;
    }

    /**
     * Polls until the range has no dirty page.
     *
     * @param file a file
     * @param offset first byte
     * @param length bytes
     * @param millis how long to wait at most
     * @return the dirty pages when it stopped waiting (0 when clean)
     * @throws InterruptedException when interrupted
     */
    public static long awaitClean(Path file, long offset, long length, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        long dirty = count(file, offset, length);
        while (dirty > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
            dirty = count(file, offset, length);
        }
        return dirty;
    }
}
