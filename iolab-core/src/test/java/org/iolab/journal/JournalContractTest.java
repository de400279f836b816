package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.SmallWindows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The same contract over every storage backend. */
class JournalContractTest {
    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend) {
        return JournalOptions.defaults().withBackend(backend);
    }

    private static List<Record> readAll(Journal j, long from) {
        List<Record> out = new ArrayList<>();
        try (JournalReader r = j.reader(from)) {
            while (r.hasNext()) {
                out.add(r.next());
            }
        }
        return out;
    }

    /**
     * A mapped segment larger than one window: readers check and hand out the records of the first window in place,
     * then go on through the read buffer, across a record that straddles the boundary, with the same results.
     */
    @Test
    void recordsAcrossMappedWindowBoundariesReadTheSameInPlaceAndThroughTheBuffer() {
        JournalOptions o = options(Backend.MAPPED).withSegmentSize(64 * 1024).withDurability(Durability.NONE)
                .withOpener((file, writable) -> SmallWindows.mapped(file, writable, 12));
        int n = 1500;
        try (Journal j = Journal.open(tmp, o)) {
            for (int i = 0; i < n; i++) {
                j.append(Payloads.of(i, Payloads.size(i, 700)));
            }
            for (long from : new long[] {0, 3, 41, n - 1}) {
                List<Record> all = readAll(j, from);
                assertEquals(n - from, all.size(), "from " + from);
                long[] next = {from};
                long visited = j.read(from, (seq, payload) -> {
                    assertEquals(next[0]++, seq);
                    assertTrue(payload.isReadOnly());
                    byte[] copy = new byte[payload.remaining()];
                    payload.get(copy);
                    assertArrayEquals(Payloads.of(seq, Payloads.size(seq, 700)), copy, "record " + seq);
                    return true;
                });
                assertEquals(n - from, visited);
                for (Record r : all) {
                    assertEquals(new Record(r.sequence(), Payloads.of(r.sequence(),
                            Payloads.size(r.sequence(), 700))), r);
                }
            }
            assertTrue(Journal.listSegments(tmp).size() > 3, "the records fill several segments");
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void roundTripsEverySizeAndRejectsARecordLargerThanASegment(Backend backend) {
        int[] sizes = {0, 1, 64, 4096, 65536};
        JournalOptions o = options(backend).withSegmentSize(256 * 1024);
        try (Journal j = Journal.open(tmp, o)) {
            for (int i = 0; i < sizes.length; i++) {
                assertEquals(i, j.append(Payloads.of(i, sizes[i])));
            }
            assertEquals(5, j.append(ByteBuffer.wrap(Payloads.of(5, 100))));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = arena.allocate(77);
                m.copyFrom(MemorySegment.ofArray(Payloads.of(6, 77)));
                assertEquals(6, j.append(m));
            }
            IolabException tooBig = assertThrows(IolabException.class, () -> j.append(new byte[256 * 1024]));
            assertTrue(tooBig.getMessage().contains(String.valueOf(o.maxRecordSize())), tooBig.getMessage());
            j.append(new byte[(int) o.maxRecordSize()]);
            assertEquals(8, j.nextSequence());

            List<Record> all = readAll(j, 0);
            assertEquals(8, all.size());
            for (int i = 0; i < sizes.length; i++) {
                assertEquals(new Record(i, Payloads.of(i, sizes[i])), all.get(i));
            }
            assertArrayEquals(Payloads.of(6, 77), all.get(6).payload());
            long[] seen = {0};
            long visited = j.read(2, (seq, payload) -> {
                assertTrue(payload.isReadOnly());
                byte[] copy = new byte[payload.remaining()];
                payload.get(copy);
                if (seq < sizes.length) {
                    assertArrayEquals(Payloads.of(seq, sizes[(int) seq]), copy);
                }
                seen[0]++;
                return seq < 4;
            });
            assertEquals(3, visited);
            assertEquals(3, seen[0]);
            assertThrows(IolabException.class, () -> j.reader(9));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void readHandsOutEveryRecordOnceAcrossBuffersAndSegmentsAndStopsWhereTheVisitorSays(Backend backend) {
        // small records (read in runs from the read buffer), some large ones (read one by one), over several
        // 256 KiB read buffers and 1 MiB segments, the last one active
        JournalOptions o = options(backend).withSegmentSize(1 << 20).withDurability(Durability.NONE);
        int n = 40_000;
        try (Journal j = Journal.open(tmp, o)) {
            for (int i = 0; i < n; i++) {
                j.append(Payloads.of(i, i % 997 == 0 ? 5000 : i % 61));
            }
            for (long from : new long[] {0, 1, 12_345, n - 1}) {
                for (long stopAt : new long[] {from, from + 7, from + 20_000, Long.MAX_VALUE}) {
                    long[] expect = {from};
                    long visited = j.read(from, (seq, payload) -> {
                        assertEquals(expect[0], seq);
                        byte[] copy = new byte[payload.remaining()];
                        int at = payload.position();
                        payload.get(copy);
                        // the view may be shared by the records of a run: moving it must not disturb the next one
                        payload.limit(at).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                        assertArrayEquals(Payloads.of(seq, seq % 997 == 0 ? 5000 : (int) (seq % 61)), copy);
                        expect[0]++;
                        return seq < stopAt;
                    });
                    long last = Math.min(stopAt, n - 1);
                    assertEquals(last - from + 1, visited, "from " + from + " stop at " + stopAt);
                    assertEquals(last + 1, expect[0]);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void rollsSegmentsAndReopenContinuesTheSequence(Backend backend) {
        JournalOptions o = options(backend).withSegmentSize(4096).withDurability(Durability.NONE);
        int n = 600;
        try (Journal j = Journal.open(tmp, o)) {
            for (int i = 0; i < n; i++) {
                assertEquals(i, j.append(Payloads.of(i, Payloads.size(i, 300))));
            }
            assertTrue(j.segmentCount() > 10, "segments: " + j.segmentCount());
            check(readAll(j, 0), 0, n);
            check(readAll(j, 417), 417, n);
        }
        try (Journal j = Journal.open(tmp, o)) {
            assertEquals(n, j.nextSequence());
            assertEquals(n - 1, j.durableSequence());
            check(readAll(j, 0), 0, n);
            for (int i = n; i < n + 100; i++) {
                assertEquals(i, j.append(Payloads.of(i, Payloads.size(i, 300))));
            }
        }
        try (Journal j = Journal.open(tmp, o)) {
            check(readAll(j, 0), 0, n + 100);
        }
        VerifyReport report = Journal.verify(tmp);
        assertTrue(report.problems().isEmpty(), report.problems().toString());
        assertEquals(n + 100, report.records());
    }

    static void check(List<Record> records, long from, long to) {
        assertEquals(to - from, records.size());
        for (int i = 0; i < records.size(); i++) {
            long seq = from + i;
            assertEquals(new Record(seq, Payloads.of(seq, Payloads.size(seq, 300))), records.get(i), "record " + seq);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void concurrentReadersWhileWritingAndATailerInAnotherThread(Backend backend) throws Exception {
        JournalOptions o = options(backend).withSegmentSize(16 * 1024).withPreallocation(Preallocation.NONE);
        int n = 3000;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (Journal j = Journal.open(tmp, o); Tailer tailer = j.tailer(0)) {
            List<Future<Long>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> {
                    long next = 0;
                    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while (next < n && System.nanoTime() < deadline) {
                        try (JournalReader reader = j.reader(next)) {
                            while (reader.hasNext()) {
                                Record rec = reader.next();
                                assertEquals(next, rec.sequence());
                                assertArrayEquals(Payloads.of(next, Payloads.size(next, 300)), rec.payload());
                                next++;
                            }
                        }
                    }
                    return next;
                }));
            }
            Future<?> writer = pool.submit(() -> {
                for (int i = 0; i < n; i++) {
                    j.append(Payloads.of(i, Payloads.size(i, 300)));
                    if (i % 500 == 0) {
                        Thread.sleep(5);
                    }
                }
                return null;
            });
            for (long seq = 0; seq < n; seq++) {
                Record rec = tailer.poll(Duration.ofSeconds(10));
                assertNotNull(rec, "tailer timed out at " + seq);
                assertEquals(seq, rec.sequence());
                assertArrayEquals(Payloads.of(seq, Payloads.size(seq, 300)), rec.payload());
            }
            writer.get();
            for (Future<Long> r : readers) {
                assertEquals(n, r.get());
            }
            long t0 = System.nanoTime();
            assertEquals(null, tailer.poll(Duration.ofMillis(50)));
            assertTrue(System.nanoTime() - t0 >= Duration.ofMillis(45).toNanos());
            assertEquals(n, tailer.nextSequence());
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void largeRecordsAtBatchAndAlwaysRoundTripThroughATailerAndAReopen(Backend backend) {
        // at BATCH and ALWAYS a mapped backend writes frames of 16 KiB and more through the file descriptor
        int[] sizes = {Journal.WRITE_THROUGH_MIN - 16, Journal.WRITE_THROUGH_MIN + 3, 65536, 100_001, 7, 70_000};
        for (Durability d : List.of(Durability.BATCH, Durability.ALWAYS)) {
            java.nio.file.Path dir = tmp.resolve("large-" + d);
            JournalOptions o = options(backend).withDurability(d).withSegmentSize(256 * 1024);
            try (Journal j = Journal.open(dir, o); Tailer tailer = j.tailer(0)) {
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < sizes.length; i++) {
                        long seq = round * sizes.length + i;
                        assertEquals(seq, j.append(Payloads.of(seq, sizes[i])));
                        Record rec = tailer.poll(Duration.ofSeconds(10));
                        assertNotNull(rec, "tailer timed out at " + seq);
                        assertEquals(new Record(seq, Payloads.of(seq, sizes[i])), rec, d + " record " + seq);
                    }
                }
                j.sync();
            }
            try (Journal j = Journal.open(dir, o)) {
                List<Record> all = readAll(j, 0);
                assertEquals(3 * sizes.length, all.size(), d.toString());
                for (int k = 0; k < all.size(); k++) {
                    assertEquals(new Record(k, Payloads.of(k, sizes[k % sizes.length])), all.get(k), d + " after reopen");
                }
            }
            VerifyReport report = Journal.verify(dir);
            assertTrue(report.ok(), d + ": " + report);
        }
    }

    @org.junit.jupiter.api.Test
    void anInterruptedAppenderDoesNotBreakTheSegmentBackendsLargeAppends() {
        // large frames at BATCH go through the file descriptor; an interrupt must not close it for good
        java.nio.file.Path dir = tmp.resolve("interrupted");
        JournalOptions o = options(Backend.SEGMENT).withDurability(Durability.BATCH);
        try (Journal j = Journal.open(dir, o)) {
            Thread.currentThread().interrupt();
            try {
                assertEquals(0, j.append(Payloads.of(0, 65536)));
                assertTrue(Thread.currentThread().isInterrupted(), "the append swallowed the interrupt");
            } finally {
                Thread.interrupted();
            }
            assertEquals(1, j.append(Payloads.of(1, 65536)));
            assertEquals(2, j.append(Payloads.of(2, 100)));
            j.sync();
            List<Record> all = readAll(j, 0);
            assertEquals(List.of(new Record(0, Payloads.of(0, 65536)), new Record(1, Payloads.of(1, 65536)),
                    new Record(2, Payloads.of(2, 100))), all);
        }
        assertTrue(Journal.verify(dir).ok());
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void durabilityLevels(Backend backend) {
        try (Journal j = Journal.open(tmp.resolve("always"), options(backend).withDurability(Durability.ALWAYS))) {
            for (int i = 0; i < 20; i++) {
                long seq = j.append(Payloads.of(i, 100));
                assertEquals(seq, j.durableSequence());
            }
        }
        try (Journal j = Journal.open(tmp.resolve("batch"), options(backend).withDurability(Durability.BATCH)
                .withBatch(Duration.ofMillis(2), 1L << 20))) {
            long seq = -1;
            for (int i = 0; i < 50; i++) {
                seq = j.append(Payloads.of(i, 100));
            }
            j.awaitDurable(seq);
            assertTrue(j.durableSequence() >= seq);
            long later = j.append(Payloads.of(50, 100));
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (j.durableSequence() < later && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(later, j.durableSequence(), "the group commit thread made the record durable");
            assertThrows(IolabException.class, () -> j.awaitDurable(later + 1));
        }
        try (Journal j = Journal.open(tmp.resolve("bytes"), options(backend).withDurability(Durability.BATCH)
                .withBatch(Duration.ofSeconds(60), 1000))) {
            // frames of 100-byte records take 120 bytes: at most BACKLOG_BATCHES batches of 1000 bytes stay unsynced
            long backlog = Journal.BACKLOG_BATCHES * 1000L / 120 + 1;
            long seq = -1;
            for (int i = 0; i < 300; i++) {
                seq = j.append(Payloads.of(i, 100));
                assertTrue(seq - j.durableSequence() <= backlog, "record " + seq + " appended with only "
                        + j.durableSequence() + " durable: the appender ran more than the backlog ahead");
            }
            // the 60 s timer never fires here: only the byte threshold can have synced
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (j.durableSequence() < seq - 9 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(j.durableSequence() >= seq - 9, "the byte threshold synced: " + j.durableSequence());
        }
        try (Journal j = Journal.open(tmp.resolve("none"), options(backend).withDurability(Durability.NONE))) {
            long seq = j.append(Payloads.of(0, 100));
            assertEquals(-1, j.durableSequence());
            j.sync();
            assertEquals(seq, j.durableSequence());
            long next = j.append(Payloads.of(1, 100));
            j.awaitDurable(next);
            assertEquals(next, j.durableSequence());
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aSecondWriterIsRefused(Backend backend) {
        try (Journal j = Journal.open(tmp, options(backend))) {
            j.append(new byte[] {1});
            JournalLockedException e = assertThrows(JournalLockedException.class,
                    () -> Journal.open(tmp, options(backend)));
            assertTrue(e.getMessage().contains("journal.lock"), e.getMessage());
        }
        try (Journal j = Journal.open(tmp, options(backend))) {
            assertEquals(1, j.nextSequence());
        }
    }

    @Test
    void aWriterInAnotherProcessIsRefused() throws Exception {
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(javaCommand, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), LockProbe.class.getName(), tmp.toString())
                .redirectErrorStream(true);
        try (Journal j = Journal.open(tmp, JournalOptions.defaults())) {
            j.append(new byte[] {1});
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), out);
            assertEquals("locked", out.strip());
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertEquals("opened 1", out.strip());
    }

    @Test
    void everyPreallocationWorks() {
        for (Preallocation p : Preallocation.values()) {
            Path dir = tmp.resolve(p.label());
            JournalOptions o = JournalOptions.defaults().withSegmentSize(8192).withPreallocation(p);
            try (Journal j = Journal.open(dir, o)) {
                for (int i = 0; i < 200; i++) {
                    j.append(Payloads.of(i, Payloads.size(i, 300)));
                }
            }
            try (Journal j = Journal.open(dir, o)) {
                check(readAll(j, 0), 0, 200);
            }
            assertTrue(Journal.verify(dir).ok());
            assertFalse(Journal.verify(dir).problems().stream().anyMatch(x -> !x.recoverable()));
        }
    }
}
