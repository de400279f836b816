package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;

/**
 * iolab's record store ({@code org.iolab.store.Store}, branch {@code store}) over one of iolab's storage
 * backends, in the file {@code store.iolab}.
 *
 * <p>{@link Engines} names it {@code iolab} for the default backend and {@code iolab-<backend>} otherwise,
 * e.g. {@code iolab-mapped}.
 *
 * <p>Durability is the store's own {@link Durability}, passed through: NONE syncs nothing before close,
 * BATCH group-commits (a sync every 1 MiB or 2 ms, the journal's policy), ALWAYS syncs every put and
 * delete before it returns.
 */
public final class IolabStoreEngine implements KvEngine {
    private final Backend backend;
    private Store store;
    private Path dir;
    private StoreOptions options;

    /**
     * @param backend the storage backend
     */
    public IolabStoreEngine(Backend backend) {
        this.backend = backend;
    }

    @Override
    public String name() {
        return backend == Backend.DEFAULT ? "iolab" : "iolab-" + backend.label();
    }

    /**
     * @param dir an engine's folder
     * @return the store's data file in it
     */
    static Path file(Path dir) {
        return dir.resolve("store.iolab");
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        options = StoreOptions.defaults().withBackend(backend).withDurability(durability);
        store = Store.open(file(dir), options);
    }

    /**
     * Closes the store, reopens it with or without {@link StoreOptions#withCompression compression} and compacts it
     * ({@link StoreCompressionBenchmark}).
     *
     * @param compress whether the compaction compresses the values
     * @return the symbols of the store's table after it (0 without compression)
     */
    int compact(boolean compress) {
        store.close();
        store = null;
        store = Store.open(file(dir), options.withCompression(compress));
        store.compact();
        return store.stats().symbols();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        store.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) {
        return store.get(key);
    }

    @Override
    public void delete(byte[] key) {
        store.delete(key);
    }

    @Override
    public long scan(Visitor visitor) {
        // the store's scan visits every record; once the visitor says stop, the rest are skipped unseen
        long[] n = {0};
        boolean[] stopped = {false};
        store.scan((ByteBuffer k, ByteBuffer v) -> {
            if (!stopped[0]) {
                n[0]++;
                stopped[0] = !visitor.visit(k, v);
            }
        });
        return n[0];
    }

    @Override
    public void sync() {
        store.sync();
    }

    @Override
    public void close() {
        if (store != null) {
            try {
                store.close();
            } finally {
                store = null;
            }
        }
    }

    @Override
    public long sizeOnDisk() {
        return Folders.size(dir);
    }

    /**
     * The open store itself, for the measurements that need its sequences ({@link StoreLatency} waits with
     * {@link Store#awaitDurable(long)} for what {@link Store#put(byte[], byte[])} returned).
     *
     * @return the store, or {@code null} when closed
     */
    Store store() {
        return store;
    }
}
