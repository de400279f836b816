package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * RocksDB ({@code org.rocksdb:rocksdbjni}, native code) with its default options (LSM tree, Snappy
 * compression, write-ahead log on).
 *
 * <p>Durability: NONE writes the WAL without syncing ({@code WriteOptions.setSync(false)}); BATCH the same,
 * plus {@code flushWal(true)} (flush and sync the WAL) every 1 MiB or 2 ms; ALWAYS
 * {@code WriteOptions.setSync(true)}: every put and delete syncs the WAL. {@link #close()} syncs the WAL
 * before closing.
 */
public final class RocksDbEngine implements KvEngine {
    private RocksDB db;
    private Options options;
    private WriteOptions writeOptions;
    private Durability durability;
    private GroupCommit batch;
    private Path dir;

    /** Creates a closed engine. */
    public RocksDbEngine() {
    }

    @Override
    public String name() {
        return "rocksdb";
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        this.durability = durability;
        try {
            RocksDB.loadLibrary();
        } catch (Throwable t) {
            throw new EngineNotRunnableException(name(), "native library did not load: " + t, t);
        }
        options = new Options().setCreateIfMissing(true);
        writeOptions = new WriteOptions().setSync(durability == Durability.ALWAYS);
        batch = durability == Durability.BATCH ? GroupCommit.batch() : null;
        try {
            db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            release();
            throw fail("open", e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(writeOptions, key, value);
        } catch (RocksDBException e) {
            throw fail("put", e);
        }
        written(key.length + value.length);
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw fail("get", e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            db.delete(writeOptions, key);
        } catch (RocksDBException e) {
            throw fail("delete", e);
        }
        written(key.length);
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
                if (!visitor.visit(ByteBuffer.wrap(it.key()), ByteBuffer.wrap(it.value()))) {
                    break;
                }
            }
            it.status();
        } catch (RocksDBException e) {
            throw fail("scan", e);
        }
        return n;
    }

    @Override
    public void sync() {
        try {
            db.flushWal(true);
        } catch (RocksDBException e) {
            throw fail("sync", e);
        }
        if (batch != null) {
            batch.done();
        }
    }

    @Override
    public void close() {
        if (db == null) {
            return;
        }
        try {
            sync();
        } finally {
            release();
        }
    }

    @Override
    public long sizeOnDisk() {
        return Folders.size(dir);
    }

    private void written(int bytes) {
        if (batch != null && batch.add(bytes)) {
            sync();
        }
    }

    private void release() {
        if (db != null) {
            db.close();
            db = null;
        }
        if (writeOptions != null) {
            writeOptions.close();
            writeOptions = null;
        }
        if (options != null) {
            options.close();
            options = null;
        }
    }

    private IolabException fail(String op, RocksDBException e) {
        return new IolabException("engine " + name() + " (" + durability + "): " + op + " failed in " + dir + ": "
                + e.getMessage(), e);
    }
}
