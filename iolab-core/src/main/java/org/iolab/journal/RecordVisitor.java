package org.iolab.journal;

import java.nio.ByteBuffer;

/** Receives records without copying them ({@link Journal#read(long, RecordVisitor)}). */
@FunctionalInterface
public interface RecordVisitor {
    /**
     * Called once per record, in sequence order.
     *
     * @param sequence the record's sequence
     * @param payload a read-only, big-endian view whose position and limit delimit the payload, valid only during
     *        this call: the position need not be 0 (the view is shared by the records of a run, not allocated per
     *        record), so read it with relative gets or from {@code payload.position()}, or use
     *        {@code MemorySegment.ofBuffer(payload)} or {@code payload.slice()}; {@code rewind()}, {@code clear()},
     *        {@code flip()}, {@code reset()} and {@code capacity()} reach past the payload into other records';
     *        copy what you keep
     * @return true to continue, false to stop after this record
     */
    boolean visit(long sequence, ByteBuffer payload);
}
