package org.iolab.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.iolab.IolabException;

/**
 * The note a writer leaves when a sync of its files fails, shared by the journal ({@code journal.failed}) and the
 * record store ({@code FILE.failed}).
 *
 * <p>Why: when the write-back of a page fails (an I/O error, or ENOSPC on a thin-provisioned volume), Linux reports
 * it to one {@code fsync} and marks the page clean, with the bytes that never reached the device still in it. A later
 * open in the same boot reads those bytes from the page cache and takes them for durable: its own sync has nothing to
 * write. After a reboot they are gone, and whatever was reported durable on top of them is damaged. The note tells
 * the next writable open to write what it keeps into new files first.
 *
 * <p>Layout (24 bytes, little-endian): the magic "IOLABFSN", a sequence (the first one no completed sync covers),
 * the CRC32C of those 16 bytes, 4 zero bytes. It is written to {@code NOTE.tmp} and renamed. A note that does not
 * check out can only be what a power loss left of its write (the page cache is gone then, so the device is what the
 * next open reads, and nothing needs rewriting) or a file of the user's: {@link #clear} moves it aside.
 */
public final class SyncFailureNote {
    /** "IOLABFSN" read as a little-endian long. */
    static final long MAGIC = 0x4E534642414C4F49L;
    /** The note's length in bytes. */
    public static final int SIZE = 24;

    private SyncFailureNote() {
    }

    /**
     * @return whether {@code e} says a sync did not complete: an {@code IOException} among its causes (an I/O error
     *     from {@code fsync} or {@code msync}, such as EIO or ENOSPC, or an interrupt or a close during it, which the
     *     JDK reports instead of the call's own result: the call ran to its end and may have failed)
     */
    public static boolean writeBackFailed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the note {@code note}, or the temporary file of its write, is there */
    public static boolean present(Path note) {
        return Files.exists(note, LinkOption.NOFOLLOW_LINKS) || Files.exists(tmpOf(note), LinkOption.NOFOLLOW_LINKS);
    }

    private static Path tmpOf(Path note) {
        return note.resolveSibling(note.getFileName() + ".tmp");
    }

    /** @return the note's 24 bytes for {@code seq} */
    public static ByteBuffer encode(long seq) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, MAGIC).putLong(8, seq);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 16);
        b.putInt(16, (int) crc.getValue());
        return b;
    }

    /**
     * Writes the note (keeping a lower sequence a note already there names): temporary file, rename, folder sync.
     * The syncs may fail too (the device that failed the writer's sync): the note is still there for every open in
     * this boot, which is the case it is for.
     *
     * @param note the note's path
     * @param seq the first sequence no completed sync covers
     * @throws IolabException when the note cannot be written at all
     */
    public static void record(Path note, long seq) {
        // the interrupt that failed the sync may still be pending (an interrupt during a FileChannel call is given
        // back to the caller): the note's own channel would close on it and leave no note
        boolean interrupted = Thread.interrupted();
        try {
            write(note, seq);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void write(Path note, long seq) {
        long had = read(note);
        long keep = had >= 0 ? Math.min(had, seq) : seq;
        Path tmp = tmpOf(note);
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = encode(keep);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                // renamed before its sync: on a failing device a sync can take long, and a writer killed meanwhile (a
                // stop timeout) must leave the whole note where the next open looks
                Files.move(tmp, note, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                forceQuietly(ch);
            }
        } catch (IOException e) {
            throw IolabException.io("write the failed-sync note", note, e);
        }
        try (FileChannel d = FileChannel.open(note.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
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
     * @param note the note's path
     * @return the sequence the note names (or its temporary file, when the note is missing), or -1 when there is no
     *     note or it does not check out (what a power loss left of its write, or not a note)
     * @throws IolabException when the note is there but cannot be read
     */
    public static long read(Path note) {
        long seq = readFile(note);
        // a writer that died between the temporary file's write and its rename left the whole note there
        return seq >= 0 || Files.exists(note, LinkOption.NOFOLLOW_LINKS) ? seq : readFile(tmpOf(note));
    }

    private static long readFile(Path note) {
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
     * Deletes the note (a file that does not check out is moved aside to {@code NOTE.cut}, or {@code NOTE.N.cut},
     * instead: it may be a user's file of that name) and a temporary file a failed write left, then syncs the folder.
     *
     * @param note the note's path
     * @param valid whether the note checked out ({@link #read})
     * @throws IolabException when a file cannot be deleted or moved
     */
    public static void clear(Path note, boolean valid) {
        try {
            boolean any;
            if (valid) {
                any = Files.deleteIfExists(note);
            } else {
                any = Files.exists(note, LinkOption.NOFOLLOW_LINKS);
                if (any) {
                    String name = note.getFileName().toString();
                    Path target = note.resolveSibling(name + ".cut");
                    for (int i = 1; Files.exists(target, LinkOption.NOFOLLOW_LINKS); i++) {
                        target = note.resolveSibling(name + "." + i + ".cut");
                    }
                    Files.move(note, target);
                }
            }
            any |= Files.deleteIfExists(tmpOf(note));
            if (any) {
                try (FileChannel d = FileChannel.open(note.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
                    d.force(true);
                }
            }
        } catch (IOException e) {
            throw IolabException.io("delete the failed-sync note", note, e);
        }
    }
}
