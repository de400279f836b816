package org.iolab.store;

import java.nio.file.Path;
import org.iolab.IolabException;

/**
 * {@link Store#openReadOnly} found a store that needs recovery first (an unclean stop), which writes: a read-only
 * open cannot give its state. Opening it once with {@link Store#open} recovers it.
 */
public final class StoreRecoveryNeededException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** The data file. */
    private final transient Path file;

    /** Whether the file holds only zeros. */
    private final boolean blank;

    /**
     * @param file the data file
     * @param why why it needs recovery
     */
    public StoreRecoveryNeededException(Path file, String why) {
        this(file, why, false);
    }

    /**
     * @param file the data file
     * @param why why it needs recovery
     * @param blank whether the file holds only zeros (see {@link #blank()})
     */
    StoreRecoveryNeededException(Path file, String why, boolean blank) {
        super("store " + file + " needs recovery before it can be read (" + why + "), and recovery writes to it;"
                + " open it for writing once (any 'iolab store' command but verify does) to recover it");
        this.file = file;
        this.blank = blank;
    }

    /**
     * @return whether the file holds only zeros: a creation stopped before its header, or a file that never was a
     *         store. It holds no record; its recovery makes it an empty store (and cuts it to the header page)
     */
    public boolean blank() {
        return blank;
    }

    /** @return the data file */
    public Path file() {
        return file;
    }
}
