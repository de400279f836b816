package org.iolab.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Sets or reads a segment's synced mark (header bytes 48..63), for tests that make a closed journal look like one a
 * crash stopped: a closed journal's mark covers every record, so damage to its last record is damage; a crash leaves
 * the records after the last mark, and only those can be a torn tail.
 */
final class SyncedMarks {
    private SyncedMarks() {
    }

    /** Writes the mark saying the records of {@code segment} below {@code offset} were synced (none at 64 or less). */
    static void set(Path segment, long offset) {
        ByteBuffer mark = Format.syncedMark(Format.parseName(segment), offset);
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.write(mark, Format.MARK_OFFSET);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the segment's valid mark, or 64 when it has none */
    static long get(Path segment) {
        ByteBuffer header = ByteBuffer.allocate(Format.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ)) {
            ch.read(header, 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Format.syncedMark(header, Format.parseName(segment), header.getLong(24));
    }
}
