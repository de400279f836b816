package org.iolab.journal;

import java.nio.file.Path;
import org.iolab.IolabException;

/** Another writer (in this or another process) holds the journal directory's lock file. */
public final class JournalLockedException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** @param lockFile the lock file that is held */
    public JournalLockedException(Path lockFile) {
        super("journal " + lockFile.getParent() + " is already open for writing (lock " + lockFile
                + " is held by this or another process); close the other writer first, or read the"
                + " journal from that writer");
    }
}
