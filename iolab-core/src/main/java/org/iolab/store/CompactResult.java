package org.iolab.store;

/**
 * What {@link Store#compact()} did.
 *
 * @param records the live records copied
 * @param sizeBefore the data file's size before the compaction (after the open, whose recovery may have cut a tail a
 *        crash left)
 * @param sizeAfter the data file's size after
 * @param nanos how long it took
 */
public record CompactResult(long records, long sizeBefore, long sizeAfter, long nanos) {
}
