package org.iolab.bench.store;

import org.iolab.IolabException;

/** An engine that cannot run here (this JDK, this platform, or this durability level); the message says why. */
public final class EngineNotRunnableException extends IolabException {
    private static final long serialVersionUID = 1L;

    /**
     * @param engine the engine's name
     * @param reason why it cannot run
     * @param cause the failure that showed it, or {@code null}
     */
    public EngineNotRunnableException(String engine, String reason, Throwable cause) {
        super("engine " + engine + ": not runnable: " + reason, cause);
    }
}
