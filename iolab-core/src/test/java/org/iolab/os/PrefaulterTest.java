package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.iolab.testing.DirtyPages;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrefaulterTest {
    private static final long SIZE = 4 << 20;
    private static final long AHEAD = 1 << 20;
    private static final long PAGE = 4096;
    private static final long IDLE_SPELL_MILLIS = Prefaulter.NEAR_AGAIN_NANOS / 1_000_000 + 20;

    @TempDir
    Path dir;

    @Test
    void afterTheOwnersSyncThePagesNearItsPositionAreWritableAgain() throws Exception {
        long at = 3 * PAGE; // the owner writes in the fourth page; it does not move (no idle-spell rule)
        try (Owner o = Owner.start(dir.resolve("ahead"), at + 8, AHEAD)) {
            // it populates 1 MiB per call, from the owner's page: up to 2 MiB past it
            assertEquals(AHEAD / PAGE, o.awaitDirty(at + AHEAD, AHEAD, AHEAD / PAGE), "populated ahead");
            o.sync(SIZE, true);
            o.prefaulter.synced();
            long near = Prefaulter.NEAR / PAGE;
            assertEquals(near, o.awaitDirty(at, Prefaulter.NEAR, near),
                    "the pages from the owner's on are writable again, its next stores do not fault");
            assertEquals(0, o.dirty(0, at), "pages it has passed stay clean");
            assertEquals(0, o.dirty(at + Prefaulter.NEAR, SIZE - at - Prefaulter.NEAR), "and those further on");
        }
    }

    @Test
    void aPositionMovingOnAfterAnIdleSpellGetsItsNearPagesWritableAgain() throws Exception {
        try (Owner o = Owner.start(dir.resolve("idle"), 0, 2 * AHEAD)) {
            assertEquals(2 * AHEAD / PAGE, o.awaitDirty(0, 2 * AHEAD, 2 * AHEAD / PAGE), "populated ahead");
            o.sync(AHEAD, false); // another process's sync while the owner is idle
            Thread.sleep(IDLE_SPELL_MILLIS);
            o.position.set(PAGE + 8);
            long near = Prefaulter.NEAR / PAGE;
            assertEquals(near, o.awaitDirty(PAGE, Prefaulter.NEAR, near), "writable again");
            assertEquals(0, o.dirty(0, PAGE), "the page it has passed stays clean");
        }
    }

    @Test
    void aPositionThatWentBackDirtiesNothing() throws Exception {
        try (Owner o = Owner.start(dir.resolve("left"), AHEAD, AHEAD)) {
            assertEquals(AHEAD / PAGE, o.awaitDirty(AHEAD, AHEAD, AHEAD / PAGE), "populated ahead");
            o.sync(2 * AHEAD, true);
            Thread.sleep(IDLE_SPELL_MILLIS);
            // a journal's tip moved to its next segment: the old segment's prefaulter sees a small offset
            o.position.set(64);
            Thread.sleep(50); // 250 of its polls
            assertEquals(0, o.dirty(0, SIZE), "the owner left: its synced pages stay clean");
        }
    }

    @Test
    void aPopulateAgainStartsNoLowerThanTheOwnersPositionReadUnderTheGuard() throws Exception {
        try (Owner o = Owner.start(dir.resolve("guarded"), 0, AHEAD)) {
            assertEquals(AHEAD / PAGE, o.awaitDirty(0, AHEAD, AHEAD / PAGE), "populated ahead");
            long at = 50 * PAGE;
            o.guard.lock();
            try {
                o.sync(AHEAD, false);
                // asked to populate again from 0 while the owner syncs; meanwhile the owner writes on into page 50
                // and syncs again
                o.prefaulter.synced();
                Thread.sleep(20);
                o.position.set(at + 8);
                o.sync(AHEAD, false);
            } finally {
                o.guard.unlock();
            }
            long near = (Prefaulter.NEAR - at) / PAGE;
            assertEquals(near, o.awaitDirty(at, Prefaulter.NEAR - at, near), "from the owner's page on");
            assertEquals(0, o.dirty(0, at), "nothing behind it");
        }
    }

    /** A file of {@link #SIZE} bytes, mapped, and a guarded prefaulter over it that follows {@link #position}. */
    private static final class Owner implements AutoCloseable {
        final Path file;
        final AtomicLong position;
        final ReentrantLock guard = new ReentrantLock();
        private final FileChannel channel;
        private final Arena arena = Arena.ofShared();
        private final MemorySegment mapping;
        final Prefaulter prefaulter;

        private Owner(Path file, long at, long ahead) throws IOException {
            this.file = file;
            this.position = new AtomicLong(at);
            channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            channel.write(ByteBuffer.allocate(1), SIZE - 1);
            channel.force(false);
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
            prefaulter = Prefaulter.start(mapping, 0, position::get, ahead, "test-prefault", false,
                    Prefaulter.BUSY_PARK).guardedBy(guard);
        }

        static Owner start(Path file, long at, long ahead) throws IOException {
            Owner o = new Owner(file, at, ahead);
            if (DirtyPages.count(file, 0, 1) < 0) {
                o.close();
                Assumptions.abort("needs cachestat (Linux 6.5+)");
            }
            return o;
        }

        long dirty(long offset, long length) {
            return DirtyPages.count(file, offset, length);
        }

        /** @return the dirty pages of the range once it has {@code want} (or after 10 s) */
        long awaitDirty(long offset, long length, long want) throws InterruptedException {
            long deadline = System.nanoTime() + 10_000_000_000L;
            long dirty = dirty(offset, length);
            while (dirty < want && System.nanoTime() < deadline) {
                Thread.sleep(2);
                dirty = dirty(offset, length);
            }
            return dirty;
        }

        /**
         * Writes the pages back and write-protects them, as any sync of the file does (the owner's, holding the
         * guard, or another process's); the test stops (skipped) when pages of {@code [0, checked)} are still dirty.
         */
        void sync(long checked, boolean owners) {
            if (owners) {
                guard.lock();
            }
            try {
                mapping.force();
            } finally {
                if (owners) {
                    guard.unlock();
                }
            }
            Assumptions.assumeTrue(dirty(0, checked) == 0, "msync left dirty pages");
        }

        @Override
        public void close() throws IOException {
            try {
                prefaulter.stop();
            } finally {
                arena.close();
                channel.close();
            }
        }
    }
}
