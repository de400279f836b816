package org.iolab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.iolab.IolabException;

/**
 * Records as lines of text, both ways: {@link Reader} splits standard input into lines (a {@code "\r\n"} ending, or a
 * {@code '\r'} at the end of the input, counts as a newline; a line longer than the longest record is refused, naming
 * it), and with {@code --escape} a record's backslash, newline, carriage return and tab are written as {@code \\},
 * {@code \n}, {@code \r} and {@code \t} ({@link #escape}) and read back ({@link #unescape}), so that any record, and
 * any key and value, survives a round trip through a line. Without it a record is written as it is, and a record
 * holding a newline (or a key holding a tab) cannot be told from two.
 */
final class Lines {
    private Lines() {
    }

    /** Splits a byte stream at {@code '\n'}. Not thread-safe. */
    static final class Reader {
        private final InputStream in;
        private final long max;
        private final String longest;
        private byte[] buf = new byte[256];
        private long lineNo;

        /**
         * @param in the input
         * @param max the longest line accepted, in bytes (the longest record)
         * @param longest what {@code max} is, for the message, e.g. "the largest record of journal J"
         */
        Reader(InputStream in, long max, String longest) {
            this.in = in;
            this.max = max;
            this.longest = longest;
        }

        /**
         * @return the next line without its newline, or null at the end of the input
         * @throws IolabException naming the line when it is longer than the longest record (nothing of it is used)
         */
        byte[] next() throws IOException {
            int n = 0;
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                if (n > max) { // max bytes and a carriage return may still be a line of max bytes
                    throw tooLong();
                }
                if (n == buf.length) {
                    buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(n * 2L, 256)));
                }
                buf[n++] = (byte) b;
            }
            if (b < 0 && n == 0) {
                return null;
            }
            if (n > 0 && buf[n - 1] == '\r') {
                n--;
            }
            if (n > max) {
                throw tooLong();
            }
            lineNo++;
            return Arrays.copyOf(buf, n);
        }

        private IolabException tooLong() {
            return new IolabException("line " + (lineNo + 1) + " of standard input is longer than " + max
                    + " bytes, " + longest + (lineNo > 0 ? "; the lines before it were applied" : ""));
        }

        /** @return the number of the line {@link #next()} returned last (1 for the first) */
        long lineNumber() {
            return lineNo;
        }
    }

    /**
     * Writes {@code b[from, to)} with its backslashes, newlines, carriage returns and tabs escaped.
     */
    static void escape(OutputStream out, byte[] b, int from, int to) throws IOException {
        int run = from;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            char e = switch (c) {
                case '\\' -> '\\';
                case '\n' -> 'n';
                case '\r' -> 'r';
                case '\t' -> 't';
                default -> 0;
            };
            if (e != 0) {
                out.write(b, run, i - run);
                out.write('\\');
                out.write(e);
                run = i + 1;
            }
        }
        out.write(b, run, to - run);
    }

    /**
     * @param line a line of {@code --escape} input
     * @param from first byte
     * @param to end
     * @param lineNo its number, for the message
     * @return {@code line[from, to)} with {@code \\}, {@code \n}, {@code \r} and {@code \t} turned back into bytes
     * @throws IolabException naming the line when a backslash starts anything else
     */
    static byte[] unescape(byte[] line, int from, int to, long lineNo) {
        byte[] out = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = line[i];
            if (c != '\\') {
                out[n++] = c;
                continue;
            }
            int at = i - from + 1; // the backslash's byte number in the field, from 1
            byte e = i + 1 < to ? line[++i] : 0;
            out[n++] = switch (e) {
                case '\\' -> (byte) '\\';
                case 'n' -> (byte) '\n';
                case 'r' -> (byte) '\r';
                case 't' -> (byte) '\t';
                default -> throw new IolabException("line " + lineNo + " of standard input has a backslash at byte "
                        + at + " that starts no escape: with --escape, write a backslash"
                        + " as \\\\, and a newline, carriage return or tab as \\n, \\r or \\t"
                        + (lineNo > 1 ? "; the lines before it were applied" : ""));
            };
        }
        return Arrays.copyOf(out, n);
    }

    /** @return whether {@code b[from, to)} holds {@code x} */
    static boolean contains(byte[] b, int from, int to, byte x) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return true;
            }
        }
        return false;
    }
}
