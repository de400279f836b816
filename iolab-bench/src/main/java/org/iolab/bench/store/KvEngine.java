package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Durability;

/**
 * A key-value store as the employee benchmark sees it: one writer thread, byte-array keys and values.
 *
 * <p>An engine is opened on a folder it owns, used, closed, and may be opened again on the same folder
 * (the reopen phase). Every adapter documents how it maps {@link Durability}: NONE syncs nothing before
 * {@link #close()}, BATCH syncs at least every 1 MiB written or 2 ms (group commit; checked at each write,
 * there is no background thread), ALWAYS syncs every operation before it returns. Failures are {@link IolabException}s naming the engine and the operation.
 */
public interface KvEngine extends AutoCloseable {
    /** Sizing hints some stores need up front (Chronicle Map's entry count, LMDB's map size). */
    record Sizing(long entries, int averageKey, int averageValue) {
        /**
         * @param entries most live entries expected, at least 1
         * @param averageKey average key bytes, at least 1
         * @param averageValue average value bytes, at least 1
         */
        public Sizing {
            if (entries < 1 || averageKey < 1 || averageValue < 1) {
                throw new IolabException("bad sizing " + entries + "/" + averageKey + "/" + averageValue
                        + ": entries and sizes must be at least 1");
            }
        }
    }

    /** Receives the live entries of a {@link #scan(Visitor)}. */
    @FunctionalInterface
    interface Visitor {
        /**
         * @param key the key; valid only during the call
         * @param value the value; valid only during the call
         * @return whether to go on
         */
        boolean visit(ByteBuffer key, ByteBuffer value);
    }

    /** @return the engine's name, e.g. {@code rocksdb} */
    String name();

    /**
     * Opens (creating when empty) the store kept in {@code dir}.
     *
     * @param dir an existing folder the engine owns
     * @param durability the durability level
     * @param sizing sizing hints
     * @throws EngineNotRunnableException when the engine cannot run here (JDK, platform or durability level)
     */
    void open(Path dir, Durability durability, Sizing sizing);

    /**
     * Inserts or replaces.
     *
     * @param key the key
     * @param value the value
     */
    void put(byte[] key, byte[] value);

    /**
     * @param key the key
     * @return a copy of its value, or {@code null} when absent
     */
    byte[] get(byte[] key);

    /**
     * Removes {@code key}; absent keys are ignored.
     *
     * @param key the key
     */
    void delete(byte[] key);

    /**
     * Visits every live entry once, in the engine's own order.
     *
     * @param visitor the visitor
     * @return the entries visited
     */
    long scan(Visitor visitor);

    /** Makes everything written so far durable (commit and fsync). */
    void sync();

    /** Makes everything durable and releases the store; closing a closed engine does nothing. */
    @Override
    void close();

    /**
     * @return bytes of all files in the engine's folder (their lengths); valid open or closed
     */
    long sizeOnDisk();
}
