package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a journal does when things go wrong around it: closed under a waiting tailer, a frame write that fails part
 * way, a repaired segment that becomes the active one again (found by a review, each failed before its fix).
 */
@Timeout(60)
class JournalFailureModesTest {
    @TempDir
    Path tmp;

    private static JournalOptions small(Durability durability) {
        return JournalOptions.defaults().withBackend(Backend.CHANNEL_HEAP).withSegmentSize(4096)
                .withDurability(durability).withPreallocation(Preallocation.FALLOCATE);
    }

    private static List<Long> sequences(Journal j) {
        List<Long> seqs = new ArrayList<>();
        j.read(0, (seq, payload) -> seqs.add(seq));
        return seqs;
    }

    @Test
    void aTailerWaitingWhenTheJournalClosesReturnsAtOnceWithoutSpinning() throws Exception {
        Journal j = Journal.open(tmp, small(Durability.NONE).withPreallocation(Preallocation.NONE));
        j.append(new byte[10]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        AtomicLong cpu = new AtomicLong();
        AtomicLong wall = new AtomicLong();
        List<Object> polled = new ArrayList<>();
        try (Tailer tailer = j.tailer(0)) {
            Thread t = Thread.ofPlatform().start(() -> {
                polled.add(tailer.poll(Duration.ofSeconds(1)));
                long w0 = System.nanoTime();
                long c0 = mx.getCurrentThreadCpuTime();
                polled.add(tailer.poll(Duration.ofSeconds(5)));
                cpu.set(mx.getCurrentThreadCpuTime() - c0);
                wall.set(System.nanoTime() - w0);
            });
            Thread.sleep(200);
            j.close();
            t.join();
            assertEquals(0, ((Record) polled.get(0)).sequence(), "the record appended before the close");
            assertNull(polled.get(1), "nothing more after the close");
            assertTrue(wall.get() < 2_000_000_000L, "poll waited " + wall.get() / 1_000_000 + " ms of its 5 s");
            assertTrue(cpu.get() < 300_000_000L, "poll burnt " + cpu.get() / 1_000_000 + " ms of CPU while waiting");
            long t0 = System.nanoTime();
            assertNull(tailer.poll(Duration.ofSeconds(5)), "a poll after the close");
            assertTrue(System.nanoTime() - t0 < 1_000_000_000L, "a poll after the close returns at once");
        }
    }

    /**
     * A writable file whose first frame write past the header ({@code write} or {@code writeThrough}) writes 512 bytes
     * of it, then fails; every other call goes to {@code d}.
     */
    private static StorageFile failingOnce(StorageFile d, AtomicBoolean armed) {
        return (StorageFile) Proxy.newProxyInstance(StorageFile.class.getClassLoader(),
                new Class<?>[] {StorageFile.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("write") && method.getParameterCount() == 2
                            && args[1] instanceof ByteBuffer src && (long) args[0] > Format.HEADER_SIZE
                            && armed.compareAndSet(true, false)) {
                        d.write((long) args[0], src.duplicate().limit(src.position() + 512));
                        throw new IolabException("No space left on device (injected): " + d.path());
                    }
                    try {
                        return method.invoke(d, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aFrameWriteThatFailsPartWayStopsTheAppendsAndTheReopenCutsIt() throws IOException {
        AtomicBoolean armed = new AtomicBoolean(false);
        JournalOptions o = small(Durability.ALWAYS).withOpener((f, w) -> w
                ? failingOnce(Backend.CHANNEL_HEAP.open(f, true), armed) : Backend.CHANNEL_HEAP.open(f, false));
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(0, j.append(Payloads.of(0, 1000)));
            armed.set(true);
            assertThrows(IolabException.class, () -> j.append(Payloads.of(1, 2000)));
            // before the fix the journal took this one: it rolled and sealed the half frame into the segment
            IolabException refused = assertThrows(IolabException.class, () -> j.append(Payloads.of(1, 3100)));
            assertTrue(refused.getMessage().contains("No space left"), refused.getMessage());
        } catch (IolabException closing) {
            // a failed journal may refuse its close
        }
        try (Journal j = Journal.open(dir, small(Durability.ALWAYS))) {
            assertEquals(List.of(0L), sequences(j), "the acknowledged record, and the half frame cut");
            assertEquals(1, j.append(Payloads.of(1, 3100)));
            assertEquals(2, j.append(Payloads.of(2, 10)));
        }
        try (Journal j = Journal.open(dir, small(Durability.ALWAYS))) {
            assertEquals(List.of(0L, 1L, 2L), sequences(j));
            List<byte[]> payloads = new ArrayList<>();
            j.read(1, (seq, p) -> {
                byte[] b = new byte[p.remaining()];
                p.get(b);
                return payloads.add(b);
            });
            assertArrayEquals(Payloads.of(1, 3100), payloads.get(0));
        }
    }

    @Test
    void aRepairedSegmentThatTakesAppendsAgainLosesItsSealMarkerSoACrashInItsNextSealIsRecovered()
            throws IOException {
        JournalOptions o = small(Durability.NONE);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < 30; i++) {
                j.append(Payloads.of(i, 300));
            }
        }
        Path second = Journal.listSegments(dir).get(1);
        long third = Format.HEADER_SIZE + 2 * Format.align(Format.FRAME_HEADER + 300);
        try (FileChannel ch = FileChannel.open(second, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), third + 20); // damage its third record
        }
        for (Path later : Journal.listSegments(dir).subList(2, Journal.listSegments(dir).size())) {
            Files.delete(later); // the second segment is the last: the repair's cut leaves it so, sealed
        }
        Journal.repair(dir); // cuts the second segment there
        for (Path later : Journal.listSegments(dir).subList(2, Journal.listSegments(dir).size())) {
            // the segments the repair made after it (the records after the damage, an empty one to go on in) are
            // lost too: the repaired segment is the last again, sealed, with room
            Files.delete(later);
        }
        long firstOfSecond = Format.parseName(second);
        byte[] synced;
        try (Journal j = Journal.open(dir, o)) {
            synced = Files.readAllBytes(second); // what the device holds once the open has synced
            long next = j.nextSequence();
            while (j.segmentCount() == 2) {
                j.append(Payloads.of(next++, 300)); // into the repaired segment, until a roll
            }
            j.append(Payloads.of(next, 300));
        }
        // a power loss during the seal: the new segment reached the device, the repaired one's new records did not
        Files.write(second, synced);
        try (Journal j = Journal.open(dir, o)) {
            List<Long> seqs = sequences(j);
            assertEquals(firstOfSecond + 2, seqs.size(), "the records before the damage: " + seqs);
            assertEquals(firstOfSecond + 1, j.durableSequence());
            assertEquals(firstOfSecond + 2, j.append(Payloads.of(99, 10)), "appends go on after them");
        }
    }

    @Test
    void aSealedLastSegmentWithADamagedRecordIsReportedNotCutAndRepairMendsIt() throws IOException {
        JournalOptions o = small(Durability.NONE);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < 30; i++) {
                j.append(Payloads.of(i, 300));
            }
        }
        List<Path> segs = Journal.listSegments(dir);
        Path second = segs.get(1);
        for (Path later : segs.subList(2, segs.size())) {
            Files.delete(later); // the second segment is sealed and now the last: its successor is lost
        }
        long third = Format.HEADER_SIZE + 2 * Format.align(Format.FRAME_HEADER + 300);
        int inSecond = Frames.starts(second).size();
        try (FileChannel ch = FileChannel.open(second, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), third + 20); // damage its third record
        }
        byte[] before = Files.readAllBytes(second);
        JournalCorruptedException e = assertThrows(JournalCorruptedException.class, () -> Journal.open(dir, o));
        assertTrue(e.getMessage().contains(second.getFileName().toString()), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(second), "the open changed nothing");

        VerifyReport report = Journal.verify(dir);
        assertEquals(1, report.problems().size(), report.problems().toString());
        VerifyReport.Problem p = report.problems().getFirst();
        assertEquals(second, p.file());
        assertEquals(third, p.offset());
        assertFalse(p.recoverable(), "damage to synced records, not a torn tail: " + p);

        Journal.repair(dir);
        assertTrue(Journal.verify(dir).ok(), Journal.verify(dir).problems().toString());
        long firstOfSecond = Format.parseName(second);
        try (Journal j = Journal.open(dir, o)) {
            // the damage was in a payload: the records after the damaged one stay, and the next append takes no
            // sequence the segment's records had (nor any the zeros after them may have held: it is sealed, so every
            // record in it was synced, and zeros there could be records destroyed)
            assertEquals(firstOfSecond + inSecond - 1, sequences(j).size(), "every record but the damaged one");
            long next = j.append(Payloads.of(99, 10));
            assertTrue(next >= firstOfSecond + inSecond, "appends go on after them: " + next);
        }
    }

    @Test
    void aSealWordThatIsNotTheMarkerLeavesTheLastSegmentsBadRecordATornTail() throws IOException {
        JournalOptions o = small(Durability.NONE);
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, o)) {
            for (int i = 0; i < 3; i++) {
                j.append(Payloads.of(i, 300));
            }
        }
        Path only = Journal.listSegments(dir).getFirst();
        long third = Format.HEADER_SIZE + 2 * Format.align(Format.FRAME_HEADER + 300);
        try (FileChannel ch = FileChannel.open(only, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1}), Format.SEAL_OFFSET + 3); // a damaged (never written) seal word
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), third + 20); // a torn last record
        }
        SyncedMarks.set(only, third); // written after the last synced mark, as a crash leaves it
        assertTrue(Journal.verify(dir).problems().stream().allMatch(VerifyReport.Problem::recoverable),
                Journal.verify(dir).problems().toString());
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(List.of(0L, 1L), sequences(j), "the torn record is cut");
        }
    }
}
