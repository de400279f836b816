package org.iolab.store;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link Store#verify(Path)} or {@link Store#repair(Path)} found.
 *
 * @param file the data file
 * @param liveRecords the valid live records found
 * @param holes the valid free slots found
 * @param dataEnd where the data ends
 * @param redoRecords operations in the redo log not yet applied by a checkpoint (an unclean shutdown; the next
 *        open replays them)
 * @param problems every problem, in file order
 */
public record StoreReport(Path file, long liveRecords, long holes, long dataEnd, long redoRecords,
        List<Problem> problems) {
    /** Copies the problem list. */
    public StoreReport {
        problems = List.copyOf(problems);
    }

    /**
     * One problem.
     *
     * @param file the file it is in
     * @param offset its byte offset
     * @param what what is wrong
     * @param recoverable true when the next open repairs it by itself (a torn tail, an unclean shutdown, a missing
     *        or stale checkpoint); false when data is damaged ({@link Store#repair(Path)} drops it)
     */
    public record Problem(Path file, long offset, String what, boolean recoverable) {
        @Override
        public String toString() {
            return file + " at offset " + offset + ": " + what + (recoverable ? " (recovered on open)" : "");
        }
    }

    /** @return true when there is no unrecoverable problem */
    public boolean ok() {
        return problems.stream().allMatch(Problem::recoverable);
    }
}
