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
 * @param problems every problem found, in file order
 */
public record VerifyReport(Path dir, int segments, long records, long bytes, List<Problem> problems) {
    /**
     * @param dir the journal directory
     * @param segments how many segment files
     * @param records how many valid records
     * @param bytes bytes of valid framed records
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
     * @param recoverable true for a torn tail in the last segment, which the next open truncates (records
     *        there were never acknowledged as durable); false for corruption that needs {@code repair}
     */
    public record Problem(Path file, long offset, String what, boolean recoverable) {
        @Override
        public String toString() {
            return file + " @ " + offset + ": " + what + (recoverable ? " (torn tail: the next open truncates it)" : "");
        }
    }

    /** @return true when no unrecoverable problem was found */
    public boolean ok() {
        return problems.stream().allMatch(Problem::recoverable);
    }
}
