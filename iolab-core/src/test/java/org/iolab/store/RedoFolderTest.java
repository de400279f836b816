package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How an open finds the redo log's segments: the listing, and what a clean open leaves of the log. */
class RedoFolderTest {
    @TempDir
    Path dir;

    @Test
    void segmentsAreTheSegFilesOldestFirst() throws IOException {
        Path wal = Files.createDirectory(dir.resolve("s.db.wal"));
        for (String name : new String[] {"00000000000000000200.seg", "journal.lock", "00000000000000000001.seg",
            "notes.tmp", "00000000000000000150.seg"}) {
            Files.createFile(wal.resolve(name));
        }
        assertArrayEquals(new String[] {"00000000000000000001.seg", "00000000000000000150.seg",
            "00000000000000000200.seg"}, Store.segmentNames(wal));
        assertTrue(Store.hasSegments(wal));
    }

    @Test
    void noFolderOrAFileInItsPlaceHoldsNoSegments() throws IOException {
        assertEquals(0, Store.segmentNames(dir.resolve("missing.wal")).length);
        Path file = Files.createFile(dir.resolve("file.wal"));
        assertEquals(0, Store.segmentNames(file).length);
        assertFalse(Store.hasSegments(file));
    }

    /**
     * A file where the redo log's folder goes failed the first logged put with "a write or sync failed ... open it
     * again", and a folder where the checkpoint goes was taken for a checkpoint showing the store held records (or
     * failed the first checkpoint): both are refused at open now, naming the path, with nothing made.
     */
    @Test
    void aFileOrFolderInTheSideFilesPlaceIsRefusedAtOpen() throws IOException {
        Path file = dir.resolve("s.db");
        Path wal = Files.writeString(dir.resolve("s.db.wal"), "notes");
        org.iolab.IolabException e = org.junit.jupiter.api.Assertions.assertThrows(org.iolab.IolabException.class,
                () -> Store.open(file, StoreOptions.defaults().withDurability(Durability.BATCH)));
        assertTrue(e.getMessage().contains(wal + " is a file") && e.getMessage().contains("nothing was changed"),
                e.getMessage());
        assertFalse(Files.exists(file), "no data file made");
        assertFalse(Files.exists(dir.resolve("s.db.lock")), "no lock file left");
        assertEquals("notes", Files.readString(wal));
        // at NONE no redo log is made: such a file is in nobody's way (a store that opened before still does)
        try (Store s = Store.open(file, StoreOptions.defaults().withDurability(Durability.NONE))) {
            s.put("k".getBytes(), "v".getBytes());
        }
        assertEquals("notes", Files.readString(wal));
        Store.deleteFiles(file);
        Files.delete(wal);
        Path nowhere = Files.createSymbolicLink(wal, dir.resolve("missing-folder"));
        e = org.junit.jupiter.api.Assertions.assertThrows(org.iolab.IolabException.class,
                () -> Store.open(file, StoreOptions.defaults().withDurability(Durability.BATCH)));
        assertTrue(e.getMessage().contains(nowhere + " is a link to no folder"), e.getMessage());
        Files.delete(nowhere);
        Path idx = Files.createDirectory(dir.resolve("s.db.idx"));
        e = org.junit.jupiter.api.Assertions.assertThrows(org.iolab.IolabException.class,
                () -> Store.open(file, StoreOptions.defaults()));
        assertTrue(e.getMessage().contains(idx + " is a folder") && !(e instanceof StoreCorruptedException),
                e.getMessage());
        assertFalse(Files.exists(file), "no data file made");
        Files.delete(idx);
        try (Store s = Store.open(file, StoreOptions.defaults())) {
            s.put("k".getBytes(), "v".getBytes());
        }
    }

    @Test
    void aCleanReopenAtBatchReadsTheRecordsAndLeavesNoSegment() {
        Path file = dir.resolve("s.db");
        StoreOptions batch = StoreOptions.defaults().withDurability(Durability.BATCH);
        try (Store s = Store.open(file, batch)) {
            for (int i = 0; i < 100; i++) {
                s.put(("k" + i).getBytes(), ("v" + i).getBytes());
            }
            assertTrue(Store.hasSegments(dir.resolve("s.db.wal")), "the puts were logged");
        }
        assertFalse(Store.hasSegments(dir.resolve("s.db.wal")), "the close checkpointed and deleted the log");
        try (Store s = Store.open(file, batch)) {
            assertEquals(100, s.size());
            assertArrayEquals("v42".getBytes(), s.get("k42".getBytes()));
        }
        assertFalse(Store.hasSegments(dir.resolve("s.db.wal")));
    }

    /**
     * A crash after a checkpoint's header but before the log's deletion leaves a clean header beside segments whose
     * records the checkpoint holds: the open replays none of them and deletes them.
     */
    @Test
    void aCleanOpenDeletesSegmentsTheCheckpointCovers() throws IOException {
        Path file = dir.resolve("s.db");
        Path wal = dir.resolve("s.db.wal");
        Path saved = Files.createDirectory(dir.resolve("saved"));
        StoreOptions batch = StoreOptions.defaults().withDurability(Durability.BATCH);
        try (Store s = Store.open(file, batch)) {
            for (int i = 0; i < 100; i++) {
                s.put(("k" + i).getBytes(), ("v" + i).getBytes());
            }
            s.sync();
            for (String name : Store.segmentNames(wal)) {
                Files.copy(wal.resolve(name), saved.resolve(name));
            }
        }
        String[] stale = Store.segmentNames(saved);
        assertTrue(stale.length > 0);
        for (String name : stale) {
            Files.copy(saved.resolve(name), wal.resolve(name));
        }
        try (Store s = Store.open(file, batch)) {
            assertFalse(Store.hasSegments(wal), "the open deleted the covered segments");
            assertEquals(100, s.size());
            assertArrayEquals("v99".getBytes(), s.get("k99".getBytes()));
        }
    }
}
