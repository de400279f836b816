package org.iolab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
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
        String hint = hint(cause);
        return new IolabException("cannot " + what + " " + file + ": " + reason(cause, file)
                + (hint == null ? "" : "; " + hint), cause);
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

    /**
     * @param e an I/O failure
     * @param subject the file the caller's message names already (not repeated), or null
     * @return what went wrong in plain words, as the system said it ("Read-only file system", "permission denied",
     *         "no such file or folder"), with the file(s) the failure names when they are not {@code subject}; no
     *         Java class names
     */
    public static String reason(IOException e, Path subject) {
        String reason = e.getMessage();
        String files = "";
        if (e instanceof FileSystemException f) {
            reason = f.getReason();
            if (reason == null) {
                reason = switch (f) {
                    case AccessDeniedException a -> "permission denied";
                    case NoSuchFileException n -> "no such file or folder";
                    case NotDirectoryException n -> "not a folder";
                    case FileAlreadyExistsException x -> "it already exists";
                    case DirectoryNotEmptyException d -> "the folder is not empty";
                    default -> "failed";
                };
            }
            String one = f.getFile();
            String other = f.getOtherFile();
            if (one != null && (subject == null || !Path.of(one).equals(subject))) {
                files = " (" + one + (other == null ? "" : " -> " + other) + ")";
            } else if (other != null) {
                files = " (-> " + other + ")";
            }
        }
        if (reason == null || reason.isBlank()) {
            reason = "an I/O error with no message";
        }
        return reason + files;
    }

    /**
     * @param e an I/O failure
     * @return what to do about it when its reason says (permissions, a read-only file system, no space), else null
     */
    public static String hint(IOException e) {
        String r = String.valueOf(e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                : e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        if (e instanceof AccessDeniedException || r.contains("permission denied") || r.contains("not permitted")) {
            return "check its permissions (and that it is not immutable, chattr +i)";
        }
        if (r.contains("read-only file system")) {
            return "its file system is mounted read-only; use a writable one";
        }
        if (r.contains("no space left") || r.contains("quota")) {
            return "free some space on its disk, or use another one";
        }
        return null;
    }
}
