package org.iolab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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

    @TempDir
    Path dir;

    @Test
    void afterTheOwnersSyncThePagesNearItsPositionAreWritableAgain() throws Exception {
        Path file = dir.resolve("ahead");
        long at = 3 * PAGE + 8; // the owner writes in the fourth page; it does not move (no idle-spell rule)
        AtomicLong position = new AtomicLong(at);
        ReentrantLock guard = new ReentrantLock();
        try (FileChannel ch = create(file); Arena arena = Arena.ofShared()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
            Prefaulter p = Prefaulter.start(m, 0, position::get, AHEAD, "test-prefault", false,
                    Prefaulter.BUSY_PARK).guardedBy(guard);
            try {
                // it populates 1 MiB per call, from the owner's page: up to 2 MiB past it
                long end = 3 * PAGE + 2 * AHEAD;
                assertEquals(AHEAD / PAGE, awaitDirty(file, end - AHEAD, AHEAD, AHEAD / PAGE), "populated ahead");
                sync(file, SIZE, m, guard);
                p.synced();
                long near = Prefaulter.NEAR / PAGE;
                assertEquals(near, awaitDirty(file, 3 * PAGE, Prefaulter.NEAR, near),
                        "the pages from the owner's on are writable again, its next stores do not fault");
                assertEquals(0, DirtyPages.count(file, 0, 3 * PAGE), "pages it has passed stay clean");
                assertEquals(0, DirtyPages.count(file, 3 * PAGE + Prefaulter.NEAR, SIZE - 3 * PAGE - Prefaulter.NEAR),
                        "and those further on");
            } finally {
                p.stop();
            }
        }
    }

    @Test
    void aPositionMovingOnAfterAnIdleSpellGetsItsNearPagesWritableAgain() throws Exception {
        Path file = dir.resolve("idle");
        AtomicLong position = new AtomicLong(0);
        ReentrantLock guard = new ReentrantLock();
        try (FileChannel ch = create(file); Arena arena = Arena.ofShared()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
            Prefaulter p = Prefaulter.start(m, 0, position::get, 2 * AHEAD, "test-prefault", false,
                    Prefaulter.BUSY_PARK).guardedBy(guard);
            try {
                assertEquals(2 * AHEAD / PAGE, awaitDirty(file, 0, 2 * AHEAD, 2 * AHEAD / PAGE), "populated ahead");
                // another process's sync while the owner is idle
                sync(file, AHEAD, m, null);
                Thread.sleep(Prefaulter.NEAR_AGAIN_NANOS / 1_000_000 + 20);
                position.set(PAGE + 8);
                long near = Prefaulter.NEAR / PAGE;
                assertEquals(near, awaitDirty(file, PAGE, Prefaulter.NEAR, near), "writable again");
                assertEquals(0, DirtyPages.count(file, 0, PAGE), "the page it has passed stays clean");
            } finally {
                p.stop();
            }
        }
    }

    @Test
    void aPositionThatWentBackDirtiesNothing() throws Exception {
        Path file = dir.resolve("left");
        AtomicLong position = new AtomicLong(AHEAD);
        ReentrantLock guard = new ReentrantLock();
        try (FileChannel ch = create(file); Arena arena = Arena.ofShared()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
            Prefaulter p = Prefaulter.start(m, 0, position::get, AHEAD, "test-prefault", false,
                    Prefaulter.BUSY_PARK).guardedBy(guard);
            try {
                assertEquals(AHEAD / PAGE, awaitDirty(file, AHEAD, AHEAD, AHEAD / PAGE), "populated ahead");
                sync(file, 2 * AHEAD, m, guard);
                Thread.sleep(Prefaulter.NEAR_AGAIN_NANOS / 1_000_000 + 20);
                // a journal's tip moved to its next segment: the old segment's prefaulter sees a small offset
                position.set(64);
                Thread.sleep(50); // 250 of its polls
                assertEquals(0, DirtyPages.count(file, 0, SIZE), "the owner left: its synced pages stay clean");
            } finally {
                p.stop();
            }
        }
    }

    @Test
    void aPopulateAgainStartsNoLowerThanTheOwnersPositionReadUnderTheGuard() throws Exception {
        Path file = dir.resolve("guarded");
        AtomicLong position = new AtomicLong(0);
        ReentrantLock guard = new ReentrantLock();
        try (FileChannel ch = create(file); Arena arena = Arena.ofShared()) {
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena);
            Prefaulter p = Prefaulter.start(m, 0, position::get, AHEAD, "test-prefault", false,
                    Prefaulter.BUSY_PARK).guardedBy(guard);
            try {
                assertEquals(AHEAD / PAGE, awaitDirty(file, 0, AHEAD, AHEAD / PAGE), "populated ahead");
                long at = 50 * PAGE + 8;
                guard.lock();
                try {
                    sync(file, AHEAD, m, null);
                    // asked to populate again from 0 while the owner syncs; meanwhile the owner writes on into
                    // page 50 and syncs again
                    p.synced();
                    Thread.sleep(20);
                    position.set(at);
                    sync(file, AHEAD, m, null);
                } finally {
                    guard.unlock();
                }
                long near = Prefaulter.NEAR / PAGE - 50;
                assertEquals(near, awaitDirty(file, 50 * PAGE, Prefaulter.NEAR - 50 * PAGE, near),
                        "from the owner's page on");
                assertEquals(0, DirtyPages.count(file, 0, 50 * PAGE), "nothing behind it");
            } finally {
                p.stop();
            }
        }
    }

    /**
     * Writes the pages back and write-protects them, as any sync of the file does, holding the guard if any; the test
     * stops (skipped) when pages of {@code [0, checked)} are still dirty after it.
     */
    private static void sync(Path file, long checked, MemorySegment m, ReentrantLock guard) {
        if (guard != null) {
            guard.lock();
        }
        try {
            m.force();
        } finally {
            if (guard != null) {
                guard.unlock();
            }
        }
        Assumptions.assumeTrue(DirtyPages.count(file, 0, checked) == 0, "msync left dirty pages");
    }

    private static FileChannel create(Path file) throws Exception {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        ch.write(ByteBuffer.allocate(1), SIZE - 1);
        ch.force(false);
        Assumptions.assumeTrue(DirtyPages.count(file, 0, SIZE) == 0, "needs cachestat (Linux 6.5+)");
        return ch;
    }

    /** @return the dirty pages of the range once it has {@code want} (or after 10 s) */
    private static long awaitDirty(Path file, long offset, long length, long want) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long dirty = DirtyPages.count(file, offset, length);
        while (dirty < want && System.nanoTime() < deadline) {
            Thread.sleep(2);
            dirty = DirtyPages.count(file, offset, length);
        }
        return dirty;
    }
}
