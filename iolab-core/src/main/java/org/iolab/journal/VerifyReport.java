package org.iolab.journal;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link Journal#verify(Path)} found.
 *
 * @param dir the journal directory
 * @param segments how many segment files
 * @param records how many valid records
 * @param bytes bytes of valid framed records (headers and padding included)
 * @param cut how many sequences between segments a {@link Journal#repair} cut (damaged records, kept in
 *     {@code *.cut} files; readers pass over them): not a problem
 * @param problems every problem found, in file order
 */
public record VerifyReport(Path dir, int segments, long records, long bytes, long cut, List<Problem> problems) {
    /**
     * @param dir the journal directory
     * @param segments how many segment files
     * @param records how many valid records
     * @param bytes bytes of valid framed records
     * @param cut how many sequences between segments a repair cut
     * @param problems every problem found
     */
    public VerifyReport {
        problems = List.copyOf(problems);
    }

    /**
     * One problem.
     *
     * @param file the segment
     * @param offset byte offset in {@code file}
     * @param what what is wrong
     * @param recoverable true for what the next open mends by itself: a torn tail in the last segment, which it
     *        truncates (records there were never acknowledged as durable), a last segment whose creation was
     *        interrupted, segments an interrupted {@link Journal#deleteBefore} left; false for corruption that needs
     *        {@code repair}
     */
    public record Problem(Path file, long offset, String what, boolean recoverable) {
        /**
         * @return true when this is the journal's first segment, which starts after sequence 0 without the start
         *     marker: the segments before it are missing; {@link Journal#repair} marks it, accepting the loss
         */
        public boolean missingSegmentsBefore() {
            return !recoverable && offset == Format.START_OFFSET;
        }

        @Override
        public String toString() {
            return file + " @ " + offset + ": " + what + (recoverable ? " (the next open mends it)" : "");
        }
    }

    /** @return true when no unrecoverable problem was found */
    public boolean ok() {
        return problems.stream().allMatch(Problem::recoverable);
    }
}
