package org.iolab.bench;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.iolab.checksum.Checksum64;

/**
 * Shared by the Chronicle Queue peer benchmarks: the JVM flags Chronicle needs, how a queue is opened, and
 * the zero-copy checksum of an excerpt.
 *
 * <p>The flags below are the ones Chronicle Queue 2026.4 actually needs on JDK 25, found by removing, one at
 * a time, each flag of the list Chronicle documents for Java 17+ and keeping those whose absence made it fail
 * or warn: without {@code java.lang.reflect} open it cannot build a queue, without {@code sun.nio.ch} open it
 * falls back to a read-only table store, without {@code jdk.internal.ref} exported it cannot unmap buffers,
 * and its native helpers (jnr-ffi) use {@code sun.misc.Unsafe} and {@code System.load}. They are for the
 * peer only: iolab itself needs none of them. Its usage analytics are off twice over: the
 * {@code chronicle-analytics} jar is excluded from the build, and {@code chronicle.analytics.disable} is set.
 */
final class ChronicleQueues {
    /** Chronicle maps files through {@code sun.nio.ch.FileChannelImpl}. */
    static final String OPEN_NIO_CH = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";
    /** Chronicle's reflection helpers make private members accessible through this package. */
    static final String OPEN_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    /** Chronicle's cleaner unmaps buffers through {@code jdk.internal.ref.Cleaner}. */
    static final String EXPORT_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    /** Chronicle (and jnr-ffi under it) use {@code sun.misc.Unsafe}'s memory access, deprecated in JDK 23+. */
    static final String UNSAFE = "--sun-misc-unsafe-memory-access=allow";
    /** jnr-ffi loads its native stub with {@code System.load}; the checksum reads excerpts through FFM. */
    static final String NATIVE = "--enable-native-access=ALL-UNNAMED";
    /** No usage analytics (also excluded from the build: belt and braces, the machine has no network). */
    static final String NO_ANALYTICS = "-Dchronicle.analytics.disable=true";
    /** No start-up banner in the benchmark output. */
    static final String NO_BANNER = "-Dchronicle.announcer.disable=true";

    /**
     * Largest record the Chronicle benchmarks accept: 8 MiB. An excerpt must fit in the overlap of two
     * mapped blocks, a quarter of the default 64 MiB block size.
     */
    static final long MAX_RECORD = 8L << 20;

    /** Chronicle's log (through slf4j-simple): warnings only. */
    static final String LOG_WARN = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn";

    static {
        // For a Chronicle benchmark run in-process (JMH with no fork, or a test): set before Chronicle loads.
        if (System.getProperty("chronicle.analytics.disable") == null) {
            System.setProperty("chronicle.analytics.disable", "true");
        }
        if (System.getProperty("chronicle.announcer.disable") == null) {
            System.setProperty("chronicle.announcer.disable", "true");
        }
    }

    private ChronicleQueues() {
    }

    /**
     * Opens (creating it) a queue in its fastest configuration for a benchmark: binary wire, Chronicle's
     * default roll cycle {@link RollCycles#FAST_DAILY} (it rolls once a day at midnight UTC, never inside a
     * one-second iteration unless one crosses midnight, and the checks below cope with a roll), default block
     * size, no sync (page cache only, like iolab's {@code Durability.NONE}).
     *
     * @param folder the queue's folder
     * @return the open queue; close it
     */
    static SingleChronicleQueue open(Path folder) {
        return SingleChronicleQueueBuilder.binary(folder).rollCycle(RollCycles.FAST_DAILY).build();
    }

    /**
     * Adds the bytes of {@code bytes} between its read position and read limit to {@code sum} without
     * copying them: the checksum reads the mapped excerpt through a {@link MemorySegment} over its address.
     *
     * @param bytes an excerpt's bytes, from an open {@code DocumentContext} (its address stays valid until the
     *     context is closed)
     * @param sum the checksum
     * @return the number of bytes added
     */
    @SuppressWarnings("restricted") // reinterpret: the address and length come from Chronicle's mapped excerpt
    static int checksum(Bytes<?> bytes, Checksum64 sum) {
        int length = (int) bytes.readRemaining();
        if (length == 0) {
            return 0;
        }
        long address = bytes.addressForRead(bytes.readPosition(), length);
        sum.update(MemorySegment.ofAddress(address).reinterpret(length), 0, length);
        return length;
    }
}
