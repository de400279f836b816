package org.iolab.os;

import org.iolab.IolabException;

/** A file is not in the page-cache state a measurement needs (e.g. still cached before a cold pass). */
public final class CacheStateException extends IolabException {
    private static final long serialVersionUID = 1L;

    /** @param message what was expected, what was found, and what to do */
    public CacheStateException(String message) {
        super(message);
    }
}
