package org.iolab.os;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import org.iolab.IolabException;

/**
 * The few Linux libc calls iolab needs that the JDK does not offer, called through the FFM API (no JNI, no
 * JDK internals). Every call checks its result and turns a failure into an {@link IolabException} naming
 * the call, the file and {@code strerror(errno)}.
 *
 * <p>Needs native access: iolab's jars declare {@code Enable-Native-Access: ALL-UNNAMED}; elsewhere run
 * with {@code --enable-native-access=ALL-UNNAMED}.
 */
@SuppressWarnings("restricted") // native access is this class's purpose
final class Libc {
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_RDWR = 2;
    static final int O_CREAT = 0100;
    static final int O_CLOEXEC = 02000000;
    static final int POSIX_FADV_DONTNEED = 4;
    static final int SYNC_FILE_RANGE_WRITE = 2;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CAPTURE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPT = Linker.Option.captureCallState("errno");

    private static final MethodHandle OPEN = handle("open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT),
            ERRNO_OPT, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = handle("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), ERRNO_OPT);
    private static final MethodHandle FSYNC = handle("fsync",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), ERRNO_OPT);
    private static final MethodHandle FALLOCATE = handle("fallocate",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
            ERRNO_OPT);
    // posix_fadvise returns the error number instead of setting errno
    private static final MethodHandle FADVISE = handle("posix_fadvise",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle MINCORE = handle("mincore",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS),
            ERRNO_OPT);
    private static final MethodHandle MADVISE = handle("madvise",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT),
            ERRNO_OPT);
    private static final MethodHandle SYNC_FILE_RANGE = handle("sync_file_range",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
            ERRNO_OPT);
    private static final MethodHandle PWRITE = handle("pwrite",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
            ERRNO_OPT);
    private static final MethodHandle LSEEK = handle("lseek",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT),
            ERRNO_OPT);
    private static final int SEEK_HOLE = 4;
    private static final MethodHandle GETPAGESIZE = handle("getpagesize",
            FunctionDescriptor.of(ValueLayout.JAVA_INT));
    private static final MethodHandle STRERROR = handle("strerror",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private Libc() {
    }

    private static MethodHandle handle(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment symbol = LIBC.find(name).orElseThrow(() -> new IolabException(
                "the C library has no " + name + "(): iolab's page-cache control needs Linux with glibc"));
        return LINKER.downcallHandle(symbol, fd, options);
    }

    /** @return the kernel's page size in bytes */
    static int pageSize() {
        try {
            return (int) GETPAGESIZE.invokeExact();
        } catch (Throwable t) {
            throw unexpected("getpagesize", t);
        }
    }

    /**
     * @param path file to open
     * @param flags O_* flags
     * @param mode permissions when creating
     * @return the file descriptor
     */
    static int open(Path path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            MemorySegment cpath = arena.allocateFrom(path.toString());
            int fd = (int) OPEN.invokeExact(state, cpath, flags | O_CLOEXEC, mode);
            if (fd < 0) {
                throw failure("open", path, errno(state));
            }
            return fd;
        } catch (IolabException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected("open", t);
        }
    }

    static void close(int fd, Path path) {
        call1(CLOSE, "close", fd, path);
    }

    /**
     * Closes {@code fd}, ignoring a failure: for a descriptor that holds nothing to lose (read-only, or written with
     * {@code pwrite}, whose bytes are in the page cache when it returns).
     */
    static void closeQuietly(int fd, Path path) {
        try {
            close(fd, path);
        } catch (RuntimeException ignored) {
            // nothing buffered in the descriptor
        }
    }

    static void fsync(int fd, Path path) {
        call1(FSYNC, "fsync", fd, path);
    }

    /** @return 0 when {@code fallocate(fd, 0, offset, length)} succeeded, else its errno */
    static int tryFallocate(int fd, long offset, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) FALLOCATE.invokeExact(state, fd, 0, offset, length);
            return rc == 0 ? 0 : errno(state);
        } catch (Throwable t) {
            throw unexpected("fallocate", t);
        }
    }

    /**
     * @param fd an open file
     * @return the offset of the file's first hole ({@code lseek(SEEK_HOLE)}): its size when it has none (or the file
     *         system does not say), or -1 when the call fails
     */
    static long firstHole(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            return (long) LSEEK.invokeExact(state, fd, 0L, SEEK_HOLE);
        } catch (Throwable t) {
            throw unexpected("lseek", t);
        }
    }

    static void fadviseDontNeed(int fd, Path path) {
        int rc;
        try {
            rc = (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED);
        } catch (Throwable t) {
            throw unexpected("posix_fadvise", t);
        }
        if (rc != 0) {
            throw failure("posix_fadvise(DONTNEED)", path, rc);
        }
    }

    /**
     * @param address page-aligned start of a mapping
     * @param length bytes of the mapping
     * @param vec one byte per page, written by the kernel (bit 0 set when resident)
     * @param path the mapped file, for messages
     */
    static void mincore(MemorySegment address, long length, MemorySegment vec, Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) MINCORE.invokeExact(state, address, length, vec);
            if (rc != 0) {
                throw failure("mincore", path, errno(state));
            }
        } catch (IolabException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected("mincore", t);
        }
    }

    /**
     * {@code madvise(2)}.
     *
     * @param address page-aligned start of a mapping
     * @param length bytes
     * @param advice e.g. {@code MADV_POPULATE_WRITE} (23)
     * @return 0, or the errno of the failure
     */
    static int madvise(MemorySegment address, long length, int advice) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) MADVISE.invokeExact(state, address, length, advice);
            return rc == 0 ? 0 : errno(state);
        } catch (Throwable t) {
            throw unexpected("madvise", t);
        }
    }

    /**
     * {@code sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE)}: starts the write-back of the range's dirty
     * pages without waiting for it (it may wait for a full device queue).
     *
     * @param fd an open descriptor of the file (read-only is enough)
     * @param offset first byte
     * @param length bytes
     * @return 0, or the errno of the failure
     */
    static int syncFileRangeWrite(int fd, long offset, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) SYNC_FILE_RANGE.invokeExact(state, fd, offset, length, SYNC_FILE_RANGE_WRITE);
            return rc == 0 ? 0 : errno(state);
        } catch (Throwable t) {
            throw unexpected("sync_file_range", t);
        }
    }

    /**
     * {@code pwrite(2)}, once: the caller loops on a short write and reads the errno of a failure from {@code state}.
     *
     * @param state a segment of {@link #captureLayout()}, receiving errno
     * @param fd a descriptor open for writing
     * @param buf the bytes, native memory of at least {@code count} bytes
     * @param count bytes to write
     * @param offset file offset
     * @return the bytes written, or -1 (errno in {@code state})
     */
    static long pwrite(MemorySegment state, int fd, MemorySegment buf, long count, long offset) {
        try {
            return (long) PWRITE.invokeExact(state, fd, buf, count, offset);
        } catch (Throwable t) {
            throw unexpected("pwrite", t);
        }
    }

    /** @return the layout of the segment that receives errno */
    static StructLayout captureLayout() {
        return CAPTURE;
    }

    private static void call1(MethodHandle h, String name, int fd, Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) h.invokeExact(state, fd);
            if (rc != 0) {
                throw failure(name, path, errno(state));
            }
        } catch (IolabException e) {
            throw e;
        } catch (Throwable t) {
            throw unexpected(name, t);
        }
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** @return {@code strerror(errno)} */
    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static IolabException failure(String call, Path path, int errno) {
        return new IolabException(call + "(" + path + ") failed: " + strerror(errno) + " (errno " + errno + ")");
    }

    private static IolabException unexpected(String call, Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        return new IolabException("calling " + call + "() through the FFM API failed: " + t, t);
    }
}
