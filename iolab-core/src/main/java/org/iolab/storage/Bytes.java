package org.iolab.storage;

import java.nio.ByteBuffer;

/** Small checks over buffers that the journal and the store share. */
public final class Bytes {
    private Bytes() {
    }

    /**
     * @param b the bytes, position to limit (neither is moved)
     * @return true when {@code b} holds a non-zero byte
     */
    public static boolean nonZero(ByteBuffer b) {
        int i = b.position();
        int end = b.limit();
        for (; i + 8 <= end; i += 8) {
            if (b.getLong(i) != 0) {
                return true;
            }
        }
        for (; i < end; i++) {
            if (b.get(i) != 0) {
                return true;
            }
        }
        return false;
    }
}
