package org.iolab.bench.store;

import org.iolab.IolabException;

/** An engine gave a wrong result in the employee workload: a lost, extra, missing or garbled record. */
public final class WorkloadCheckException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** @param message the engine, the phase, what was expected and what was found */
    public WorkloadCheckException(String message) {
        super(message);
    }
}
