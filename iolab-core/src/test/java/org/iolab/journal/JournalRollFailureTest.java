package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.os.NoSpaceException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.StorageFile;
import org.iolab.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A roll whose new segment is created but cannot be mapped (SEGMENT backend, no preallocation, full disk) leaves no
 * segment file behind: it used to, and records appended after it (in the old segment, then in a later segment),
 * acknowledged as durable at ALWAYS, were deleted by the next open with the later segment.
 */
@Timeout(60)
class JournalRollFailureTest {
    @RegisterExtension
    final SmallDisk.PerTest disk = new SmallDisk.PerTest();

    @TempDir
    Path tmp;

    private static List<Long> sequences(Journal j) {
        List<Long> seqs = new ArrayList<>();
        j.read(0, (seq, payload) -> seqs.add(seq));
        return seqs;
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName() + "=" + p.toFile().length()).sorted().toList();
        }
    }

    /** A real full disk (3 MiB tmpfs; root). */
    @Test
    void aRollThatCannotMapTheNewSegmentOnAFullDiskLosesLaterDurableRecordsAtReopen() throws IOException {
        Path dir = disk.path().resolve("j");
        long cap = 1 << 20;
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.SEGMENT).withPreallocation(Preallocation.NONE)
                .withDurability(Durability.ALWAYS).withSegmentSize(cap);
        long last;
        Path filler = disk.path().resolve("filler");
        try (Journal j = Journal.open(dir, o)) {
            while (j.tip().end() + 1016 + 200 <= cap) {
                j.append(new byte[1000]);
            }
            // the disk fills up (another program): less than a segment is left
            long free = Files.getFileStore(disk.path()).getUsableSpace();
            Files.write(filler, new byte[(int) (free - (64 << 10))]);
            int big = (int) (cap - j.tip().end()); // does not fit: rolls
            IolabException full = assertThrows(IolabException.class, () -> j.append(new byte[big]));
            long small = j.append(new byte[10]); // fits in the old segment: acknowledged, synced
            // space comes back; the next roll succeeds
            Files.delete(filler);
            last = small;
            for (int i = 0; i < 5; i++) {
                last = j.append(new byte[1000]);
            }
            assertEquals(last, j.durableSequence(), "every record acknowledged as durable (ALWAYS)");
        }
        List<Long> expected = new ArrayList<>();
        for (long s = 0; s <= last; s++) {
            expected.add(s);
        }
        try (Journal j = Journal.open(dir, o)) {
            assertEquals(expected, sequences(j), "every durable record after a reopen");
        }
    }

    /** The same with the mapping failure injected (no root needed): any failure of mapping() in a roll. */
    @Test
    void injectedMappingFailureInARoll() throws IOException {
        AtomicBoolean armed = new AtomicBoolean(false);
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.SEGMENT).withSegmentSize(8192)
                .withDurability(Durability.ALWAYS).withOpener((f, w) -> {
                    StorageFile d = Backend.SEGMENT.open(f, w);
                    return (StorageFile) Proxy.newProxyInstance(StorageFile.class.getClassLoader(),
                            new Class<?>[] {StorageFile.class}, (proxy, method, args) -> {
                                if (method.getName().equals("mapping") && armed.compareAndSet(true, false)) {
                                    throw new NoSpaceException("No space left on device (injected): " + f, null);
                                }
                                try {
                                    return method.invoke(d, args);
                                } catch (InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                });
        Path dir = tmp.resolve("j");
        long last;
        try (Journal j = Journal.open(dir, o)) {
            while (j.tip().end() + 1016 + 200 <= 8192) {
                j.append(new byte[1000]);
            }
            armed.set(true);
            int big = (int) (8192 - j.tip().end());
            assertThrows(IolabException.class, () -> j.append(new byte[big]));
            j.append(new byte[10]);
            last = -1;
            for (int i = 0; i < 5; i++) {
                last = j.append(new byte[1000]);
            }
            assertEquals(last, j.durableSequence());
        }
        List<Long> expected = new ArrayList<>();
        for (long s = 0; s <= last; s++) {
            expected.add(s);
        }
        try (Journal j = Journal.open(dir, JournalOptions.defaults().withBackend(Backend.SEGMENT)
                .withSegmentSize(8192))) {
            assertEquals(expected, sequences(j), "every durable record after a reopen");
        }
    }
}
