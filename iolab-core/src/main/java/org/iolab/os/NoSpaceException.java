package org.iolab.os;

import org.iolab.IolabException;

/** The device has no space (or the quota is used up) for blocks a file needs; the message names file and sizes. */
public final class NoSpaceException extends IolabException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message the file, the size it needed and what is free, and what to do
     */
    public NoSpaceException(String message) {
        super(message);
    }

    /**
     * @param message the file, the offset or size, what is free, and what to do
     * @param cause the system's error
     */
    public NoSpaceException(String message, Throwable cause) {
        super(message, cause);
    }
}
