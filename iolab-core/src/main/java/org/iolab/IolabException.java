package org.iolab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The one root of every exception iolab throws. It is unchecked: {@link IOException}s are caught at the
 * I/O edge and rethrown as this type (or a subtype) with a message that names the file, the offset or the
 * parameter involved and says what to do.
 */
public class IolabException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, naming the file/offset/parameter, and what to do about it */
    public IolabException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the file/offset/parameter, and what to do about it
     * @param cause the underlying failure
     */
    public IolabException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Wraps an I/O failure on {@code file}.
     *
     * @param what the operation that failed, e.g. "read" or "create"
     * @param file the file it failed on
     * @param cause the I/O failure
     * @return an exception whose message names the operation, the file and the cause
     */
    public static IolabException io(String what, Path file, IOException cause) {
        return new IolabException("cannot " + what + " " + file + ": " + describe(cause), cause);
    }

    /**
     * Unwraps an {@link UncheckedIOException} the same way as {@link #io(String, Path, IOException)}.
     *
     * @param what the operation that failed
     * @param file the file it failed on
     * @param cause the wrapped I/O failure
     * @return an exception naming the operation, the file and the cause
     */
    public static IolabException io(String what, Path file, UncheckedIOException cause) {
        return io(what, file, cause.getCause());
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        String type = e.getClass().getSimpleName();
        return message == null ? type : type + " (" + message + ")";
    }
}
