package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A command whose standard output was lost does not exit 0 (a {@link PrintStream} swallows the write error). */
class MainOutputTest {
    /** @return a stream whose every write fails with {@code reason} */
    private static PrintStream failing(String reason) {
        return new PrintStream(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException(reason);
            }
        }, true, StandardCharsets.UTF_8);
    }

    @Test
    void lostOutputIsAnErrorWithAMessage() {
        PrintStream full = failing("No space left on device"); // as /dev/full
        full.println("a table no one will see");
        StringWriter err = new StringWriter();
        assertEquals(Main.USER_ERROR, Main.outputWritten(full, new PrintWriter(err), false));
        assertTrue(err.toString().startsWith("iolab: cannot write to standard output"), err.toString());
    }

    @Test
    void aReaderThatLeftThePipeEndsItQuietlyButNotWithZero() {
        PrintStream closed = failing("Broken pipe");
        closed.println("more lines than head wanted");
        StringWriter err = new StringWriter();
        assertEquals(Main.BROKEN_PIPE, Main.outputWritten(closed, new PrintWriter(err), true));
        assertEquals("", err.toString(), "| head is not an error to report");
    }

    @Test
    void writtenOutputIsSuccess() {
        var bytes = new java.io.ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8);
        out.println("all here");
        StringWriter err = new StringWriter();
        assertEquals(0, Main.outputWritten(out, new PrintWriter(err), false));
        assertEquals("", err.toString());
        assertEquals("all here\n", bytes.toString(StandardCharsets.UTF_8));
    }
}
