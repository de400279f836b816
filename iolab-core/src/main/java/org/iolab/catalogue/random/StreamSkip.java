package org.iolab.catalogue.random;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.iolab.checksum.Checksum64;

/** The skip-then-read loop shared by the stream methods, which can only move forward. */
final class StreamSkip {
    private StreamSkip() {
    }

    /**
     * Skips {@code in} forward to each position and reads {@code length} bytes there.
     *
     * @param in a stream at offset 0 of {@code file}
     * @param file the file, for messages
     * @param positions ascending offsets
     * @param length bytes at each offset
     * @return the checksum of the bytes read, in order
     * @throws IOException when the stream fails or ends before a position's bytes
     */
    static long probe(InputStream in, Path file, long[] positions, int length) throws IOException {
        Checksum64 sum = new Checksum64();
        byte[] buf = new byte[length];
        long at = 0;
        for (long p : positions) {
            if (p < at) {
                throw new IllegalArgumentException("positions must ascend for a stream: " + p
                        + " comes after offset " + at + " was reached");
            }
            while (at < p) {
                long skipped = in.skip(p - at);
                if (skipped > 0) {
                    at += skipped;
                } else if (in.read() >= 0) { // skip may make no progress; a read does or finds the end
                    at++;
                } else {
                    throw new EOFException(file + " ends at " + at + ", before offset " + p);
                }
            }
            int n = in.readNBytes(buf, 0, length);
            if (n < length) {
                throw new EOFException(file + " ends at " + (p + n) + ", before " + length
                        + " bytes could be read at offset " + p);
            }
            at += length;
            sum.update(buf, 0, length);
        }
        return sum.value();
    }
}
