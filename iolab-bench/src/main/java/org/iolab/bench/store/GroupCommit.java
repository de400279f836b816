package org.iolab.bench.store;

/**
 * The BATCH policy shared by the adapters: a group commit is due once 1 MiB has been written or 2 ms have
 * passed since the last one.
 */
final class GroupCommit {
    /** Bytes written after which a commit is due. */
    static final long BYTES = 1 << 20;
    /** Nanoseconds after which a commit is due. */
    static final long NANOS = 2_000_000;

    private final long bytesLimit;
    private final long nanosLimit;
    private long bytes;
    private long since = System.nanoTime();

    /**
     * @param bytesLimit bytes after which a commit is due
     * @param nanosLimit nanoseconds after which a commit is due, or {@code Long.MAX_VALUE} for none
     */
    GroupCommit(long bytesLimit, long nanosLimit) {
        this.bytesLimit = bytesLimit;
        this.nanosLimit = nanosLimit;
    }

    /** @return the BATCH policy: 1 MiB or 2 ms */
    static GroupCommit batch() {
        return new GroupCommit(BYTES, NANOS);
    }

    /**
     * @param durability the level
     * @return the sync policy of that level for an engine that syncs by itself: never due (NONE: only close
     *         syncs), the BATCH policy, or due at every write (ALWAYS)
     */
    static GroupCommit of(org.iolab.storage.Durability durability) {
        return switch (durability) {
            case NONE -> new GroupCommit(Long.MAX_VALUE, Long.MAX_VALUE);
            case BATCH -> batch();
            case ALWAYS -> new GroupCommit(0, Long.MAX_VALUE);
        };
    }

    /** @return a policy by bytes only (1 MiB), for engines that commit transactions without syncing */
    static GroupCommit bytesOnly() {
        return new GroupCommit(BYTES, Long.MAX_VALUE);
    }

    /**
     * Counts a write.
     *
     * @param written bytes written (key and value)
     * @return whether a commit is now due; when it is, the caller commits and calls {@link #done()}
     */
    boolean add(long written) {
        bytes += written;
        return bytes >= bytesLimit || (nanosLimit != Long.MAX_VALUE && System.nanoTime() - since >= nanosLimit);
    }

    /** Records that a commit happened. */
    void done() {
        bytes = 0;
        since = System.nanoTime();
    }
}
