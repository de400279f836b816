package org.iolab.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;

/** The permissions and owner a copy needs to replace the file it was made from (the journal's and the store's). */
public final class FileModes {
    private FileModes() {
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
