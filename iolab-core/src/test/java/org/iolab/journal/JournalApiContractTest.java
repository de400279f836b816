package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The journal's public API at its edges: payloads the caller's thread cannot read, heap segments over any array,
 * pending interrupts, closed readers and tailers, and the largest record of a segment over 2 GiB.
 */
@SuppressWarnings("restricted")
class JournalApiContractTest {
    @TempDir
    Path tmp;

    private static JournalOptions options(Backend b, Durability d) {
        return JournalOptions.defaults().withBackend(b).withSegmentSize(1 << 20).withDurability(d);
    }

    private static List<Record> readAll(Journal j) {
        List<Record> out = new ArrayList<>();
        try (JournalReader r = j.reader(0)) {
            r.forEachRemaining(out::add);
        }
        return out;
    }

    private static long openDescriptors() throws Exception {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    // ---------------------------------------------------------------- D1: JDK exception types leak from append

    @ParameterizedTest
    @EnumSource(Backend.class)
    void appendOfAClosedArenasSegmentThrowsTheRootTypeAndLeavesTheJournalUsable(Backend b) {
        try (Journal j = Journal.open(tmp, options(b, Durability.NONE))) {
            List<Throwable> thrown = new ArrayList<>();
            for (int size : new int[] {100, 64 << 10}) { // in place and written through the descriptor
                Arena arena = Arena.ofShared();
                MemorySegment m = arena.allocate(size);
                arena.close();
                thrown.add(assertThrows(RuntimeException.class, () -> j.append(m)));
                thrown.add(assertThrows(RuntimeException.class, () -> j.append(m.asByteBuffer())));
            }
            assertEquals(0, j.append(new byte[] {1, 2, 3}), "nothing was appended, the journal goes on");
            assertEquals(List.of(new Record(0, new byte[] {1, 2, 3})), readAll(j));
            for (Throwable t : thrown) {
                assertInstanceOf(IolabException.class, t, t.toString());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void appendOfAnotherThreadsConfinedSegmentThrowsTheRootType(Backend b) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<MemorySegment> made = new CompletableFuture<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (Arena a = Arena.ofConfined()) {
                made.complete(a.allocate(100));
                release.await();
            } catch (InterruptedException ignored) {
                // ends the owner
            }
        });
        try (Journal j = Journal.open(tmp, options(b, Durability.NONE))) {
            MemorySegment m = made.get();
            RuntimeException e = assertThrows(RuntimeException.class, () -> j.append(m));
            assertEquals(0, j.append(new byte[] {7}));
            assertInstanceOf(IolabException.class, e, e.toString());
        } finally {
            release.countDown();
            owner.join();
        }
    }

    // ---------------------------------------------------------------- D2: a valid heap segment is refused

    @ParameterizedTest
    @EnumSource(Backend.class)
    void appendsAHeapSegmentOverAnyPrimitiveArray(Backend b) {
        try (Journal j = Journal.open(tmp, options(b, Durability.NONE))) {
            MemorySegment longs = MemorySegment.ofArray(new long[] {0x0102030405060708L, -1L});
            MemorySegment ints = MemorySegment.ofArray(new int[] {42, 43, 44});
            assertEquals(0, j.append(longs)); // UnsupportedOperationException from asByteBuffer()
            assertEquals(1, j.append(ints));
            List<Record> all = readAll(j);
            assertArrayEquals(longs.toArray(ValueLayout.JAVA_BYTE), all.get(0).payload());
            assertArrayEquals(ints.toArray(ValueLayout.JAVA_BYTE), all.get(1).payload());
        }
    }

    // ---------------------------------------------------------------- D3: a pending interrupt

    @ParameterizedTest
    @EnumSource(Backend.class)
    void closeOnAnInterruptedThreadSyncsAndDoesNotThrow(Backend b) {
        Journal j = Journal.open(tmp, options(b, Durability.NONE));
        long seq = j.append(new byte[] {1, 2, 3});
        Thread.currentThread().interrupt();
        try {
            j.close(); // raf, channel-*: "cannot sync ... its channel is closed"; mapped, segment: "cannot set the length"
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
        }
        assertEquals(seq, j.durableSequence(), "close() syncs");
    }

    /**
     * Null arguments are an {@link IolabException} naming the argument, as the store's are: a review of the API found
     * NullPointerExceptions, and {@code read(0, null)} accepted on an empty journal.
     */
    @Test
    void nullArgumentsAreIolabExceptionsNamingThem() {
        try (Journal j = Journal.open(tmp, options(Backend.DEFAULT, Durability.NONE));
                Tailer t = j.tailer(0)) {
            Map<String, org.junit.jupiter.api.function.Executable> calls = new java.util.LinkedHashMap<>();
            calls.put("record", () -> j.append((byte[]) null));
            calls.put("record ", () -> j.append((java.nio.ByteBuffer) null));
            calls.put("record  ", () -> j.append((java.lang.foreign.MemorySegment) null));
            calls.put("visitor", () -> j.read(0, null));
            calls.put("timeout", () -> t.poll(null));
            calls.put("journal directory", () -> Journal.open(null, JournalOptions.defaults()));
            calls.put("journal options", () -> Journal.openReadOnly(tmp, null));
            calls.put("durability", () -> JournalOptions.defaults().withDurability(null));
            calls.put("backend", () -> JournalOptions.defaults().withBackend(null));
            calls.put("batchInterval", () -> JournalOptions.defaults().withBatch(null, 1));
            calls.put("preallocation", () -> JournalOptions.defaults().withPreallocation(null));
            calls.put("durability ", () -> Durability.parse(null));
            calls.forEach((what, call) -> {
                IolabException e = assertThrows(IolabException.class, call, what);
                assertTrue(e.getMessage().startsWith("null " + what.strip()), e.getMessage());
            });
            assertEquals(0, j.nextSequence(), "nothing was appended");
        }
    }

    /**
     * Opening, verifying and repairing with an interrupt pending: a review found that the open failed with "cannot
     * create the journal directory ...: an I/O error with no message" (the folder's sync closed by the interrupt).
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void openVerifyAndRepairWithAnInterruptPendingWorkAndKeepIt(Backend b) {
        Path dir = tmp.resolve("new").resolve("journal");
        Journal[] opened = new Journal[1];
        Thread.currentThread().interrupt();
        try {
            opened[0] = Journal.open(dir, options(b, Durability.ALWAYS));
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
        }
        try (Journal j = opened[0]) {
            j.append(new byte[] {1});
        }
        for (Runnable call : List.<Runnable>of(() -> assertTrue(Journal.verify(dir).ok()),
                () -> Journal.repair(dir, what -> { }),
                () -> Journal.openReadOnly(dir, options(b, Durability.NONE)).close())) {
            Thread.currentThread().interrupt();
            try {
                call.run();
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept");
            }
        }
        try (Journal j = Journal.open(dir, options(b, Durability.NONE))) {
            assertEquals(1, j.nextSequence());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"RANDOM_ACCESS_FILE", "CHANNEL_HEAP", "CHANNEL_DIRECT"})
    void anInterruptedAwaitDurableAtNoneDoesNotBreakTheJournalForGood(Backend b) {
        try (Journal j = Journal.open(tmp, options(b, Durability.NONE))) {
            long seq = j.append(new byte[] {1});
            Thread.currentThread().interrupt();
            try {
                j.awaitDurable(seq); // documented: may throw IolabException, interrupt status kept
            } catch (IolabException documented) {
                // allowed
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept");
            }
            // fails: "journal ... failed earlier and can no longer append or sync: ... its channel is closed"
            assertEquals(1, j.append(new byte[] {2}));
            j.sync();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"RANDOM_ACCESS_FILE", "CHANNEL_HEAP", "CHANNEL_DIRECT"})
    void anInterruptedAppenderAtAlwaysDoesNotBreakTheJournalForGood(Backend b) {
        try (Journal j = Journal.open(tmp, options(b, Durability.ALWAYS))) {
            Thread.currentThread().interrupt();
            try {
                j.append(new byte[] {1});
            } catch (IolabException tolerated) {
                // even an exception here would be acceptable; the journal dying for good is not
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept");
            }
            j.append(new byte[] {2});
            j.sync();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"MAPPED", "SEGMENT"})
    void anInterruptedAppenderThatRollsASegmentSucceeds(Backend b) {
        JournalOptions o = JournalOptions.defaults().withBackend(b).withSegmentSize(64 << 10)
                .withDurability(Durability.BATCH);
        try (Journal j = Journal.open(tmp, o)) {
            for (int i = 0; i < 60; i++) {
                j.append(new byte[1000]);
            }
            Thread.currentThread().interrupt();
            try {
                for (int i = 0; i < 10; i++) {
                    j.append(new byte[1000]); // the roll fails: "cannot get the size ... its channel is closed"
                }
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status is kept");
            }
            assertEquals(70, j.nextSequence());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"MAPPED", "SEGMENT"})
    void pollOnAnInterruptedThreadDoesNotThrow(Backend b) {
        // Backend's javadoc: only the FileChannel backends' readers must not be interrupted
        try (Journal j = Journal.open(tmp, options(b, Durability.NONE))) {
            j.append(new byte[] {1});
            try (Tailer t = j.tailer(0)) {
                Thread.currentThread().interrupt();
                try {
                    Record r = t.poll(Duration.ofMillis(100)); // mapped, segment: IolabException "channel is closed"
                    assertNotNull(r);
                    assertEquals(0, r.sequence());
                } finally {
                    assertTrue(Thread.interrupted(), "the interrupt status is kept");
                }
            }
        }
    }

    // ---------------------------------------------------------------- D4: closed readers and tailers

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aClosedReaderOrTailerRefusesToReadAndOpensNoFile(Backend b) throws Exception {
        try (Journal j = Journal.open(tmp, options(b, Durability.NONE))) {
            j.append(new byte[] {1});
            long before = openDescriptors();
            List<Throwable> refusals = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                JournalReader r = j.reader(0);
                r.close();
                r.close(); // twice: fine
                try {
                    r.hasNext(); // re-opens the segment file; nothing closes it again
                } catch (RuntimeException e) {
                    refusals.add(e);
                }
                Tailer t = j.tailer(0);
                t.close();
                try {
                    t.poll(Duration.ZERO);
                } catch (RuntimeException e) {
                    refusals.add(e);
                }
            }
            long leaked = openDescriptors() - before;
            assertTrue(leaked < 10, leaked + " file descriptors leaked by closed readers and tailers");
            assertEquals(100, refusals.size(), "a closed reader or tailer must refuse to read");
            for (Throwable e : refusals) {
                assertInstanceOf(IolabException.class, e);
            }
        }
    }

    // ---------------------------------------------------------------- D5: the record-size limit message

    @Test
    void theTooLargeRecordMessageNamesTheRealLimitWhenSegmentsExceed2GiB() {
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP)
                .withPreallocation(Preallocation.NONE).withSegmentSize(4L << 30).withDurability(Durability.NONE);
        assertEquals(Integer.MAX_VALUE - 64, o.maxRecordSize()); // not 4 GiB - 80 as withSegmentSize's javadoc says
        try (Journal j = Journal.open(tmp, o)) {
            // no memory is touched: the size check comes first
            IolabException buffer = assertThrows(IolabException.class,
                    () -> j.append(MemorySegment.NULL.reinterpret(Integer.MAX_VALUE - 8).asByteBuffer()));
            IolabException segment = assertThrows(IolabException.class,
                    () -> j.append(MemorySegment.NULL.reinterpret(3L << 30)));
            assertEquals(0, j.append(new byte[] {1}));
            // "(2147483583 bytes: the segment size 4294967296 minus 80) ... use a larger segment size"
            assertFalse(buffer.getMessage().contains("minus 80"), buffer.getMessage());
            assertFalse(buffer.getMessage().contains("larger segment size"), buffer.getMessage());
            assertFalse(segment.getMessage().contains("larger segment size"), segment.getMessage());
        }
    }
}
