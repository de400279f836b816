package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.os.NoSpaceException;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal that meets a full disk when it makes a segment says so ({@link NoSpaceException}, naming the segment)
 * and leaves no empty segment behind; every record appended before stays readable. Needs root, to mount a 3 MiB
 * tmpfs; skipped otherwise.
 */
@Timeout(60)
class JournalDiskFullTest {
    @TempDir
    Path tmp;
    private Path mount;

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @BeforeEach
    void mountSmallDisk() throws Exception {
        mount = Files.createDirectory(tmp.resolve("small"));
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount.toString()) == 0,
                "cannot mount a tmpfs here (needs root)");
    }

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            run("umount", "-l", mount.toString());
        }
    }

    private static List<Path> segments(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".seg")).sorted().toList();
        }
    }

    @Test
    void aSegmentThatDoesNotFitIsNotLeftBehind() throws IOException {
        Path dir = mount.resolve("j");
        JournalOptions o = JournalOptions.defaults().withDurability(Durability.NONE).withSegmentSize(1 << 20);
        long appended = 0;
        try (Journal j = Journal.open(dir, o)) {
            IolabException e = assertThrows(IolabException.class, () -> {
                for (int i = 0; i < 100_000; i++) {
                    j.append(new byte[100]);
                }
            });
            assertTrue(e instanceof NoSpaceException, e.toString());
            assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
            appended = j.nextSequence();
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
}
