package org.iolab.store;

import java.nio.ByteBuffer;

/** Receives a value without copying it ({@link Store#get(ByteBuffer, ValueVisitor)}). */
@FunctionalInterface
public interface ValueVisitor {
    /**
     * @param value a read-only view of the value, valid only during this call (copy what you keep). The visitor must
     *        not call the store it visits: such a call throws an {@code IolabException}
     */
    void visit(ByteBuffer value);
}
