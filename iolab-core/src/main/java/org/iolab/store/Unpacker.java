package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Decodes compressed values ({@link Slots#PACKED}) into a buffer of its own, reused from value to value. */
final class Unpacker {
    /** Values of up to this many code bytes decode loosely ({@link SymbolTable#decodeLoose}), in one pass. */
    private static final int LOOSE_MAX = 64 << 10;
    private byte[] plain = new byte[256];

    /** @return the last value decoded, from index 0 ({@link #unpack}'s length); overwritten by the next */
    byte[] plain() {
        return plain;
    }

    /**
     * Decodes the compressed value of {@code v} bytes at {@code at} of {@code b} into {@link #plain()}.
     *
     * @param t the file's symbol table, or null (then the value is damage)
     * @param file the data file, for the error
     * @param offset the slot's offset, for the error
     * @return the value's length
     * @throws StoreCorruptedException when the value does not decode (or there is no table)
     */
    int unpack(SymbolTable t, ByteBuffer b, int at, int v, Path file, long offset) {
        int n;
        if (t == null) {
            n = -1;
        } else if (v <= LOOSE_MAX) {
            grow((int) SymbolTable.looseRoom(v));
            n = t.decodeLoose(b, at, v, plain);
        } else {
            n = t.decodedLength(b, at, v);
            if (n >= 0 && n <= Slots.MAX_VALUE) {
                grow(n);
                t.decode(b, at, v, plain, 0);
            }
        }
        if (n < 0 || n > Slots.MAX_VALUE) {
            throw new StoreCorruptedException(file, offset, Store.undecodable(t, b, at, v));
        }
        return n;
    }

    private void grow(int n) {
        if (plain.length < n) {
            plain = new byte[Math.max(n, (int) Math.min(Integer.MAX_VALUE - 8, 2L * plain.length))];
        }
    }
}
