package org.iolab.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread interrupted inside a {@code FileChannel} call closes the channel, for every thread. The backends open the
 * file again and make the call once more ({@link ReopeningChannel}), so an interrupted reader (a cancelled request)
 * neither fails itself nor the writer and the other readers; its interrupt status is kept. A sync that an interrupt
 * stops still counts as failed (whether it reached the device is unknown), but the file stays usable.
 */
class StorageInterruptTest {
    private static final int BLOCK = 4096;
    private static final int BLOCKS = 256;

    @TempDir
    Path dir;

    private static ByteBuffer block(int i, int round) {
        ByteBuffer b = ByteBuffer.allocate(BLOCK);
        for (int k = 0; k < BLOCK; k += 8) {
            b.putLong(k, ((long) round << 32) | i);
        }
        return b;
    }

    /** @return the round block {@code i} holds, checking that all of it holds the same one */
    private static int roundOf(ByteBuffer b, int i) {
        long first = b.getLong(0);
        assertEquals(i, (int) first, "block " + i + " holds another block's bytes");
        for (int k = 0; k < BLOCK; k += 8) {
            if (b.getLong(k) != first) {
                return -1; // a write of the block in progress: bytes of two rounds (no backend writes atomically)
            }
        }
        return (int) (first >>> 32);
    }

    /**
     * Readers are interrupted at random while they read and a writer writes: nobody fails, every read returns bytes
     * the writer wrote there, the interrupted readers keep their status, and the file holds the last round after.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void readersInterruptedWhileTheyReadFailNobody(Backend backend) throws Exception {
        Path p = dir.resolve("f");
        try (StorageFile f = backend.open(p, true)) {
            for (int i = 0; i < BLOCKS; i++) {
                f.write((long) i * BLOCK, block(i, 0));
            }
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicLong kept = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                int seed = r;
                readers.add(Thread.ofPlatform().start(() -> {
                    ByteBuffer b = ByteBuffer.allocate(BLOCK);
                    int i = seed;
                    while (!stop.get()) {
                        i = (i * 31 + 7) % BLOCKS;
                        try {
                            f.read((long) i * BLOCK, b.clear());
                            roundOf(b, i);
                        } catch (Throwable t) {
                            failures.add(t);
                            return;
                        }
                        if (Thread.interrupted()) {
                            kept.incrementAndGet(); // the status came back with the bytes
                        }
                    }
                }));
            }
            Thread interrupter = Thread.ofPlatform().start(() -> {
                java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
                while (!stop.get()) {
                    readers.get(rnd.nextInt(readers.size())).interrupt();
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000 + rnd.nextInt(200_000));
                }
            });
            int rounds = 0;
            long until = System.nanoTime() + 1_500_000_000L;
            while (System.nanoTime() < until && failures.isEmpty()) {
                rounds++;
                for (int i = 0; i < BLOCKS; i++) {
                    f.write((long) i * BLOCK, block(i, rounds));
                }
                f.force(false);
            }
            stop.set(true);
            interrupter.join();
            for (Thread t : readers) {
                t.join();
            }
            assertTrue(failures.isEmpty(), "a reader failed: " + failures.peek());
            assertTrue(kept.get() > 0, "no read was interrupted (the test proves nothing)");
            ByteBuffer b = ByteBuffer.allocate(BLOCK);
            for (int i = 0; i < BLOCKS; i++) {
                f.read((long) i * BLOCK, b.clear());
                assertEquals(rounds, roundOf(b, i), "block " + i);
            }
        }
    }

    /**
     * Every call made with an interrupt pending works (a sync too: the interrupt came before it) and keeps the status;
     * the file stays open for the others.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void callsWithAnInterruptPendingWorkAndKeepIt(Backend backend) {
        Path p = dir.resolve("f");
        try (StorageFile f = backend.open(p, true)) {
            for (int i = 0; i < 4; i++) {
                int k = i;
                pending(() -> f.write((long) k * BLOCK, block(k, 1)));
                pending(() -> assertEquals((k + 1L) * BLOCK, f.size()));
                ByteBuffer b = ByteBuffer.allocate(BLOCK);
                pending(() -> f.read((long) k * BLOCK, b.clear()));
                assertEquals(1, roundOf(b, k));
            }
            pending(() -> f.truncate(2L * BLOCK));
            assertEquals(2L * BLOCK, f.size());
            pending(() -> f.force(false));
            f.force(false);
        }
    }

    /**
     * A writer interrupted at random while it writes and syncs: a write is made again, a sync that an interrupt stopped
     * fails (whether it reached the device is unknown: the journal and the store count it as failed), naming the file,
     * and the file stays usable. (How often an interrupt lands inside a sync depends on the device: no count is
     * required.)
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"CHANNEL_HEAP", "CHANNEL_DIRECT", "RANDOM_ACCESS_FILE"})
    void aSyncStoppedByAnInterruptFailsButTheFileStaysUsable(Backend backend) throws Exception {
        Path p = dir.resolve("f");
        try (StorageFile f = backend.open(p, true)) {
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicLong syncFailures = new AtomicLong();
            int[] rounds = {0};
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    long until = System.nanoTime() + 700_000_000L;
                    while (System.nanoTime() < until) {
                        rounds[0]++;
                        for (int i = 0; i < 16; i++) {
                            f.write((long) i * BLOCK, block(i, rounds[0]));
                        }
                        try {
                            f.force(false);
                        } catch (IolabException e) {
                            if (!e.getMessage().contains(p.toString())) {
                                throw e;
                            }
                            syncFailures.incrementAndGet();
                        }
                        Thread.interrupted();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                } finally {
                    stop.set(true);
                }
            });
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
            while (!stop.get()) {
                writer.interrupt();
                java.util.concurrent.locks.LockSupport.parkNanos(20_000 + rnd.nextInt(300_000));
            }
            writer.join();
            assertTrue(failures.isEmpty(), "the writer failed: " + failures.peek());
            f.force(false);
            ByteBuffer b = ByteBuffer.allocate(BLOCK);
            for (int i = 0; i < 16; i++) {
                f.read((long) i * BLOCK, b.clear());
                assertEquals(rounds[0], roundOf(b, i), "block " + i + " (" + syncFailures + " syncs failed)");
            }
        }
    }

    /** A channel an interrupt closed (here: closed under it) is opened again on the same file, and the call made. */
    @Test
    void aChannelClosedUnderACallIsOpenedAgain() throws Exception {
        Path p = dir.resolve("f");
        ReopeningChannel c = new ReopeningChannel(p, true);
        try {
            Problems.writeFully(c, p, 0, block(0, 1));
            c.current().close(); // what an interrupt inside a call does
            ByteBuffer b = ByteBuffer.allocate(BLOCK);
            Problems.readFully(c, p, 0, b);
            assertEquals(1, roundOf(b, 0));
            c.current().close();
            c.force(false);
            c.force(false);
        } finally {
            c.close();
        }
        assertThrows(java.nio.channels.ClosedChannelException.class, () -> c.call(java.nio.channels.FileChannel::size),
                "closed for good");
    }

    /**
     * When the file a reader opened was replaced since (a journal's cut, a store's compaction: the writer renames a new
     * file over it), a channel closed under a call does not open the new file in its place: the call fails, and the
     * caller opens it again.
     */
    @Test
    void aFileReplacedSinceAReaderOpenedItIsNotOpenedInItsPlace() throws Exception {
        Path p = dir.resolve("f");
        Path other = dir.resolve("g");
        Files.write(p, block(0, 1).array());
        Files.write(other, new byte[BLOCK]);
        ReopeningChannel c = new ReopeningChannel(p, false);
        try {
            ByteBuffer b = ByteBuffer.allocate(BLOCK);
            Problems.readFully(c, p, 0, b);
            assertEquals(1, roundOf(b, 0));
            Files.move(other, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            c.current().close();
            IolabException e = assertThrows(IolabException.class, () -> Problems.readFully(c, p, 0, b.clear()));
            assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("open it again"),
                    e.getMessage());
        } finally {
            c.close();
        }
    }

    /** A closed file is not opened again by a call. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aClosedFileStaysClosed(Backend backend) {
        Path p = dir.resolve("f");
        StorageFile f = backend.open(p, true);
        f.write(0, block(0, 1));
        f.close();
        assertThrows(IolabException.class, () -> f.read(0, ByteBuffer.allocate(BLOCK)));
    }

    private static void pending(Runnable r) {
        Thread.currentThread().interrupt();
        try {
            r.run();
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
        }
    }
}
