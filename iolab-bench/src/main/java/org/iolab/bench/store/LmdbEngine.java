package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * LMDB through lmdbjava ({@code org.lmdbjava:lmdbjava}, native code through jnr-ffi; its fast buffer proxy
 * needs {@code --add-opens java.base/java.nio=ALL-UNNAMED}). One unnamed-style database {@code kv} in
 * {@code data.mdb}; the map size is fixed at open: 8 × the sized data, at least 64 MiB.
 *
 * <p>Writes go into one long write transaction, committed every 1 MiB written (reads in between use that
 * transaction, so they see the writes); reads with no write pending share one read transaction.
 * Durability: NONE opens the environment with {@code MDB_NOSYNC} (commits do not sync); BATCH also uses
 * {@code MDB_NOSYNC} and commits then {@code env.sync(true)} every 1 MiB or 2 ms; ALWAYS opens without
 * {@code MDB_NOSYNC} and commits (which syncs) after every put and delete. {@link #close()} commits and syncs.
 */
public final class LmdbEngine implements KvEngine {
    private static final int MAX_KEY = 511;

    private Env<ByteBuffer> env;
    private Dbi<ByteBuffer> dbi;
    private Txn<ByteBuffer> txn;
    private boolean writing;
    private Durability durability;
    private GroupCommit commits;
    private GroupCommit batchSync;
    private Path dir;
    private final ByteBuffer keyBuf = ByteBuffer.allocateDirect(MAX_KEY);
    private ByteBuffer valBuf = ByteBuffer.allocateDirect(4096);

    /** Creates a closed engine. */
    public LmdbEngine() {
    }

    @Override
    public String name() {
        return "lmdb";
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        this.durability = durability;
        long data = sizing.entries() * (sizing.averageKey() + sizing.averageValue() + 64L);
        long mapSize = Math.max(64L << 20, 8 * data);
        commits = durability == Durability.ALWAYS ? null : GroupCommit.bytesOnly();
        batchSync = durability == Durability.BATCH ? GroupCommit.batch() : null;
        try {
            EnvFlags[] flags = durability == Durability.ALWAYS ? new EnvFlags[0] : new EnvFlags[] {EnvFlags.MDB_NOSYNC};
            env = Env.create().setMapSize(mapSize).setMaxDbs(1).open(dir.toFile(), flags);
            dbi = env.openDbi("kv", DbiFlags.MDB_CREATE);
        } catch (LmdbException e) {
            throw fail("open", e);
        } catch (RuntimeException | LinkageError e) {
            throw new EngineNotRunnableException(name(), "lmdbjava did not start on this JVM: " + e, e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        Txn<ByteBuffer> t = writeTxn();
        try {
            dbi.put(t, key(key), value(value));
        } catch (LmdbException e) {
            throw fail("put", e);
        }
        written(key.length + value.length);
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            ByteBuffer v = dbi.get(anyTxn(), key(key));
            if (v == null) {
                return null;
            }
            byte[] out = new byte[v.remaining()];
            v.get(out);
            return out;
        } catch (LmdbException e) {
            throw fail("get", e);
        }
    }

    @Override
    public void delete(byte[] key) {
        Txn<ByteBuffer> t = writeTxn();
        try {
            dbi.delete(t, key(key));
        } catch (LmdbException e) {
            throw fail("delete", e);
        }
        written(key.length);
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        try (Cursor<ByteBuffer> c = dbi.openCursor(anyTxn())) {
            for (boolean ok = c.first(); ok; ok = c.next()) {
                n++;
                if (!visitor.visit(c.key(), c.val())) {
                    break;
                }
            }
        } catch (LmdbException e) {
            throw fail("scan", e);
        }
        return n;
    }

    @Override
    public void sync() {
        endTxn();
        try {
            env.sync(true);
        } catch (LmdbException e) {
            throw fail("sync", e);
        }
        if (batchSync != null) {
            batchSync.done();
        }
    }

    @Override
    public void close() {
        if (env == null) {
            return;
        }
        try {
            sync();
        } finally {
            if (txn != null) {
                txn.close();
                txn = null;
            }
            dbi.close();
            env.close();
            env = null;
            dbi = null;
        }
    }

    @Override
    public long sizeOnDisk() {
        return Folders.size(dir);
    }

    private ByteBuffer key(byte[] key) {
        if (key.length > MAX_KEY) {
            throw new IolabException("engine " + name() + ": key of " + key.length + " bytes is longer than LMDB's "
                    + MAX_KEY);
        }
        keyBuf.clear();
        keyBuf.put(key).flip();
        return keyBuf;
    }

    private ByteBuffer value(byte[] value) {
        if (valBuf.capacity() < value.length) {
            valBuf = ByteBuffer.allocateDirect(Math.max(value.length, 2 * valBuf.capacity()));
        }
        valBuf.clear();
        valBuf.put(value).flip();
        return valBuf;
    }

    private Txn<ByteBuffer> anyTxn() {
        if (txn == null) {
            txn = env.txnRead();
            writing = false;
        }
        return txn;
    }

    private Txn<ByteBuffer> writeTxn() {
        if (txn != null && !writing) {
            txn.close();
            txn = null;
        }
        if (txn == null) {
            txn = env.txnWrite();
            writing = true;
        }
        return txn;
    }

    private void endTxn() {
        if (txn == null) {
            return;
        }
        try {
            if (writing) {
                txn.commit();
            }
        } catch (LmdbException e) {
            throw fail("commit", e);
        } finally {
            txn.close();
            txn = null;
        }
    }

    private void written(int bytes) {
        if (durability == Durability.ALWAYS) {
            endTxn(); // a synced commit: the environment has no MDB_NOSYNC
            return;
        }
        if (batchSync != null && batchSync.add(bytes)) {
            sync();
            commits.done();
        } else if (commits.add(bytes)) {
            endTxn();
            commits.done();
        }
    }

    private IolabException fail(String op, RuntimeException e) {
        return new IolabException("engine " + name() + " (" + durability + "): " + op + " failed in " + dir + ": "
                + e.getMessage(), e);
    }
}
