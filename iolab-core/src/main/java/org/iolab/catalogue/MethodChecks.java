package org.iolab.catalogue;

import org.iolab.IolabException;

/** The checks every catalogue method makes of its arguments before it touches a file. */
public final class MethodChecks {
    private MethodChecks() {
    }

    /**
     * @param method the method's id, for the message
     * @param bufferSize a buffer size
     * @throws IolabException when it is below 1 (a read of 0 bytes returns 0, never the end: the method would loop)
     */
    public static void checkBuffer(String method, int bufferSize) {
        if (bufferSize < 1) {
            throw new IolabException("bad buffer size " + bufferSize + " for " + method
                    + ": must be at least 1 byte");
        }
    }

    /**
     * @param method the method's id, for the message
     * @param size bytes to write
     * @param bufferSize a buffer size
     * @throws IolabException when the size is negative or the buffer below 1
     */
    public static void checkWrite(String method, long size, int bufferSize) {
        if (size < 0) {
            throw new IolabException("bad size " + size + " for " + method + ": must be 0 or more bytes");
        }
        checkBuffer(method, bufferSize);
    }
}
