package org.iolab.store;

/**
 * The payload of one redo-log record (one per operation, little-endian): everything needed to redo the
 * operation physically.
 * <pre>
 * offset  size  field
 *      0     1  op: 1 put, 2 delete
 *      1     3  zero
 *      4     4  slot bytes n that follow the header (0 for a delete)
 *      8     8  store sequence
 *     16     8  offset of the new slot (-1 for a delete)
 *     24     8  offset of the remainder hole left by splitting a hole (-1 when none)
 *     32     4  length of the remainder hole
 *     36     4  length of the freed slot
 *     40     8  offset of the slot this operation freed (old copy or deleted record; -1 when none)
 *     48     4  length of the new slot (its header's slot length)
 *     52     4  key + value bytes of the freed slot
 *     56     8  data end after the operation
 *     64     8  the key's 64-bit hash (finds the index entry of the freed slot)
 *     72     n  the new slot's bytes: header, key, value, padding to 8
 * </pre>
 */
final class Redo {
    static final int HEADER = 72;
    static final int PUT = 1;
    static final int DELETE = 2;

    private Redo() {
    }
}
