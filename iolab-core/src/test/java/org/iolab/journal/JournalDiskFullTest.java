package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.os.NoSpaceException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A journal that meets a full disk when it makes a segment says so ({@link NoSpaceException}, naming the segment)
 * and leaves no empty segment behind; every record appended before stays readable. Needs root, to mount a 3 MiB
 * tmpfs; skipped otherwise.
 */
@Timeout(60)
class JournalDiskFullTest {
    @RegisterExtension
    final SmallDisk.PerTest disk = new SmallDisk.PerTest();

    private static List<Path> segments(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".seg")).sorted().toList();
        }
    }

    /**
     * Appends records of {@code size} bytes until the disk is full, which must come within {@code most} of them as a
     * {@link NoSpaceException} naming the journal.
     *
     * @return the sequence the next append would get: every record before it was acknowledged
     */
    private static long appendUntilFull(Journal j, Path dir, int size, int most) {
        IolabException e = assertThrows(IolabException.class, () -> {
            for (int i = 0; i < most; i++) {
                j.append(new byte[size]);
            }
        });
        assertTrue(e instanceof NoSpaceException, e.toString());
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
        return j.nextSequence();
    }

    @Test
    void aSegmentThatDoesNotFitIsNotLeftBehind() throws IOException {
        Path dir = disk.path().resolve("j");
        JournalOptions o = JournalOptions.defaults().withDurability(Durability.NONE).withSegmentSize(1 << 20);
        long appended = 0;
        try (Journal j = Journal.open(dir, o)) {
            appended = appendUntilFull(j, dir, 100, 100_000);
        } catch (IolabException closing) {
            // a journal that failed may refuse its close; the files are what counts
        }
        List<Path> segs = segments(dir);
        for (Path p : segs) {
            assertTrue(Files.size(p) > 0, "an empty segment was left: " + p);
        }
        try (Journal j = Journal.openReadOnly(dir, o)) {
            long[] n = {0};
            j.read(0, (seq, payload) -> payload.remaining() == 100 && n[0]++ >= 0);
            assertTrue(n[0] > 10_000, n[0] + " records readable");
            assertTrue(appended == 0 || n[0] <= appended, n[0] + " of " + appended);
            assertEquals(segs.size(), segments(dir).size());
        }
    }

    /**
     * Segments made with no preallocation on a mapping backend: the mapping grows in steps whose blocks are
     * allocated (fallocate), so a full disk is a {@link NoSpaceException} from the append that needs the step, not a
     * SIGBUS ({@code InternalError}) from a store into a page with no block behind it, as with sparse growth.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"MAPPED", "SEGMENT"})
    void aMappedSegmentGrownWithoutPreallocationMeetsAFullDiskAsNoSpace(Backend backend) throws IOException {
        Path dir = disk.path().resolve("j-" + backend);
        JournalOptions o = JournalOptions.defaults().withDurability(Durability.NONE).withBackend(backend)
                .withPreallocation(Preallocation.NONE).withSegmentSize(768 << 10);
        long acknowledged = -1;
        try (Journal j = Journal.open(dir, o)) {
            acknowledged = appendUntilFull(j, dir, 1000, 1_000_000);
        } catch (IolabException closing) {
            // a journal that failed may refuse its close; the files are what counts
        }
        try (Journal j = Journal.openReadOnly(dir, o)) {
            long[] n = {0};
            j.read(0, (seq, payload) -> payload.remaining() == 1000 && n[0]++ >= 0);
            assertTrue(n[0] > 1000, n[0] + " records readable of " + acknowledged + "; files " + segments(dir).stream()
                    .map(p -> p.getFileName() + "=" + p.toFile().length()).toList());
            assertTrue(acknowledged < 0 || n[0] >= acknowledged, n[0] + " of " + acknowledged + " appended");
        }
    }
}
