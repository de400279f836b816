package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.testing.SmallDisk;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A store on a full disk fails with an {@link IolabException} naming the file, never with an {@code InternalError}:
 * the mapped backends grew their file sparse, so the first store into a page with no block behind it raised SIGBUS
 * ("a fault occurred in an unsafe memory access operation", found by a review of the CLI's bad input). Needs root, to
 * mount a 3 MiB tmpfs; skipped otherwise.
 */
@Timeout(120)
class StoreDiskFullTest {
    @RegisterExtension
    final SmallDisk.PerTest disk = new SmallDisk.PerTest();

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFullDiskIsAnIolabExceptionNamingTheFile(Backend backend) {
        Path file = disk.path().resolve("full.store");
        int puts = 0;
        try (Store s = Store.open(file, StoreOptions.defaults().withBackend(backend)
                .withDurability(Durability.NONE))) {
            for (; puts < 100_000; puts++) {
                s.put(("key" + puts).getBytes(StandardCharsets.UTF_8), new byte[200]);
            }
            fail("100,000 puts of 200 bytes fitted in 3 MiB");
        } catch (IolabException e) {
            assertTrue(e.getMessage().contains(disk.path().toString()), e.getMessage());
            assertTrue(puts > 5_000, "failed after only " + puts + " puts: " + e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void whatACheckpointMadeDurableSurvivesTheFullDiskAndTheStoreOpensOnceThereIsSpace(Backend backend)
            throws IOException {
        Path file = disk.path().resolve("kept.store");
        Path filler = disk.path().resolve("filler");
        StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(Durability.NONE);
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < 1000; i++) {
                s.put(("kept" + i).getBytes(StandardCharsets.UTF_8), new byte[200]);
            }
        }
        Files.write(filler, new byte[1 << 20]);
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < 100_000; i++) {
                s.put(("more" + i).getBytes(StandardCharsets.UTF_8), new byte[200]);
            }
            fail("100,000 more puts fitted in 3 MiB");
        } catch (IolabException expected) {
            // the disk is full
        }
        try {
            // recovery writes a checkpoint: with the disk full it may not open, but it says why
            Store.open(file, o).close();
        } catch (IolabException e) {
            assertTrue(e.getMessage().contains(disk.path().toString()), e.getMessage());
            assertTrue(Files.notExists(disk.path().resolve("kept.store.idx.tmp")),
                    "a half-written checkpoint was left");
        }
        Files.delete(filler);
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < 1000; i++) {
                assertEquals(200, s.get(("kept" + i).getBytes(StandardCharsets.UTF_8)).length, "kept" + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aCompactionWithNoRoomForItsCopyLeavesTheStoreOpenAndNoPartialFile(Backend backend) throws IOException {
        Path file = disk.path().resolve("compact.store");
        StoreOptions o = StoreOptions.defaults().withBackend(backend).withDurability(Durability.NONE);
        try (Store s = Store.open(file, o)) {
            for (int i = 0; i < 6000; i++) {
                s.put(("key" + i).getBytes(StandardCharsets.UTF_8), new byte[200]);
            }
            for (int i = 0; i < 6000; i += 3) {
                s.delete(("key" + i).getBytes(StandardCharsets.UTF_8));
            }
            s.sync();
            // the copy needs about 1.1 MiB: leave less
            long free = Files.getFileStore(disk.path()).getUsableSpace();
            Files.write(disk.path().resolve("filler"), new byte[(int) Math.max(0, free - (256 << 10))]);
            IolabException e = org.junit.jupiter.api.Assertions.assertThrows(IolabException.class, s::compact);
            assertTrue(e.getMessage().contains(disk.path().toString()), e.getMessage());
            assertTrue(Files.notExists(disk.path().resolve("compact.store.compact")), "the partial copy was left");
            assertEquals(4000, s.size());
            assertEquals(200, s.get("key1".getBytes(StandardCharsets.UTF_8)).length);
            Files.delete(disk.path().resolve("filler"));
            s.put("after".getBytes(StandardCharsets.UTF_8), new byte[5]);
            s.compact();
            assertEquals(4001, s.size());
        }
        try (Store s = Store.open(file, o)) {
            assertEquals(4001, s.size());
            assertEquals(200, s.get("key2".getBytes(StandardCharsets.UTF_8)).length);
        }
    }
}
