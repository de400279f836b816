package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A read-only journal follows a writer it shares nothing with but the files (as another process would). */
class JournalReadOnlyTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aReadOnlyTailerFollowsAnotherWriter(Backend backend) throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withSegmentSize(8192)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
        int n = 1500;
        assertThrows(IolabException.class, () -> Journal.openReadOnly(tmp.resolve("missing"), o));
        try (Journal writer = Journal.open(tmp, o)) {
            writer.append(Payloads.of(0, Payloads.size(0, 300)));
            try (Journal ro = Journal.openReadOnly(tmp, o); Tailer tailer = ro.tailer(0)) {
                assertTrue(ro.isReadOnly());
                assertEquals(1, ro.nextSequence());
                assertThrows(IolabException.class, () -> ro.append(new byte[1]));
                CompletableFuture<Void> appends = CompletableFuture.runAsync(() -> {
                    for (int i = 1; i < n; i++) {
                        writer.append(Payloads.of(i, Payloads.size(i, 300)));
                    }
                });
                for (long seq = 0; seq < n; seq++) {
                    Record rec = tailer.poll(Duration.ofSeconds(10));
                    assertNotNull(rec, "timed out at " + seq);
                    assertEquals(seq, rec.sequence());
                    assertArrayEquals(Payloads.of(seq, Payloads.size(seq, 300)), rec.payload());
                }
                appends.get();
                assertTrue(writer.segmentCount() > 5);
                long[] count = {0};
                ro.read(0, (seq, payload) -> count[0]++ >= 0);
                assertEquals(n, count[0]);
            }
        }
        assertTrue(Files.exists(tmp.resolve("journal.lock")));
    }

    /**
     * A follower that has read up to a page boundary probes the length word there on its next poll. A mapped writer
     * that sealed or closed the segment meanwhile cut the file's zero tail to that boundary (before writers kept the
     * length: the test cuts it as they did), and the follower's
     * mapping, made while the file was longer, then has no page there: reading it raised SIGBUS (an InternalError
     * out of {@code poll}) once the follower kept its cursor between polls.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFollowerAtAPageBoundaryWhoseWriterCutsTheTailThereReadsNoFurther(Backend backend) throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withDurability(Durability.NONE)
                .withPreallocation(Preallocation.NONE);
        int payload = 4096 - Format.HEADER_SIZE - Format.FRAME_HEADER; // the record ends at 4096
        Journal writer = Journal.open(tmp, o);
        try (Journal ro = Journal.openReadOnly(tmp, o); Tailer tailer = ro.tailer(0)) {
            writer.append(Payloads.of(0, payload));
            Record first = tailer.poll(Duration.ofSeconds(10));
            assertNotNull(first);
            assertEquals(0, first.sequence());
            assertEquals(null, tailer.poll(Duration.ofMillis(5))); // probes the word at 4096 while the file is longer
            Path segment = tmp.resolve(Format.fileName(0));
            long length = Files.size(segment);
            writer.close();
            // close keeps the length now (a follower may have the file mapped); an iolab before that cut the zero tail
            // to the page boundary at close, and a follower must still cope with such a file
            assertEquals(length, Files.size(segment), "close keeps the segment's length");
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(segment,
                    java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(4096);
            }
            assertEquals(4096, Files.size(segment));
            for (int i = 0; i < 3; i++) {
                assertEquals(null, tailer.poll(Duration.ofMillis(5)));
                assertEquals(1, ro.nextSequence());
            }
            try (Journal again = Journal.open(tmp, o)) {
                again.append(Payloads.of(1, 10));
            }
            Record second = tailer.poll(Duration.ofSeconds(10));
            assertNotNull(second);
            assertEquals(1, second.sequence());
            assertArrayEquals(Payloads.of(1, 10), second.payload());
        } finally {
            writer.close();
        }
    }

    /** @return how many of this process's mappings are of a file whose name ends with {@code suffix} */
    private static long mappingsOf(String suffix) throws java.io.IOException {
        try (java.util.stream.Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(l -> l.endsWith(suffix)).count();
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void pollingAReadOnlyJournalKeepsOneCursorOnItsTip(Backend backend) throws Exception {
        // each refresh opened a cursor of its own: a file, a mapping the garbage collector releases and a 256 KiB
        // buffer, 260 µs a poll, and thousands of mappings of the segment piled up between collections
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withDurability(Durability.NONE);
        try (Journal writer = Journal.open(tmp, o); Journal ro = Journal.openReadOnly(tmp, o)) {
            writer.append(new byte[10]);
            String segment = Format.fileName(0);
            long before = mappingsOf(segment);
            for (int i = 0; i < 2000; i++) {
                assertEquals(1 + i / 2, ro.nextSequence());
                if (i % 2 == 1) {
                    writer.append(new byte[10 + i % 50]);
                }
            }
            long after = mappingsOf(segment);
            assertTrue(after <= before + 2, "mappings of " + segment + ": " + before + " before 2,000 polls, "
                    + after + " after");
            long[] count = {0};
            ro.read(0, (seq, payload) -> payload.remaining() == (seq == 0 ? 10 : 10 + (2 * (int) seq - 1) % 50)
                    && count[0]++ >= 0);
            assertEquals(1001, count[0]);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    @org.junit.jupiter.api.Timeout(value = 30, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aReadOnlyJournalWhoseLastSegmentIsEmptyOpensAndSeesLaterRecords(Backend backend) throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withDurability(Durability.NONE);
        Journal.open(tmp, o).close(); // a new journal: one segment, no record
        try (Journal ro = Journal.openReadOnly(tmp, o); Tailer tailer = ro.tailer(0)) {
            assertEquals(0, ro.nextSequence());
            assertEquals(null, tailer.poll(Duration.ofMillis(20)));
            try (Journal writer = Journal.open(tmp, o)) {
                writer.append(Payloads.of(0, 10));
            }
            Record rec = tailer.poll(Duration.ofSeconds(10));
            assertNotNull(rec);
            assertArrayEquals(Payloads.of(0, 10), rec.payload());
        }
    }

    /** Records under a damaged segment header are corruption for a read-only open too, as for a writer's open. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"RANDOM_ACCESS_FILE", "SEGMENT"})
    void aDamagedHeaderOverRecordsIsCorruptionForAReadOnlyOpen(Backend backend) throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withSegmentSize(4096)
                .withPreallocation(Preallocation.NONE).withDurability(Durability.NONE);
        for (int records : new int[] {1, 200}) {
            Path dir = tmp.resolve(backend + "-" + records);
            try (Journal j = Journal.open(dir, o)) {
                for (int i = 0; i < records; i++) {
                    j.append(new byte[40]);
                }
            }
            Path last = Journal.listSegments(dir).getLast();
            byte[] bytes = Files.readAllBytes(last);
            bytes[0] ^= 1;
            Files.write(last, bytes);
            JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                    () -> Journal.openReadOnly(dir, o).close());
            assertEquals(last, e.file());
            assertEquals(0, e.offset());
            assertThrows(JournalCorruptedException.class, () -> Journal.open(dir, o).close());
        }
    }
}
