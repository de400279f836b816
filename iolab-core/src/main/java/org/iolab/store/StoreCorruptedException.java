package org.iolab.store;

import java.nio.file.Path;
import org.iolab.IolabException;

/**
 * A store file holds bytes that no crash can explain where a record or header must be: a failed CRC, an
 * impossible length or type in checkpointed data, an index entry that points to no record, or (after a redo replay)
 * an index entry that points to a hole or another key's record because the redo log lost operations the data file
 * holds. The message names the file, the offset and what to do.
 */
public final class StoreCorruptedException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** The damaged file. */
    private final transient Path file;
    /** The byte offset of the damage. */
    private final long offset;
    /** What is wrong. */
    private final String what;

    /**
     * @param file the damaged file (the data file or its checkpoint)
     * @param offset the byte offset of the damage
     * @param what what is wrong there
     */
    public StoreCorruptedException(Path file, long offset, String what) {
        this(file, offset, what, "run 'iolab store verify " + file + "' for a full report and 'iolab store repair "
                + file + "' to drop the damaged records (they are lost) and keep the rest");
    }

    /**
     * @param file the damaged file
     * @param offset the byte offset of the damage
     * @param what what is wrong there
     * @param advice what to do (the message's end)
     */
    StoreCorruptedException(Path file, long offset, String what, String advice) {
        super("store corrupted: " + file + " at offset " + offset + ": " + what + "; " + advice);
        this.file = file;
        this.offset = offset;
        this.what = what;
    }

    /** @return the damaged file */
    public Path file() {
        return file;
    }

    /** @return the byte offset of the damage */
    public long offset() {
        return offset;
    }

    /** @return what is wrong at {@link #offset()} */
    public String what() {
        return what;
    }
}
