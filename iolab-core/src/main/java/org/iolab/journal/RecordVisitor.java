package org.iolab.journal;

import java.nio.ByteBuffer;

/** Receives records without copying them ({@link Journal#read(long, RecordVisitor)}). */
@FunctionalInterface
public interface RecordVisitor {
    /**
     * Called once per record, in sequence order.
     *
     * @param sequence the record's sequence
     * @param payload a read-only view of the payload, valid only during this call (copy what you keep; use
     *        {@code MemorySegment.ofBuffer(payload)} for a segment view)
     * @return true to continue, false to stop after this record
     */
    boolean visit(long sequence, ByteBuffer payload);
}
