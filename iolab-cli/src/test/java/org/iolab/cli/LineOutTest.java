package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineOutTest {
    /** Records each write it is given. */
    private static final class Writes extends OutputStream {
        final List<byte[]> writes = new ArrayList<>();
        final ByteArrayOutputStream all = new ByteArrayOutputStream();
        int flushes;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes.add(java.util.Arrays.copyOfRange(b, off, off + len));
            all.write(b, off, len);
        }

        @Override
        public void flush() {
            flushes++;
        }
    }

    @Test
    void passesOnWholeLinesInAtomicWritesEachFlushed() throws IOException {
        Writes sink = new Writes();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (LineOut out = new LineOut(sink)) {
            for (int i = 0; i < 100_000; i++) {
                byte[] line = (Integer.toString(i * 7919) + "\n").getBytes(StandardCharsets.US_ASCII);
                out.write(line);
                expected.write(line);
                if (i % 5000 == 4999) {
                    out.flush(); // a batch of 5,000 acknowledgments, far more than one write holds
                }
            }
        }
        assertArrayEquals(expected.toByteArray(), sink.all.toByteArray());
        assertTrue(sink.writes.size() > 100, "many writes: " + sink.writes.size());
        for (byte[] w : sink.writes) {
            assertTrue(w.length <= LineOut.ATOMIC, "a write of " + w.length + " bytes");
            assertEquals('\n', w[w.length - 1], "every write ends a line");
        }
        assertTrue(sink.flushes >= sink.writes.size(), "each write flushed");
    }

    @Test
    void keepsAnUnfinishedLineUntilItEndsOrTheStreamCloses() throws IOException {
        Writes sink = new Writes();
        LineOut out = new LineOut(sink);
        out.write("ok a\nok b".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertEquals("ok a\n", sink.all.toString(StandardCharsets.US_ASCII));
        out.write("\nok c".getBytes(StandardCharsets.US_ASCII));
        out.close();
        assertEquals("ok a\nok b\nok c", sink.all.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void aLineLongerThanOneWriteIsPassedOnInPieces() throws IOException {
        Writes sink = new Writes();
        byte[] longLine = new byte[3 * LineOut.ATOMIC + 10];
        java.util.Arrays.fill(longLine, (byte) 'k');
        longLine[longLine.length - 1] = '\n';
        try (LineOut out = new LineOut(sink)) {
            out.write("ok x\n".getBytes(StandardCharsets.US_ASCII));
            out.write(longLine);
        }
        assertEquals(5 + longLine.length, sink.all.size());
        assertArrayEquals("ok x\n".getBytes(StandardCharsets.US_ASCII), sink.writes.getFirst(),
                "the whole line before it first, on its own");
    }
}
