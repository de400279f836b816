package org.iolab.journal;

import java.nio.file.Path;

/** Run in a child JVM: tries to open the journal given as argument; prints what happened. */
public final class LockProbe {
    private LockProbe() {
    }

    /** @param args the journal directory */
    public static void main(String[] args) {
        try (Journal j = Journal.open(Path.of(args[0]), JournalOptions.defaults())) {
            System.out.println("opened " + j.nextSequence());
        } catch (JournalLockedException e) {
            System.out.println("locked");
        }
    }
}
