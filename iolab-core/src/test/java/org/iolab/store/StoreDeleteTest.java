package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Store#deleteFiles} removes every file of a store, and nothing while a writer holds it. */
class StoreDeleteTest {
    @TempDir
    Path tmp;

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void deletesTheDataCheckpointRedoLogAndLockButNotWhileOpen() throws IOException {
        Files.writeString(tmp.resolve("other.txt"), "kept");
        Path file = tmp.resolve("s.store");
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.BATCH))) {
            s.put("k".getBytes(StandardCharsets.UTF_8), new byte[10]);
            s.sync();
            List<String> open = names();
            assertTrue(open.contains("s.store.wal"), open.toString());
            assertThrows(StoreLockedException.class, () -> Store.deleteFiles(file));
            assertEquals(open, names(), "the refused delete removed files");
            assertEquals(1, s.size());
        }
        assertTrue(names().containsAll(List.of("s.store", "s.store.idx", "s.store.lock")), names().toString());
        // what a checkpoint and a compaction a crash interrupted leave beside it
        Files.write(tmp.resolve("s.store.idx.tmp"), new byte[100]);
        Files.write(tmp.resolve("s.store.compact"), new byte[100]);
        Store.deleteFiles(file);
        assertEquals(List.of("other.txt"), names());
    }

    /** A store opened through a link kept its data file when deleted: only the link went. */
    @Test
    void aLinkedDataFileIsDeletedWithItsLink() throws IOException {
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Path real = elsewhere.resolve("data.store");
        Path file = Files.createSymbolicLink(tmp.resolve("s.store"), real);
        try (Store s = Store.open(file, StoreOptions.defaults())) {
            s.put("k".getBytes(StandardCharsets.UTF_8), new byte[10]);
            s.compact();
        }
        assertTrue(Files.isSymbolicLink(file) && Files.size(real) > 0, "compaction kept the link");
        Files.write(elsewhere.resolve("data.store.compact"), new byte[100]);
        Store.deleteFiles(file);
        assertEquals(List.of("elsewhere"), names());
        try (Stream<Path> s = Files.list(elsewhere)) {
            assertEquals(List.of(), s.toList());
        }
    }

    @Test
    void anOpenRemovesWhatAnInterruptedCheckpointAndCompactionLeft() throws IOException {
        Path file = tmp.resolve("s.store");
        try (Store s = Store.open(file, StoreOptions.defaults())) {
            s.put("k".getBytes(StandardCharsets.UTF_8), new byte[10]);
        }
        Files.write(tmp.resolve("s.store.idx.tmp"), new byte[100]);
        Files.write(tmp.resolve("s.store.compact"), new byte[100]);
        Files.write(tmp.resolve("s.store.failed"), new byte[7]); // not a note: a torn write of one
        // verify names what the next writable open removes (a review found it silent about a 33 MB leftover)
        StoreReport verify = Store.verify(file);
        assertTrue(verify.ok(), verify.toString());
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(tmp.resolve("s.store.compact"))
                && p.recoverable() && p.what().contains("compaction that did not finish")), verify.toString());
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(tmp.resolve("s.store.failed"))
                && p.recoverable() && p.what().contains("moves it aside")), verify.toString());
        try (Store s = Store.openReadOnly(file, StoreOptions.defaults())) {
            assertEquals(1, s.size());
            assertTrue(names().contains("s.store.idx.tmp"), "a read-only open changes nothing");
        }
        try (Store s = Store.open(file, StoreOptions.defaults())) {
            assertEquals(1, s.size());
        }
        assertFalse(names().contains("s.store.idx.tmp") || names().contains("s.store.compact"), names().toString());
        assertTrue(Store.verify(file).problems().isEmpty(), Store.verify(file).toString());
        assertTrue(names().containsAll(List.of("s.store", "s.store.idx", "s.store.lock")), names().toString());
    }
}
