package org.iolab.catalogue;

/** What a catalogue method does to a file. */
public enum Kind {
    /** Reads a whole file front to back and checksums every byte. */
    READ,
    /** Reads a whole file as characters (ISO-8859-1, one char per byte) and checksums them. */
    READ_CHARS,
    /** Writes a whole file of known content. */
    WRITE,
    /** Reads bytes at chosen offsets of a file of known layout. */
    RANDOM_ACCESS
}
