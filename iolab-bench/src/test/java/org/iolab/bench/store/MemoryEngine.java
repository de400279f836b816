package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.iolab.storage.Durability;

/**
 * A correct in-memory engine (its "disk" survives close and reopen within the object), and the same with one
 * injected fault, to show that the workload's checks catch each kind of broken store.
 */
final class MemoryEngine implements KvEngine {
    /** The fault injected. */
    enum Fault {
        /** None: a correct store. */
        NONE,
        /** Every 10th put is silently dropped. */
        DROP_EVERY_10TH_PUT,
        /** Every 10th delete is silently ignored. */
        IGNORE_EVERY_10TH_DELETE,
        /** Every 10th get returns the value with one byte changed. */
        CORRUPT_EVERY_10TH_GET,
        /** Every 10th get of a live key returns null. */
        MISS_EVERY_10TH_GET,
        /** The scan skips the first record. */
        SCAN_SKIPS_ONE,
        /** A reopen loses the last 10 records written. */
        LOSE_TAIL_ON_REOPEN,
        /** A get returns another key's value (the next one in insertion order). */
        WRONG_RECORD_ON_GET
    }

    private final Fault fault;
    private final Map<String, byte[]> disk = new LinkedHashMap<>();
    private boolean open;
    private long puts;
    private long deletes;
    private long gets;

    MemoryEngine(Fault fault) {
        this.fault = fault;
    }

    @Override
    public String name() {
        return "memory-" + fault.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        if (fault == Fault.LOSE_TAIL_ON_REOPEN && !disk.isEmpty()) {
            List<String> keys = new ArrayList<>(disk.keySet());
            for (int i = Math.max(0, keys.size() - 10); i < keys.size(); i++) {
                disk.remove(keys.get(i));
            }
        }
        open = true;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        writes++;
        if (fault == Fault.DROP_EVERY_10TH_PUT && ++puts % 10 == 0) {
            return;
        }
        String k = Arrays.toString(key);
        disk.remove(k); // insertion order = last write
        disk.put(k, value.clone());
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] v = disk.get(Arrays.toString(key));
        if (v == null) {
            return null;
        }
        gets++;
        if (fault == Fault.CORRUPT_EVERY_10TH_GET && gets % 10 == 0) {
            byte[] c = v.clone();
            c[c.length - 1] ^= 1;
            return c;
        }
        if (fault == Fault.MISS_EVERY_10TH_GET && gets % 10 == 0) {
            return null;
        }
        if (fault == Fault.WRONG_RECORD_ON_GET) {
            List<byte[]> values = new ArrayList<>(disk.values());
            for (int i = 0; i < values.size(); i++) {
                if (values.get(i) == v) {
                    return values.get((i + 1) % values.size()).clone();
                }
            }
        }
        return v.clone();
    }

    @Override
    public void delete(byte[] key) {
        writes++;
        if (fault == Fault.IGNORE_EVERY_10TH_DELETE && ++deletes % 10 == 0) {
            return;
        }
        disk.remove(Arrays.toString(key));
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        boolean skip = fault == Fault.SCAN_SKIPS_ONE;
        for (Map.Entry<String, byte[]> e : disk.entrySet()) {
            if (skip) {
                skip = false;
                continue;
            }
            n++;
            if (!visitor.visit(ByteBuffer.wrap(key(e.getKey())), ByteBuffer.wrap(e.getValue()))) {
                break;
            }
        }
        return n;
    }

    private static byte[] key(String text) {
        String[] parts = text.substring(1, text.length() - 1).split(", ");
        byte[] b = new byte[parts.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = Byte.parseByte(parts[i]);
        }
        return b;
    }

    /** Calls of {@link #sync()}, and the puts and deletes made before the last one. */
    int syncs;
    long writesAtLastSync;
    private long writes;

    @Override
    public void sync() {
        syncs++;
        writesAtLastSync = writes;
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public long sizeOnDisk() {
        return disk.values().stream().mapToLong(v -> v.length).sum();
    }

    boolean isOpen() {
        return open;
    }
}
