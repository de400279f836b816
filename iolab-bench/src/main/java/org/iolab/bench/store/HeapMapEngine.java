package org.iolab.bench.store;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import org.iolab.IolabException;
import org.iolab.storage.Durability;

/**
 * The floor, not a peer: a {@code java.util.HashMap} of copies of the keys and values, on the heap, written to one
 * file ({@code heap.map}) only at close and read back whole at open. A phase on it costs the workload's own work
 * (the key arrays it looks up in shuffled order, the decoding of every employee, the garbage) plus a plain hash
 * map and no I/O at all: a reference for how much of each phase's time is the engine's. It is not a bound: an
 * engine that keeps its entries off the heap can beat it (Chronicle Map's get did, 42.6 against 50.0 ms, in the
 * 06:49 run docs/RESULTS.md reports).
 *
 * <p>It keeps nothing on a crash: only NONE is offered; BATCH and ALWAYS are refused
 * ({@link EngineNotRunnableException}). File format: the entry count (int), then per entry the key length (int),
 * the value length (int), the key and the value; a file that ends early or holds a negative or oversized length is
 * refused with an {@link IolabException} naming it. A close that fails keeps the map open and removes its temporary
 * file.
 */
public final class HeapMapEngine implements KvEngine {
    /** The engine's name. */
    public static final String NAME = "heap-map";
    /** The longest key or value it reloads (a longer length in the file is damage). */
    private static final int MAX_BYTES = 1 << 30;
    private HashMap<ByteBuffer, byte[]> map;
    private Path dir;

    /** Creates a closed engine. */
    public HeapMapEngine() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        if (durability != Durability.NONE) {
            throw new EngineNotRunnableException(NAME, "a heap map keeps nothing on a crash: it runs at none only",
                    null);
        }
        this.dir = dir;
        HashMap<ByteBuffer, byte[]> m = HashMap.newHashMap((int) Math.min(Integer.MAX_VALUE / 2, sizing.entries()));
        Path f = file();
        if (Files.exists(f)) {
            load(f, m);
        }
        map = m;
    }

    private Path file() {
        return dir.resolve("heap.map");
    }

    private static void load(Path f, Map<ByteBuffer, byte[]> m) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(f), 1 << 16))) {
            int n = in.readInt();
            if (n < 0) {
                throw new IolabException(NAME + ": " + f + ": bad entry count " + n + "; delete the file");
            }
            for (int i = 0; i < n; i++) {
                int k = in.readInt();
                int v = in.readInt();
                if (k < 0 || v < 0 || k > MAX_BYTES || v > MAX_BYTES) {
                    throw new IolabException(NAME + ": " + f + ": entry " + i + " has bad lengths " + k + "/" + v
                            + "; delete the file");
                }
                byte[] key = in.readNBytes(k);
                byte[] value = in.readNBytes(v);
                if (key.length != k || value.length != v) {
                    throw new EOFException();
                }
                m.put(ByteBuffer.wrap(key), value);
            }
        } catch (EOFException e) {
            throw new IolabException(NAME + ": " + f + " ends before its last entry; delete the file", e);
        } catch (IOException e) {
            throw IolabException.io("read", f, e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        open().put(ByteBuffer.wrap(key.clone()), value.clone());
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] v = open().get(ByteBuffer.wrap(key));
        return v == null ? null : v.clone();
    }

    @Override
    public void delete(byte[] key) {
        open().remove(ByteBuffer.wrap(key));
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        for (Map.Entry<ByteBuffer, byte[]> e : open().entrySet()) {
            n++;
            if (!visitor.visit(e.getKey().asReadOnlyBuffer(), ByteBuffer.wrap(e.getValue()).asReadOnlyBuffer())) {
                break;
            }
        }
        return n;
    }

    private HashMap<ByteBuffer, byte[]> open() {
        HashMap<ByteBuffer, byte[]> m = map;
        if (m == null) {
            throw new IolabException(NAME + " is closed");
        }
        return m;
    }

    /** Nothing to do: the map is only written at close. */
    @Override
    public void sync() {
        open();
    }

    /** Writes the map to a temporary file and renames it over {@code heap.map} (no fsync: NONE). */
    @Override
    public void close() {
        HashMap<ByteBuffer, byte[]> m = map;
        if (m == null) {
            return;
        }
        Path f = file();
        Path tmp = dir.resolve("heap.map.tmp");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp),
                    1 << 16))) {
                out.writeInt(m.size());
                for (Map.Entry<ByteBuffer, byte[]> e : m.entrySet()) {
                    ByteBuffer k = e.getKey();
                    out.writeInt(k.remaining());
                    out.writeInt(e.getValue().length);
                    out.write(k.array(), k.arrayOffset() + k.position(), k.remaining());
                    out.write(e.getValue());
                }
            }
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            // the map stays open: nothing is lost, and a later close may succeed
            throw IolabException.io(NAME + ": write", tmp, e);
        }
        map = null;
    }

    @Override
    public long sizeOnDisk() {
        return Folders.size(dir);
    }
}
