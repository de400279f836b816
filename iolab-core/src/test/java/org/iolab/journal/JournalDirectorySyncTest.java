package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FaultyStorage;
import org.iolab.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss also loses the names of files created since their folder was last synced (POSIX promises a new file's
 * name only after an fsync of its folder): every record acknowledged as durable must be in a segment whose name was
 * synced. Segments roll every few records here, so most rounds cut one off; without the journal's directory syncs the
 * records of every segment after the first are lost with their names.
 */
class JournalDirectorySyncTest {
    private static final int MAX = 500;

    @TempDir
    Path tmp;

    /**
     * Opens writable files through {@link FaultyStorage}; a segment file that was not there at the last sync of its
     * folder is unnamed, and a power loss takes it.
     */
    private static final class Device implements StorageOpener {
        private final Backend backend;
        private final Path dir;
        private final List<FaultyStorage> files = new CopyOnWriteArrayList<>();
        private final Set<Path> named = ConcurrentHashMap.newKeySet();
    
        Device(Backend backend, Path dir) {
            this.backend = backend;
            this.dir = dir;
        }

        private List<Path> segments() throws IOException {
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            try (Stream<Path> s = Files.list(dir)) {
                return s.filter(p -> p.toString().endsWith(".seg")).toList();
            }
        }

        /** @return the segment files a power loss would take now */
        synchronized List<Path> unnamed() throws IOException {
            return segments().stream().filter(p -> !named.contains(p)).toList();
        }

        @Override
        public StorageFile open(Path file, boolean writable) {
            if (!writable) {
                return backend.open(file, false);
            }
            FaultyStorage f = FaultyStorage.open(backend, file);
            files.add(f);
            return f;
        }

        @Override
        public void syncDirectory(Path folder) throws IOException {
            // a slow device: the appender runs on into a new segment while the seal of the last one syncs its name
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (this) {
                List<Path> now = folder.equals(dir) ? segments() : List.of();
                StorageOpener.fsync(folder);
                named.retainAll(now);
                named.addAll(now);
            }
        }

        /** Drops every unsynced write and every unsynced name. */
        synchronized void powerOff(Random rnd) throws IOException {
            for (FaultyStorage f : files) {
                synchronized (f) {
                    if (!f.isDead()) {
                        f.powerOff(rnd);
                    }
                }
            }
            for (Path p : unnamed()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void acknowledgedRecordsAreInSegmentsWhoseNamesWereSynced() throws IOException {
        int lostNames = 0;
        for (int round = 0; round < 40; round++) {
            Random rnd = new Random(round);
            Backend backend = Backend.values()[round % Backend.values().length];
            Durability level = round % 4 == 3 ? Durability.ALWAYS : Durability.BATCH;
            Path dir = tmp.resolve("r" + round);
            Device device = new Device(backend, dir);
            JournalOptions plain = JournalOptions.defaults().withBackend(backend).withSegmentSize(4096)
                    .withDurability(level).withBatch(Duration.ofMillis(1), 1500)
                    .withPreallocation(round % 2 == 0 ? Preallocation.NONE : Preallocation.FALLOCATE);
            long acked = -1;
            int appends = 20 + rnd.nextInt(120);
            Journal j = Journal.open(dir, plain.withOpener(device));
            try {
                for (long i = 0; i < appends; i++) {
                    long seq = j.append(Payloads.of(i, Payloads.size(i, MAX)));
                    if (level == Durability.BATCH && rnd.nextInt(8) == 0) {
                        j.awaitDurable(seq);
                    }
                    acked = Math.max(acked, j.durableSequence());
                }
                acked = Math.max(acked, j.durableSequence());
                lostNames += device.unnamed().isEmpty() ? 0 : 1;
                device.powerOff(rnd);
            } finally {
                try {
                    j.close();
                } catch (IolabException expected) {
                    // the power is gone
                }
            }
            long n = Payloads.readIntact(dir, plain, MAX, "round " + round);
            assertTrue(n >= acked + 1, "round " + round + " (" + backend + ", " + level + "): acknowledged "
                    + acked + " but only " + n + " records survived of " + appends);
        }
        assertTrue(lostNames > 0, "no round had a segment whose name was not synced yet");
    }
}
