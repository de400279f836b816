package org.iolab.store;

import java.nio.file.Path;
import org.iolab.IolabException;

/** Another writer (in this or another process) holds the store's lock file {@code FILE.lock}. */
public final class StoreLockedException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** @param lockFile the lock file that is held */
    public StoreLockedException(Path lockFile) {
        super("store " + Store.dataFileOf(lockFile) + " is already open for writing (lock " + lockFile
                + " is held by this or another process); close the other writer first");
    }
}
