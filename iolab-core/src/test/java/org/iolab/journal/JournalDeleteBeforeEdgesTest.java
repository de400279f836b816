package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Journal#deleteBefore(long)} at its edges: a read-only follower whose segment goes, a repair of a trimmed
 * journal, a verify overtaken by a deletion, a reader inside a deleted segment that grew since it was opened.
 */
class JournalDeleteBeforeEdgesTest {
    @TempDir
    Path tmp;

    private static JournalOptions options(Backend backend) {
        return JournalOptions.defaults().withBackend(backend).withSegmentSize(8192).withDurability(Durability.NONE)
                .withPreallocation(Preallocation.NONE);
    }

    private static void append(Journal j, long from, long to) {
        for (long i = from; i < to; i++) {
            assertEquals(i, j.append(Payloads.of(i, Payloads.size(i, 300))));
        }
    }

    private static List<Long> segmentStarts(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().map(Format::parseName)
                    .toList();
        }
    }

    /** D1: a follower idle while the writer rolls twice and deletes its tip segment never sees another record. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFollowerWhoseTipSegmentWasDeletedCatchesUp(Backend backend) throws Exception {
        JournalOptions o = options(backend);
        try (Journal writer = Journal.open(tmp, o)) {
            append(writer, 0, 10);
            try (Journal ro = Journal.openReadOnly(tmp, o)) {
                assertEquals(10, ro.nextSequence());
                append(writer, 10, 300);
                List<Long> starts = segmentStarts(tmp);
                long keep = starts.getLast();
                assertEquals(keep, writer.deleteBefore(keep));
                assertEquals(300, ro.nextSequence(), "the follower is stuck in deleted segment 0");
                assertEquals(keep, ro.firstSequence());
            }
        }
    }

    /** D2: repair of a trimmed journal whose first segment's header is damaged restarts sequences at 0. */
    @Test
    void repairOfATrimmedJournalNeverReusesDeletedSequences() throws Exception {
        JournalOptions o = options(Backend.DEFAULT);
        long first;
        try (Journal j = Journal.open(tmp, o)) {
            append(j, 0, 300);
            List<Long> starts = segmentStarts(tmp);
            first = j.deleteBefore(starts.get(starts.size() - 2));
        }
        assertTrue(first > 0);
        try (FileChannel ch = FileChannel.open(tmp.resolve(Format.fileName(first)), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0x55}), 0); // its magic: a damaged header
        }
        Journal.repair(tmp);
        try (Journal j = Journal.open(tmp, o)) {
            assertTrue(j.nextSequence() >= first, "after the repair the next append gets sequence "
                    + j.nextSequence() + ", a sequence deleted before " + first + " and already handed out");
        }
    }

    /** D3: verify beside a writer whose deleteBefore overtakes it (segments 0 and 1 go after verify read 0). */
    @Test
    void verifyBesideADeletionThatOvertakesIt() throws Exception {
        try (Journal j = Journal.open(tmp, options(Backend.CHANNEL_HEAP))) {
            append(j, 0, 300);
            List<Long> starts = segmentStarts(tmp);
            Path second = tmp.resolve(Format.fileName(starts.get(1)));
            AtomicBoolean deleted = new AtomicBoolean();
            StorageOpener opener = (file, writable) -> {
                if (file.equals(second) && deleted.compareAndSet(false, true)) {
                    j.deleteBefore(starts.get(2));
                }
                return Backend.CHANNEL_HEAP.open(file, writable);
            };
            VerifyReport report = Verifier.verify(tmp, opener);
            assertTrue(report.ok(), report.problems().toString());
        }
    }

    /**
     * D4: a reader that opened segment 0 while a mapped writer's file was one growth step (1 MiB) long, inside it
     * when it is deleted: it cannot read on (reopen by path), though the javadoc says it reads it to its end.
     */
    @Test
    void aReaderInsideADeletedSegmentThatGrewSinceReadsItToItsEnd() throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.MAPPED).withSegmentSize(4 << 20)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
        byte[] payload = new byte[1000];
        try (Journal j = Journal.open(tmp, o)) {
            j.append(payload);
            try (JournalReader r = j.reader(0)) {
                assertEquals(0, r.next().sequence());
                long n = 1;
                while (segmentStarts(tmp).size() < 2) {
                    j.append(payload);
                    n++;
                }
                long second = segmentStarts(tmp).get(1);
                assertEquals(second, j.deleteBefore(second));
                for (long s = 1; s < n; s++) {
                    assertTrue(r.hasNext(), "record " + s);
                    assertEquals(s, r.next().sequence());
                }
            }
        }
    }

    /** A follower opened on a fresh journal, whose first segment the writer fills, rolls past and deletes. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFollowerOpenedOnAFreshJournalCatchesUpAfterItsSegmentIsDeleted(Backend backend) throws Exception {
        JournalOptions o = options(backend);
        try (Journal writer = Journal.open(tmp, o); Journal ro = Journal.openReadOnly(tmp, o)) {
            assertEquals(0, ro.nextSequence());
            append(writer, 0, 300);
            long keep = segmentStarts(tmp).getLast();
            assertEquals(keep, writer.deleteBefore(keep));
            assertEquals(300, ro.nextSequence());
            assertEquals(keep, ro.firstSequence());
        }
    }
}
