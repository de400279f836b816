package org.iolab.journal;

/**
 * One record read from a journal: its sequence and a private copy of its payload.
 *
 * @param sequence the record's sequence (0-based, contiguous)
 * @param payload the payload; a fresh array owned by the caller
 */
public record Record(long sequence, byte[] payload) {
    /**
     * @param sequence the record's sequence
     * @param payload the payload (not copied)
     */
    public Record {
        java.util.Objects.requireNonNull(payload, "payload");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Record r && r.sequence == sequence && java.util.Arrays.equals(r.payload, payload);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(sequence) * 31 + java.util.Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "Record[sequence=" + sequence + ", " + payload.length + " bytes]";
    }
}
