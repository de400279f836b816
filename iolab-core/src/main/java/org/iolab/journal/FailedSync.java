package org.iolab.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.iolab.IolabException;

/**
 * The note a writer leaves when a sync fails: {@code journal.failed} in the journal's folder, naming the first
 * sequence that was never reported durable.
 *
 * <p>Why: when the write-back of a page fails (an I/O error), Linux reports it to {@code fsync} once and marks the
 * page clean, with the bytes that never reached the device still in it. A later open in the same boot would read
 * those records from the page cache, take them for durable (its sync writes nothing: the pages are clean), and
 * append after them; after a reboot they are gone, and the records appended after them, reported durable, are
 * behind a hole. So the failing writer writes this note, and the next {@link Journal#open} cuts the journal
 * before that sequence (writing the records it keeps of the last segments into new files, deleting later segments)
 * and only then deletes the note; an open that cannot apply it refuses the journal and keeps the note. Nothing
 * reported durable is cut: every record before the sequence was synced.
 *
 * <p>Layout (24 bytes, little-endian): the magic "IOLABFSN", the sequence, the CRC32C of those 16 bytes, 4 zero
 * bytes. It is written to a temporary file and renamed. A note that does not check out can only be what a power loss
 * left of its write (the page cache is gone then, so the device is what the next open reads and nothing needs
 * cutting) or a file of the user's: it is moved aside.
 */
final class FailedSync {
    static final String NAME = "journal.failed";
    /** "IOLABFSN" read as a little-endian long. */
    static final long MAGIC = 0x4E534642414C4F49L;
    static final int SIZE = 24;

    private FailedSync() {
    }

    /** @return the note's path in the journal folder {@code dir} */
    static Path of(Path dir) {
        return dir.resolve(NAME);
    }

    /** @return the note's 24 bytes for {@code firstLost} */
    static ByteBuffer encode(long firstLost) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, MAGIC).putLong(8, firstLost);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 16);
        b.putInt(16, (int) crc.getValue());
        return b;
    }

    /**
     * Writes the note (keeping a lower sequence a note already there names): temporary file, rename, folder sync.
     * The syncs may fail too (the device that failed the journal's sync): the note is still there for every open
     * in this boot, which is the case it is for.
     *
     * @throws IolabException when the note cannot be written at all
     */
    static void record(Path dir, long firstLost) {
        long had = read(dir);
        long seq = had >= 0 ? Math.min(had, firstLost) : firstLost;
        Path note = of(dir);
        Path tmp = dir.resolve(NAME + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = encode(seq);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                forceQuietly(ch);
            }
            Files.move(tmp, note, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw IolabException.io("write the failed-sync note", note, e);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            forceQuietly(d);
        } catch (IOException e) {
            // the rename is in place for this boot all the same
        }
    }

    private static void forceQuietly(FileChannel ch) {
        try {
            ch.force(true);
        } catch (IOException e) {
            // see record
        }
    }

    /**
     * @return the first sequence the note says was never reported durable, or -1 when there is no note or it does
     *     not check out (what a power loss left of its write)
     * @throws IolabException when the note is there but cannot be read
     */
    static long read(Path dir) {
        Path note = of(dir);
        byte[] bytes;
        try (FileChannel ch = FileChannel.open(note, StandardOpenOption.READ)) {
            if (ch.size() != SIZE) {
                return -1;
            }
            ByteBuffer b = ByteBuffer.allocate(SIZE);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // until full or the end
            }
            bytes = b.array();
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException e) {
            throw IolabException.io("read the failed-sync note", note, e);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long seq = b.getLong(8);
        if (b.getLong(0) != MAGIC || seq < 0 || !encode(seq).equals(b.clear())) {
            return -1;
        }
        return seq;
    }

    /**
     * Deletes the note (a file that does not check out is moved aside to {@code journal.failed.cut} instead: it may be
     * a user's file of that name) and a temporary file a failed write left, then syncs the folder.
     *
     * @param valid whether the note checked out ({@link #read})
     */
    static void clear(Path dir, boolean valid) {
        Path note = of(dir);
        try {
            boolean any;
            if (valid) {
                any = Files.deleteIfExists(note);
            } else {
                any = Files.exists(note, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                if (any) {
                    Path target = dir.resolve(NAME + ".cut");
                    for (int i = 1; Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS); i++) {
                        target = dir.resolve(NAME + "." + i + ".cut");
                    }
                    Files.move(note, target);
                }
            }
            any |= Files.deleteIfExists(dir.resolve(NAME + ".tmp"));
            if (any) {
                try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                    d.force(true);
                }
            }
        } catch (IOException e) {
            throw IolabException.io("delete the failed-sync note", note, e);
        }
    }
}
