package org.iolab.store;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeMap;

/** The free-space index: holes by size (best fit) and by offset. Not thread-safe (the writer's). */
final class FreeSpace {
    private final TreeMap<Integer, LinkedHashSet<Long>> bySize = new TreeMap<>();
    private final HashMap<Long, Integer> byOffset = new HashMap<>();
    private long bytes;

    void add(long offset, int length) {
        if (byOffset.putIfAbsent(offset, length) == null) {
            bySize.computeIfAbsent(length, k -> new LinkedHashSet<>()).add(offset);
            bytes += length;
        }
    }

    /** @return the length of the hole at {@code offset} after removing it, or -1 when there is none */
    int remove(long offset) {
        Integer length = byOffset.remove(offset);
        if (length == null) {
            return -1;
        }
        LinkedHashSet<Long> set = bySize.get(length);
        set.remove(offset);
        if (set.isEmpty()) {
            bySize.remove(length);
        }
        bytes -= length;
        return length;
    }

    /**
     * Removes and returns the hole of exactly {@code length} bytes, else the smallest larger one.
     *
     * @param lengthOut receives the hole's length in element 0
     * @return the hole's offset, or -1 when no hole is large enough
     */
    long take(int length, int[] lengthOut) {
        Map.Entry<Integer, LinkedHashSet<Long>> e = bySize.ceilingEntry(length);
        if (e == null) {
            return -1;
        }
        Iterator<Long> it = e.getValue().iterator();
        long offset = it.next();
        it.remove();
        if (e.getValue().isEmpty()) {
            bySize.remove(e.getKey());
        }
        byOffset.remove(offset);
        bytes -= e.getKey();
        lengthOut[0] = e.getKey();
        return offset;
    }

    long bytes() {
        return bytes;
    }

    int count() {
        return byOffset.size();
    }

    boolean isEmpty() {
        return byOffset.isEmpty();
    }

    /** @return the holes as {@code offset, length} pairs */
    Map<Long, Integer> holes() {
        return byOffset;
    }

    void clear() {
        bySize.clear();
        byOffset.clear();
        bytes = 0;
    }
}
