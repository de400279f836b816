package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.iolab.IolabException;
import org.iolab.storage.Durability;

/**
 * SQLite through sqlite-jdbc ({@code org.xerial:sqlite-jdbc}, native code): one table
 * {@code kv(k BLOB PRIMARY KEY, v BLOB)} in {@code store.db}, WAL journal mode, prepared statements.
 *
 * <p>Durability: NONE runs with {@code synchronous=OFF} and batches writes into transactions of 1 MiB;
 * BATCH runs with {@code synchronous=FULL} and commits (which syncs the WAL) every 1 MiB or 2 ms; ALWAYS
 * runs with {@code synchronous=FULL} in auto-commit: every put and delete is its own synced transaction.
 * Reads between writes see the open transaction. {@link #close()} commits; with NONE it then runs a
 * checkpoint with {@code synchronous=FULL} so the closed file is durable.
 */
public final class SqliteEngine implements KvEngine {
    private Connection conn;
    private PreparedStatement put;
    private PreparedStatement get;
    private PreparedStatement delete;
    private PreparedStatement scan;
    private Durability durability;
    private GroupCommit commits;
    private boolean inTxn;
    private Path dir;

    /** Creates a closed engine. */
    public SqliteEngine() {
    }

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        this.durability = durability;
        commits = switch (durability) {
            case NONE -> GroupCommit.bytesOnly();
            case BATCH -> GroupCommit.batch();
            case ALWAYS -> null;
        };
        try {
            conn = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("store.db"));
            try (Statement s = conn.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=" + (durability == Durability.NONE ? "OFF" : "FULL"));
                s.execute("CREATE TABLE IF NOT EXISTS kv (k BLOB PRIMARY KEY, v BLOB)");
            }
            conn.setAutoCommit(true);
            put = conn.prepareStatement("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)");
            get = conn.prepareStatement("SELECT v FROM kv WHERE k = ?");
            delete = conn.prepareStatement("DELETE FROM kv WHERE k = ?");
            scan = conn.prepareStatement("SELECT k, v FROM kv");
        } catch (SQLException e) {
            release();
            throw fail("open", e);
        } catch (LinkageError e) {
            release();
            throw new EngineNotRunnableException(name(), "sqlite-jdbc's native library did not load: " + e, e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            begin();
            put.setBytes(1, key);
            put.setBytes(2, value);
            put.executeUpdate();
        } catch (SQLException e) {
            throw fail("put", e);
        }
        written(key.length + value.length);
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            get.setBytes(1, key);
            try (ResultSet rs = get.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        } catch (SQLException e) {
            throw fail("get", e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            begin();
            delete.setBytes(1, key);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw fail("delete", e);
        }
        written(key.length);
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        try (ResultSet rs = scan.executeQuery()) {
            while (rs.next()) {
                n++;
                if (!visitor.visit(ByteBuffer.wrap(rs.getBytes(1)), ByteBuffer.wrap(rs.getBytes(2)))) {
                    break;
                }
            }
        } catch (SQLException e) {
            throw fail("scan", e);
        }
        return n;
    }

    @Override
    public void sync() {
        try {
            commit();
            if (durability == Durability.NONE) {
                try (Statement s = conn.createStatement()) {
                    s.execute("PRAGMA synchronous=FULL");
                    s.execute("PRAGMA wal_checkpoint(FULL)");
                    s.execute("PRAGMA synchronous=OFF");
                }
            }
        } catch (SQLException e) {
            throw fail("sync", e);
        }
    }

    @Override
    public void close() {
        if (conn == null) {
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

    private void begin() throws SQLException {
        if (commits != null && !inTxn) {
            conn.setAutoCommit(false);
            inTxn = true;
        }
    }

    private void commit() throws SQLException {
        if (inTxn) {
            conn.commit();
            conn.setAutoCommit(true);
            inTxn = false;
        }
        if (commits != null) {
            commits.done();
        }
    }

    private void written(int bytes) {
        if (commits != null && commits.add(bytes)) {
            try {
                commit();
            } catch (SQLException e) {
                throw fail("commit", e);
            }
        }
    }

    private void release() {
        try {
            if (conn != null) {
                conn.close(); // closes its statements
            }
        } catch (SQLException e) {
            throw fail("close", e);
        } finally {
            conn = null;
            put = get = delete = scan = null;
            inTxn = false;
        }
    }

    private IolabException fail(String op, SQLException e) {
        return new IolabException("engine " + name() + " (" + durability + "): " + op + " failed in " + dir + ": "
                + e.getMessage(), e);
    }
}
