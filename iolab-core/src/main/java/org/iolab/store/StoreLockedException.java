package org.iolab.store;

import java.nio.file.Path;
import org.iolab.IolabException;

/**
 * The store's lock file {@code FILE.lock} is held: by a writer ({@link Store#open}), which keeps every other open
 * out, or by readers ({@link Store#openReadOnly}), which keep writers out.
 */
public final class StoreLockedException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** @param lockFile the lock file that is held */
    public StoreLockedException(Path lockFile) {
        super("store " + Store.dataFileOf(lockFile) + " is already open (lock " + lockFile
                + " is held by a writer, or by readers, in this or another process); close it there first");
    }
}
