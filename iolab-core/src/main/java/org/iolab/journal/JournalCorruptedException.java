package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iolab.IolabException;

/**
 * A journal segment holds bytes that are not a valid record where one must be: a bad CRC, length or
 * sequence inside a sealed segment, a bad segment header, or a gap between segments. The journal never skips
 * such a record; the message names the file, the offset and what is wrong.
 */
public final class JournalCorruptedException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** The damaged file. */
    private final transient Path file;
    /** The byte offset of the damage in {@link #file()}. */
    private final long offset;
    /** What is wrong there. */
    private final String what;

    /**
     * @param file the damaged segment
     * @param offset the byte offset of the damaged record or header
     * @param what what is wrong there
     */
    public JournalCorruptedException(Path file, long offset, String what) {
        this(file, offset, what, "'iolab journal repair " + parent(file) + "' " + (offset < Format.HEADER_SIZE
                // a damaged header over intact records is written again, nothing cut (a review found this advice
                // said records would be lost when repair lost none)
                ? "to write the header again if the segment's records are intact, else to cut the journal there"
                        + " (the records from it on are then lost)"
                : "to cut the damaged records out: the records before them stay, so do the intact records after them that"
                        + " end the segment's data, and every later segment (readers pass over the gap); the bytes it"
                        + " cuts, unless they are all zeros, are copied to a *.cut file first"));
    }

    /**
     * @param file the damaged segment
     * @param offset the byte offset of the damaged record or header
     * @param what what is wrong there
     * @param repair what {@code iolab journal repair} does about it, from the command on
     */
    JournalCorruptedException(Path file, long offset, String what, String repair) {
        super("journal corrupted: " + file + " at offset " + offset + ": " + what
                + "; run 'iolab journal verify " + parent(file) + "' for a full report and " + repair);
        this.file = file;
        this.offset = offset;
        this.what = what;
    }

    /**
     * @param file the journal's first segment, which starts at {@code firstSeq} &gt; 0 without the start marker
     * @param firstSeq its first sequence
     * @param header its header, or null when not at hand
     * @return the error for a journal whose first segments are missing
     */
    static JournalCorruptedException missingStart(Path file, long firstSeq, ByteBuffer header) {
        return new JournalCorruptedException(file, Format.START_OFFSET, Format.missingStart(firstSeq, header),
                "'iolab journal repair " + parent(file) + "' to start the journal at sequence " + firstSeq
                        + ", accepting that the records before it are gone");
    }

    private static Object parent(Path file) {
        Path p = file.getParent();
        return p == null ? "." : p;
    }

    /** @return the damaged segment file */
    public Path file() {
        return file;
    }

    /** @return the byte offset of the damage in {@link #file()} */
    public long offset() {
        return offset;
    }

    /** @return what is wrong there (the message without the file, offset and advice) */
    public String what() {
        return what;
    }
}
