package org.iolab.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * What a copy needs to replace the file it was made from (the journal's cut segments, the store's compaction and
 * rewrite): the file a link names, and its permissions and owner.
 */
public final class FileModes {
    private FileModes() {
    }

    /**
     * @param file a file, or a link to one
     * @return the file {@code file} names when it is a link (a copy replaces that file, beside it, so the link keeps
     *     naming it), else {@code file} (also when it is missing: nothing to replace)
     */
    public static Path target(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file;
        }
    }

    /**
     * Gives {@code copy} the permissions, owner and group of {@code file}, where the file system has them (a copy
     * that replaces a file must not make it readable to others, or leave it owned by another user). An owner that
     * cannot be set (not root) stays the copier's: it could write the file, so it can write the copy.
     *
     * @param file the file to be replaced
     * @param copy the copy that replaces it
     * @throws IOException when the permissions cannot be read or set
     */
    public static void copy(Path file, Path copy) throws IOException {
        PosixFileAttributeView from = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        PosixFileAttributeView to = Files.getFileAttributeView(copy, PosixFileAttributeView.class);
        if (from == null || to == null) {
            return;
        }
        PosixFileAttributes a = from.readAttributes();
        to.setPermissions(a.permissions());
        try {
            PosixFileAttributes b = to.readAttributes();
            if (!a.group().equals(b.group())) {
                to.setGroup(a.group());
            }
            if (!a.owner().equals(b.owner())) {
                to.setOwner(a.owner());
            }
        } catch (IOException notPermitted) {
            // see above
        }
    }
}
