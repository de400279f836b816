package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;

/**
 * MapDB 3 ({@code org.mapdb:mapdb}, pure Java/Kotlin): one {@code HTreeMap<byte[], byte[]>} in the file
 * {@code store.mapdb}, memory-mapped when the platform supports it.
 *
 * <p>Durability: NONE runs without transactions (no write-ahead log; nothing is synced before close, and an
 * unclean stop can corrupt the file); BATCH enables transactions and commits (which syncs its WAL) every
 * 1 MiB or 2 ms; ALWAYS enables transactions and commits after every put and delete.
 * {@link #close()} commits and closes (which syncs the file).
 */
public final class MapDbEngine implements KvEngine {
    private DB db;
    private HTreeMap<byte[], byte[]> map;
    private Durability durability;
    private GroupCommit syncs;
    private Path dir;

    /** Creates a closed engine. */
    public MapDbEngine() {
    }

    @Override
    public String name() {
        return "mapdb";
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        this.durability = durability;
        syncs = GroupCommit.of(durability);
        try {
            DBMaker.Maker maker = DBMaker.fileDB(dir.resolve("store.mapdb").toFile()).fileMmapEnableIfSupported()
                    .cleanerHackEnable();
            if (durability != Durability.NONE) {
                maker = maker.transactionEnable();
            }
            db = maker.make();
            map = db.hashMap("kv", Serializer.BYTE_ARRAY, Serializer.BYTE_ARRAY).createOrOpen();
        } catch (RuntimeException e) {
            if (db != null) {
                db.close();
                db = null;
            }
            throw fail("open", e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            map.put(key, value);
        } catch (RuntimeException e) {
            throw fail("put", e);
        }
        written(key.length + value.length);
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return map.get(key);
        } catch (RuntimeException e) {
            throw fail("get", e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            map.remove(key);
        } catch (RuntimeException e) {
            throw fail("delete", e);
        }
        written(key.length);
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        try {
            for (Map.Entry<byte[], byte[]> e : map.entrySet()) {
                n++;
                if (!visitor.visit(ByteBuffer.wrap(e.getKey()), ByteBuffer.wrap(e.getValue()))) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            throw fail("scan", e);
        }
        return n;
    }

    @Override
    public void sync() {
        try {
            db.commit();
        } catch (RuntimeException e) {
            throw fail("sync", e);
        }
        syncs.done();
    }

    @Override
    public void close() {
        if (db == null) {
            return;
        }
        try {
            sync();
            db.close();
        } catch (RuntimeException e) {
            throw fail("close", e);
        } finally {
            db = null;
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
                + e, e);
    }
}
