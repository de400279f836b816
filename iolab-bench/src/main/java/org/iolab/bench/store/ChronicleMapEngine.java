package org.iolab.bench.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.Map;
import net.openhft.chronicle.map.ChronicleMap;
import org.iolab.IolabException;
import org.iolab.storage.Durability;

/**
 * Chronicle Map ({@code net.openhft:chronicle-map}, off-heap hash map in a memory-mapped file
 * {@code store.cm}); it must be sized up front (entries, average key and value size) and needs many JDK
 * flags ({@code --add-opens}/{@code --add-exports} of JDK internals, and the {@code jdk.compiler} module).
 *
 * <p>Chronicle Map has no sync of its own. Durability: NONE never syncs; BATCH calls
 * {@code FileChannel.force(false)} on the map file (which writes back the file's dirty mapped pages) every
 * 1 MiB or 2 ms; ALWAYS does so after every put and delete. {@link #close()} forces the file, then closes
 * the map.
 */
public final class ChronicleMapEngine implements KvEngine {
    private ChronicleMap<byte[], byte[]> map;
    private FileChannel syncChannel;
    private GroupCommit syncs;
    private Path dir;

    /** Creates a closed engine. */
    public ChronicleMapEngine() {
    }

    @Override
    public String name() {
        return "chronicle-map";
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        syncs = GroupCommit.of(durability);
        Path file = dir.resolve("store.cm");
        try {
            map = ChronicleMap.of(byte[].class, byte[].class).name("kv")
                    .entries(sizing.entries())
                    .averageKeySize(sizing.averageKey())
                    .averageValueSize(sizing.averageValue())
                    .createPersistedTo(file.toFile());
            syncChannel = FileChannel.open(file, StandardOpenOption.WRITE);
        } catch (IOException e) {
            release();
            throw IolabException.io("open chronicle-map", file, e);
        } catch (LinkageError | IllegalStateException | UnsupportedOperationException e) {
            release();
            throw new EngineNotRunnableException(name(), "Chronicle Map did not start on this JVM (run with the "
                    + "flags in StoreBenchmark's @Fork): " + e, e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map.put(key, value);
        written(key.length + value.length);
    }

    @Override
    public byte[] get(byte[] key) {
        return map.get(key);
    }

    @Override
    public void delete(byte[] key) {
        map.remove(key);
        written(key.length);
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        Iterator<Map.Entry<byte[], byte[]>> it = map.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<byte[], byte[]> e = it.next();
            n++;
            if (!visitor.visit(ByteBuffer.wrap(e.getKey()), ByteBuffer.wrap(e.getValue()))) {
                break;
            }
        }
        return n;
    }

    @Override
    public void sync() {
        try {
            syncChannel.force(false);
        } catch (IOException e) {
            throw IolabException.io("sync chronicle-map", dir.resolve("store.cm"), e);
        }
        syncs.done();
    }

    @Override
    public void close() {
        if (map == null) {
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
        if (syncs.add(bytes)) {
            sync();
        }
    }

    private void release() {
        try {
            if (map != null) {
                map.close();
            }
            if (syncChannel != null) {
                syncChannel.close();
            }
        } catch (IOException e) {
            throw IolabException.io("close chronicle-map", dir.resolve("store.cm"), e);
        } finally {
            map = null;
            syncChannel = null;
        }
    }
}
