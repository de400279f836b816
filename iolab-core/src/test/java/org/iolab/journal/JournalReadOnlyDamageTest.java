package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only journal whose last segment's records end at damage below its synced mark: its readers get the records
 * before it, then the damage, and only there.
 */
class JournalReadOnlyDamageTest {
    static final int PAYLOAD = 96; // frame 112, no padding

    @TempDir
    Path tmp;

    /**
     * A tailer (thread 1) and another thread's refresh (thread 2, nextSequence) race when a new last segment appears
     * whose records end at damage below its synced mark: the tailer returns every record of that segment before the
     * damage, then throws (a review found 9 of 300 threw at once, or stopped early).
     */
    @Test
    void aTailerReturnsTheRecordsBeforeDamageWhenAnotherThreadRefreshed() throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP).withSegmentSize(64 << 10)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
        Path src = tmp.resolve("src");
        long total;
        try (Journal j = Journal.open(src, o)) {
            while (Journal.listSegments(src).size() < 2) {
                j.append(Payloads.of(j.nextSequence(), PAYLOAD));
            }
            for (int i = 0; i < 49; i++) {
                j.append(Payloads.of(j.nextSequence(), PAYLOAD));
            }
            total = j.nextSequence();
        }
        List<Path> segs = Journal.listSegments(src);
        Path a = segs.get(0);
        Path b = segs.get(1);
        long bFirst = Format.parseName(b);
        long records = total - bFirst; // in b
        long damageAt = Format.HEADER_SIZE + (records - 1) * 112;
        try (FileChannel ch = FileChannel.open(b, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xA5}), damageAt + 16 + 5);
        }
        int premature = 0;
        String first = null;
        for (int iter = 0; iter < 300; iter++) {
            Path dir = tmp.resolve("r" + iter);
            Files.createDirectories(dir);
            Files.copy(a, dir.resolve(a.getFileName()));
            try (Journal ro = Journal.openReadOnly(dir, o); Tailer t = ro.tailer(bFirst - 1)) {
                assertEquals(bFirst - 1, t.poll(Duration.ofSeconds(1)).sequence());
                Files.copy(b, dir.resolve("b.tmp"));
                Files.move(dir.resolve("b.tmp"), dir.resolve(b.getFileName()), StandardCopyOption.ATOMIC_MOVE);
                AtomicBoolean stop = new AtomicBoolean();
                Thread other = Thread.ofPlatform().start(() -> {
                    while (!stop.get()) {
                        try {
                            ro.nextSequence();
                        } catch (RuntimeException e) {
                            return;
                        }
                    }
                });
                List<Long> got = new ArrayList<>();
                JournalCorruptedException error = null;
                try {
                    for (;;) {
                        org.iolab.journal.Record r = t.poll(Duration.ofSeconds(2));
                        if (r == null) {
                            break;
                        }
                        got.add(r.sequence());
                    }
                } catch (JournalCorruptedException e) {
                    error = e;
                }
                stop.set(true);
                other.join();
                if (error == null) {
                    fail("iteration " + iter + ": no error after " + got);
                }
                if (got.size() != records - 1 || error.offset() != damageAt) {
                    premature++;
                    if (first == null) {
                        first = "iteration " + iter + ": got " + got.size() + " of the " + (records - 1)
                                + " records of " + b.getFileName() + " before the damage, then: " + error.getMessage();
                    }
                }
            }
        }
        assertEquals(0, premature, premature + " of 300 tailers threw before the records ahead of the damage; first: "
                + first);
    }

    /**
     * The records below the synced mark were missing when a read-only journal first looked (zeros there: a copy of the
     * journal still being written, say), then they are there, in the same file: the tip moves past where the damage was,
     * and every record reads (the damage first seen was still reported, at the new tip: a review found it).
     */
    @Test
    void damageOnceSeenIsNotReportedAfterTheRecordsAreThere() throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP).withSegmentSize(1 << 20)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.FALLOCATE);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < 20; i++) {
                j.append(Payloads.of(i, 96));
            }
        }
        Path seg = Journal.listSegments(dir).getFirst();
        long at = Format.HEADER_SIZE + 15 * 112L;
        long end = Format.HEADER_SIZE + 20 * 112L;
        byte[] saved = new byte[(int) (end - at)];
        try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.read(ByteBuffer.wrap(saved), at);
            ch.write(ByteBuffer.wrap(new byte[saved.length]), at); // not there yet
        }
        try (Journal ro = Journal.openReadOnly(dir, o)) {
            assertEquals(15, ro.nextSequence());
            // the bytes arrive (in place, same file)
            try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(saved), at);
            }
            assertTrue(Journal.verify(dir).ok(), "the journal is whole now");
            assertEquals(20, ro.nextSequence(), "the tip moved past the old damage");
            List<Long> seqs = new ArrayList<>();
            ro.read(0, (s, p) -> seqs.add(s)); // threw the old damage at offset 1744
            assertEquals(20, seqs.size());
        }
    }
}
