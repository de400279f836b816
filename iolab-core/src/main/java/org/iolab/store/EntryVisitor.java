package org.iolab.store;

import java.nio.ByteBuffer;

/** Receives every live record of a {@link Store#scan(EntryVisitor) scan} as read-only views (no per-record copy). */
@FunctionalInterface
public interface EntryVisitor {
    /**
     * Called once per live record, in file order.
     *
     * @param key a read-only view of the key, valid only during this call
     * @param value a read-only view of the value, valid only during this call
     */
    void visit(ByteBuffer key, ByteBuffer value);
}
