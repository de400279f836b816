package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.iolab.IolabException;
import org.iolab.storage.Durability;

/**
 * H2's MVStore ({@code com.h2database:h2-mvstore}, pure Java): one {@code MVMap<byte[], byte[]>} in the
 * file {@code store.mv}, default options.
 *
 * <p>Durability: NONE keeps MVStore's auto-commit (a background thread writes changes about once a second)
 * and never syncs; BATCH also commits and syncs ({@code commit()} + {@code sync()}) every 1 MiB or 2 ms;
 * ALWAYS commits and syncs after every put and delete. {@link #close()} commits and syncs.
 */
public final class MvStoreEngine implements KvEngine {
    private MVStore store;
    private MVMap<byte[], byte[]> map;
    private Durability durability;
    private GroupCommit syncs;
    private Path dir;

    /** Creates a closed engine. */
    public MvStoreEngine() {
    }

    @Override
    public String name() {
        return "mvstore";
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        this.durability = durability;
        syncs = GroupCommit.of(durability);
        try {
            store = new MVStore.Builder().fileName(dir.resolve("store.mv").toString()).open();
            map = store.openMap("kv");
        } catch (MVStoreException e) {
            throw fail("open", e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            map.put(key, value);
        } catch (MVStoreException e) {
            throw fail("put", e);
        }
        written(key.length + value.length);
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return map.get(key);
        } catch (MVStoreException e) {
            throw fail("get", e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            map.remove(key);
        } catch (MVStoreException e) {
            throw fail("delete", e);
        }
        written(key.length);
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        try {
            Iterator<Map.Entry<byte[], byte[]>> it = map.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<byte[], byte[]> e = it.next();
                n++;
                if (!visitor.visit(ByteBuffer.wrap(e.getKey()), ByteBuffer.wrap(e.getValue()))) {
                    break;
                }
            }
        } catch (MVStoreException e) {
            throw fail("scan", e);
        }
        return n;
    }

    @Override
    public void sync() {
        try {
            store.commit();
            store.sync();
        } catch (MVStoreException e) {
            throw fail("sync", e);
        }
        syncs.done();
    }

    @Override
    public void close() {
        if (store == null) {
            return;
        }
        try {
            sync();
            store.close();
        } catch (MVStoreException e) {
            throw fail("close", e);
        } finally {
            if (!store.isClosed()) {
                store.closeImmediately();
            }
            store = null;
            map = null;
        }
    }

    @Override
    public long sizeOnDisk() {
        return Folders.size(dir);
    }

    private void written(int bytes) {
        if (syncs.add(bytes)) {
            sync();
        }
    }

    private IolabException fail(String op, RuntimeException e) {
        return new IolabException("engine " + name() + " (" + durability + "): " + op + " failed in " + dir + ": "
                + e.getMessage(), e);
    }
}
