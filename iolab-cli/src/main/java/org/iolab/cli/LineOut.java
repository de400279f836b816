package org.iolab.cli;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output for acknowledgments ({@code journal append}, {@code store load}): passes on whole lines only,
 * in writes of at most {@value #ATOMIC} bytes (Linux's {@code PIPE_BUF}, below which a write to a pipe is atomic),
 * each followed by a flush of the sink. A consumer reading the pipe never sees part of an acknowledgment, even when
 * the process is killed while it prints: a buffer that spilled when full, mid-line, once left a killed
 * {@code journal append} printing "96843" for the acknowledgment "968430". A line longer than the buffer is passed
 * on in pieces (it cannot be atomic). {@link #flush()} keeps an unfinished line; {@link #close()} writes it too.
 * Not thread-safe.
 */
final class LineOut extends OutputStream {
    /** The most bytes one write passes on. */
    static final int ATOMIC = 4096;
    private final OutputStream sink;
    private final byte[] buf = new byte[ATOMIC];
    private int n;
    /** Bytes of {@link #buf} up to and including its last newline. */
    private int lines;

    /** @param sink where the lines go; flushed after each write */
    LineOut(OutputStream sink) {
        this.sink = sink;
    }

    @Override
    public void write(int b) throws IOException {
        if (n == buf.length) {
            pass(lines > 0 ? lines : n);
        }
        buf[n++] = (byte) b;
        if (b == '\n') {
            lines = n;
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    /** Passes on the whole lines buffered; an unfinished line stays. */
    @Override
    public void flush() throws IOException {
        if (lines > 0) {
            pass(lines);
        }
    }

    @Override
    public void close() throws IOException {
        if (n > 0) {
            pass(n);
        }
        sink.flush();
    }

    /** Writes the first {@code k} bytes of {@link #buf} to the sink in one write, flushes it, keeps the rest. */
    private void pass(int k) throws IOException {
        sink.write(buf, 0, k);
        sink.flush();
        if (sink instanceof java.io.PrintStream p && p.checkError()) {
            // a PrintStream swallows the error: the reader of the acknowledgments is gone, and the command must
            // stop and say so rather than go on writing what no one receives
            throw new org.iolab.IolabException("cannot write to standard output (closed, or its reader ended): the"
                    + " acknowledgments stop here; what was applied before is kept, and what was not acknowledged"
                    + " may or may not have been applied");
        }
        System.arraycopy(buf, k, buf, 0, n - k);
        n -= k;
        lines = Math.max(0, lines - k);
    }
}
