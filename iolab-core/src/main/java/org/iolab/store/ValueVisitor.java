package org.iolab.store;

import java.nio.ByteBuffer;

/** Receives a value without copying it ({@link Store#get(ByteBuffer, ValueVisitor)}). */
@FunctionalInterface
public interface ValueVisitor {
    /**
     * @param value a read-only view of the value, valid only during this call (copy what you keep)
     */
    void visit(ByteBuffer value);
}
