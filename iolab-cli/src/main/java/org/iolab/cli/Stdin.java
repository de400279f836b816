package org.iolab.cli;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;

/**
 * Standard input for the commands that read records from it ({@code journal append}, {@code store load}). A review
 * found two ways it went wrong: started with standard input closed ({@code <&-}), the JVM's first file took its
 * number, so a {@code journal append} stored 300 MB of the JDK's own modules file as records and acknowledged them;
 * and standard input from a folder ({@code < /tmp}) failed with an I/O error that ended as an internal error with a
 * stack trace, leaving a new store's files behind. Both are now a user error naming standard input.
 */
final class Stdin {
    private Stdin() {
    }

    /**
     * @param purpose what the command reads, for the messages (e.g. "the records to append")
     * @return standard input, buffered; its reads throw {@link IolabException} naming it instead of an I/O error
     * @throws IolabException when standard input was closed when the command started
     */
    static InputStream open(String purpose) {
        if (closedAtStart()) {
            throw new IolabException("standard input is closed: give " + purpose + " on standard input (a file, a"
                    + " pipe, or < /dev/null for none)");
        }
        return new FilterInputStream(new BufferedInputStream(System.in, 1 << 16)) {
            @Override
            public int read() {
                try {
                    return super.read();
                } catch (IOException e) {
                    throw unreadable(purpose, e);
                }
            }

            @Override
            public int read(byte[] b, int off, int len) {
                try {
                    return super.read(b, off, len);
                } catch (IOException e) {
                    throw unreadable(purpose, e);
                }
            }
        };
    }

    private static IolabException unreadable(String purpose, IOException e) {
        return new IolabException("cannot read standard input (" + e.getMessage() + "): give " + purpose + " on"
                + " standard input from a file or a pipe", e);
    }

    /**
     * @return whether descriptor 0 is a file of the JDK (Linux): it was closed when the JVM started, which opened its
     *     own file under that number; false where the descriptor cannot be asked
     */
    static boolean closedAtStart() {
        try {
            Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/0"));
            Path home = Path.of(System.getProperty("java.home")).toRealPath();
            return target.isAbsolute() && target.startsWith(home);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
