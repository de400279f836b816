package org.iolab.store;

/**
 * A snapshot of a store's space use ({@link Store#stats()}).
 *
 * @param liveRecords records that {@code get} finds
 * @param liveBytes the key and value bytes of the live records
 * @param storedBytes the bytes of the live records' slots (headers and padding included)
 * @param freeBytes the bytes of the holes (free slots), those waiting for their freeing operation to become
 *        durable included
 * @param holes the number of holes
 * @param pendingFrees holes freed by operations not yet durable in the redo log (not reusable yet)
 * @param dataEnd the end of the last slot (the file's logical data length, header page included)
 * @param fileSize the data file's logical size in bytes: its size once closed. While the store is open, the file
 *        of a mapping backend ({@code mapped}, {@code segment}) is longer on disk, by up to its growth step of zeros
 * @param fragmentation {@code freeBytes / fileSize}
 * @param lastSequence the sequence of the last operation
 * @param durableSequence the highest sequence durable at the store's level ({@link Store#durableSequence()})
 * @param checkpointSequence the sequence the last checkpoint covers
 * @param redoBytes bytes in the redo log since the last checkpoint
 * @param symbols the symbols of the file's compression table (0 when its values are not compressed: see
 *        {@link StoreOptions#withCompression})
 */
public record StoreStats(long liveRecords, long liveBytes, long storedBytes, long freeBytes, long holes,
        long pendingFrees, long dataEnd, long fileSize, double fragmentation, long lastSequence,
        long durableSequence, long checkpointSequence, long redoBytes, int symbols) {
}
