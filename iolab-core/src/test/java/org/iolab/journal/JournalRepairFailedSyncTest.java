package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FailingForces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repair's cut whose sync fails changes nothing. It used to zero the damaged segment in place: a sync that failed
 * with an I/O error left the zeros in the page cache, where the same boot read them (verify then said the journal was
 * whole, and a writer appended after the cut), but not on the device, where the records the cut removed stayed; after
 * a power loss they would follow the new records as intact ones. Now a cut writes a new segment and renames it over
 * the old one only once its sync succeeded.
 */
class JournalRepairFailedSyncTest {
    private static final int MAX = 300;
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    private static JournalOptions options() {
        return JournalOptions.defaults().withBackend(Backend.DEFAULT).withSegmentSize(8192)
                .withDurability(Durability.NONE).withPreallocation(Preallocation.NONE);
    }

    private List<Path> fill() {
        try (Journal j = Journal.open(tmp, options())) {
            Payloads.append(j, 0, RECORDS, MAX);
        }
        return Journal.listSegments(tmp);
    }

    private static StorageOpener failing(AtomicBoolean fail) {
        return (f, w) -> FailingForces.open(Backend.CHANNEL_HEAP, f, w, fail);
    }

    private long intactRecords() {
        try (Journal j = Journal.open(tmp, options())) {
            return j.firstSequence() + Payloads.readChecked(j, j.firstSequence(), MAX);
        }
    }

    private List<Path> leftovers() throws IOException {
        try (var list = Files.list(tmp)) {
            return list.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }

    @Test
    void aCutInsideASegmentWhoseSyncFailsLeavesTheSegmentAsItWas() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(1);
        writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // the first record's CRC
        byte[] broken = Files.readAllBytes(damaged);
        VerifyReport before = Journal.verify(tmp);
        assertFalse(before.ok());

        IolabException e = assertThrows(IolabException.class,
                () -> Journal.repair(tmp, what -> { }, failing(new AtomicBoolean(true))));
        assertTrue(e.getMessage().contains(damaged.toString()), e.getMessage());
        assertArrayEquals(broken, Files.readAllBytes(damaged), "the segment is untouched, in the page cache too");
        assertEquals(before.problems().getFirst().file(), Journal.verify(tmp).problems().getFirst().file());
        assertEquals(before.problems().getFirst().offset(), Journal.verify(tmp).problems().getFirst().offset(),
                "the damage is still reported where it was");
        assertEquals(List.of(), leftovers(), "the copy is deleted");
        assertThrows(JournalCorruptedException.class, this::intactRecords, "a read still stops at the damage");

        // with syncs that work the same repair cuts there, and the journal goes on after the cut
        Journal.repair(tmp);
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        assertEquals(Format.parseName(damaged), intactRecords(), "cut at the damaged record");
        try (Journal j = Journal.open(tmp, options())) {
            Payloads.append(j, j.nextSequence(), j.nextSequence() + 50, MAX);
        }
        assertEquals(Format.parseName(damaged) + 50, intactRecords());
    }

    @Test
    void anOnlySegmentWithADamagedHeaderWhoseEmptyingFailsToSyncStaysAsItWas() throws IOException {
        try (Journal j = Journal.open(tmp, options().withSegmentSize(1 << 20))) {
            Payloads.append(j, 0, 100, MAX);
        }
        Path only = Journal.listSegments(tmp).getFirst();
        writeAt(only, 0, "XXXXXXXXXXXXXXXX".getBytes());
        writeAt(only, Format.HEADER_SIZE + 4, new byte[] {0x7f}); // and the first record: the header is not rebuilt
        byte[] broken = Files.readAllBytes(only);
        assertThrows(IolabException.class, () -> Journal.repair(tmp, what -> { }, failing(new AtomicBoolean(true))));
        assertArrayEquals(broken, Files.readAllBytes(only));
        assertEquals(List.of(), leftovers());
        assertFalse(Journal.verify(tmp).ok());

        List<String> done = new ArrayList<>();
        Journal.repair(tmp, done::add);
        assertTrue(done.getLast().startsWith("cut " + only + " at offset 0, under a new empty header"), done.toString());
        assertTrue(Journal.verify(tmp).ok(), Journal.verify(tmp).toString());
        try (Journal j = Journal.open(tmp, options())) {
            assertEquals(0, j.nextSequence());
            Payloads.append(j, 0, 20, MAX);
        }
        assertEquals(20, intactRecords());
    }

    /** The new segment replaces the old one with its permissions: a 0600 journal does not become readable to all. */
    @Test
    void theCutSegmentKeepsItsPermissions() throws IOException {
        List<Path> files = fill();
        Path damaged = files.get(2);
        writeAt(damaged, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Files.setPosixFilePermissions(damaged, PosixFilePermissions.fromString("rw-------"));
        Journal.repair(tmp);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(damaged)));
        assertEquals(Format.parseName(damaged), intactRecords());
    }

    /** A segment that is a link: the file it names is cut, and the link still names it (a review of the cut). */
    @Test
    void aLinkedSegmentIsCutInTheFileItNames() throws IOException {
        List<Path> files = fill();
        Path damaged = files.getLast();
        Path elsewhere = Files.createDirectories(tmp.resolveSibling(tmp.getFileName() + "-elsewhere"));
        Path real = Files.move(damaged, elsewhere.resolve(damaged.getFileName()));
        Files.createSymbolicLink(damaged, real);
        writeAt(real, Format.HEADER_SIZE + 4, new byte[] {0x7f});
        Journal.repair(tmp);
        assertTrue(Files.isSymbolicLink(damaged), "the link was replaced by a file");
        assertEquals(Format.parseName(damaged), intactRecords());
        assertFalse(Files.exists(elsewhere.resolve(damaged.getFileName() + ".tmp")));
    }

    private static void writeAt(Path file, long position, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), position);
        }
    }
}
