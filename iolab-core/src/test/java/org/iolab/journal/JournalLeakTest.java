package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opens that fail release what they opened: descriptors and mappings (checked before any GC could hide a loss). */
public class JournalLeakTest {
    @TempDir
    Path tmp;

    /** Targets of /proc/self/fd under dir. */
    public static List<String> fds(Path dir) throws IOException {
        String root = dir.toRealPath().toString();
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : s.toList()) {
                try {
                    String t = Files.readSymbolicLink(fd).toString();
                    if (t.startsWith(root)) {
                        out.add(t);
                    }
                } catch (IOException gone) {
                    // the listing's own descriptor
                }
            }
        }
        return out;
    }

    /** Lines of /proc/self/maps under dir, after a few collections (MappedByteBuffers go then). */
    static List<String> mapsAfterGc(Path dir) throws Exception {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        String root = dir.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(root)).toList();
    }

    private static JournalOptions small(Backend b) {
        return JournalOptions.defaults().withBackend(b).withSegmentSize(64 << 10);
    }

    /**
     * A read-only open of a journal with a damaged record below the synced mark (refused until its readers were told
     * at the damage instead) leaves no file or mapping open once closed, read to the damage or not.
     */
    @Test
    void aRefusedReadOnlyOpenLeavesNoFileOrMapping() throws Exception {
        for (Backend b : Backend.values()) {
            Path dir = Files.createDirectories(tmp.resolve(b.label()));
            try (Journal j = Journal.open(dir, small(b))) {
                for (int i = 0; i < 10; i++) {
                    j.append(new byte[100]); // 120-byte frames; close writes the synced mark at the end
                }
            }
            try (FileChannel ch = FileChannel.open(dir.resolve(Format.fileName(0)), StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {0x55}), Format.HEADER_SIZE + 3 * 120 + 40);
            }
            for (int i = 0; i < 5; i++) {
                try (Journal j = Journal.openReadOnly(dir, small(b))) {
                    if (i % 2 == 0) {
                        assertThrows(JournalCorruptedException.class, () -> j.read(0, (seq, payload) -> true));
                    }
                }
            }
            assertEquals(List.of(), fds(dir), b + ": descriptors left by 5 opens");
            assertEquals(List.of(), mapsAfterGc(dir), b + ": mappings left by 5 opens");
        }
    }

    /** createSegment syncs the directory outside its try: the new first segment stays open when that fails. */
    @Test
    void anOpenWhoseDirectorySyncFailsLeavesNoFileOpen() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("j")); // exists: open's own folder syncs are skipped
        StorageOpener failing = new StorageOpener() {
            @Override
            public org.iolab.storage.StorageFile open(Path file, boolean writable) {
                return Backend.SEGMENT.open(file, writable);
            }

            @Override
            public void syncDirectory(Path folder) throws IOException {
                throw new IOException("injected: fsync of the directory failed (EIO)");
            }
        };
        assertThrows(IolabException.class, () -> Journal.open(dir, small(Backend.SEGMENT).withOpener(failing)));
        assertEquals(List.of(), fds(dir), "descriptors left by the failed open");
        assertEquals(List.of(), mapsAfterGc(dir), "mappings left by the failed open");
    }

    /** Readers and tailers the user forgot keep their files and mappings after the journal's close. */
}
