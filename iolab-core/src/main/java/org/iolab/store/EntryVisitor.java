package org.iolab.store;

import java.nio.ByteBuffer;

/** Receives every live record of a {@link Store#scan(EntryVisitor) scan} as read-only views (no per-record copy). */
@FunctionalInterface
public interface EntryVisitor {
    /**
     * Called once per live record, in file order. The views are shared by the records of a scan, not allocated per
     * record: their positions and limits delimit the key and the value (each big-endian at the call), and the
     * positions are not 0, so read them with relative gets or from {@code position()}, or use {@code slice()} for a
     * buffer of your own. {@code rewind()}, {@code clear()}, {@code flip()}, {@code reset()} and {@code capacity()}
     * reach past the record into its neighbours'. Copy what you keep. The visitor must not call the store it visits
     * (a get, a put, a delete...): such a call throws an {@code IolabException}; collect the keys and act after the
     * scan.
     *
     * @param key a read-only view of the key, valid only during this call
     * @param value a read-only view of the value, valid only during this call
     */
    void visit(ByteBuffer key, ByteBuffer value);
}
