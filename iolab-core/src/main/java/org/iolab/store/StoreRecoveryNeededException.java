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

    /**
     * @param file the data file
     * @param why why it needs recovery
     */
    public StoreRecoveryNeededException(Path file, String why) {
        super("store " + file + " needs recovery before it can be read (" + why + "), and recovery writes to it;"
                + " open it for writing once (any 'iolab store' command but verify does) to recover it");
        this.file = file;
    }

    /** @return the data file */
    public Path file() {
        return file;
    }
}
