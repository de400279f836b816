package org.iolab.storage;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers whose interrupt status stays set (cancelled tasks that go on reading: the backend keeps their status, as
 * documented) close the channel at each of their calls. A thread that was never interrupted, the writer, must not
 * fail for it ("an interrupted reader fails neither itself nor the others").
 */
class ReopeningChannelStarvationTest {
    @TempDir
    Path dir;

    @Test
    void readersWithAPendingInterruptNeverFailTheWriter() throws Exception {
        Path p = dir.resolve("f");
        try (StorageFile f = Backend.CHANNEL_HEAP.open(p, true)) {
            f.write(0, ByteBuffer.allocate(1 << 16));
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> readerFailures = new ConcurrentLinkedQueue<>();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 8; r++) {
                readers.add(Thread.ofPlatform().start(() -> {
                    Thread.currentThread().interrupt(); // cancelled; its status is kept by every call
                    ByteBuffer b = ByteBuffer.allocate(512);
                    while (!stop.get()) {
                        try {
                            f.read(0, b.clear());
                        } catch (Throwable t) {
                            readerFailures.add(t);
                            Thread.currentThread().interrupt(); // goes on, cancelled still
                        }
                    }
                }));
            }
            AtomicLong writes = new AtomicLong();
            Throwable writerFailure = null;
            ByteBuffer src = ByteBuffer.allocate(512);
            long until = System.nanoTime() + 2_000_000_000L;
            try {
                while (System.nanoTime() < until) {
                    f.write(4096, src.clear());
                    f.read(8192, src.clear());
                    writes.incrementAndGet();
                }
            } catch (Throwable t) {
                writerFailure = t;
            }
            stop.set(true);
            for (Thread t : readers) {
                t.join();
            }
            assertTrue(writerFailure == null, "the writer, never interrupted, failed after " + writes + " writes: "
                    + writerFailure);
            assertTrue(readerFailures.isEmpty(), readerFailures.size() + " reads of the interrupted readers failed: "
                    + readerFailures.peek());
        }
    }
}
