package org.iolab.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.iolab.storage.Backend;

/** Segment bytes for the repair tests: frames as the journal writes them, where a segment's records lie, writes. */
final class Frames {
    private Frames() {
    }

    /** @return a frame as the journal writes it: length, CRC32C, sequence, payload, zero padding to 8 */
    static byte[] frame(long seq, byte[] payload) {
        int length = Format.FRAME_HEADER + payload.length;
        ByteBuffer b = ByteBuffer.allocate((int) Format.align(length)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, length).putInt(4, Format.crc(seq, ByteBuffer.wrap(payload))).putLong(8, seq);
        b.put(16, payload);
        return b.array();
    }

    /** @return the offsets of the intact records of {@code segment}, from its first on, and where they end (last) */
    private static List<Long> walk(Path segment) {
        long size;
        try {
            size = Files.size(segment);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<Long> starts = new ArrayList<>();
        try (SegmentCursor c = new SegmentCursor(Backend.CHANNEL_HEAP::open, segment, size,
                Backend.CHANNEL_HEAP.open(segment, false))) {
            while (c.next(size, false) == SegmentCursor.Status.RECORD) {
                starts.add(c.recordStart());
            }
            starts.add(c.recordStart());
        }
        return starts;
    }

    /** @return the offsets of the intact records of {@code segment} */
    static List<Long> starts(Path segment) {
        List<Long> w = walk(segment);
        return w.subList(0, w.size() - 1);
    }

    /** @return the offset of the last record of {@code segment} (-1 when none) */
    static long lastStart(Path segment) {
        List<Long> w = walk(segment);
        return w.size() < 2 ? -1 : w.get(w.size() - 2);
    }

    /** @return where the intact records of {@code segment} end */
    static long dataEnd(Path segment) {
        return walk(segment).getLast();
    }

    static void writeAt(Path file, long position, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), position);
        }
    }

    /** Copies the segments of journal {@code from} into folder {@code to} (made when missing). */
    static Path copySegments(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        for (Path f : Journal.listSegments(from)) {
            Files.copy(f, to.resolve(f.getFileName()));
        }
        return to;
    }

    /**
     * Repairs journal {@code dir} as a crash at its {@code stop}-th file open (1 on) would leave it: that open throws,
     * and the repair stops there.
     */
    static void repairStoppedAt(Path dir, int stop) {
        int[] n = {0};
        try {
            Journal.repair(dir, what -> { }, (file, writable) -> {
                if (++n[0] == stop) {
                    throw new IllegalStateException("crash");
                }
                return Backend.CHANNEL_HEAP.open(file, writable);
            });
        } catch (IllegalStateException | org.iolab.IolabException crash) {
            // stopped there
        }
    }
}
