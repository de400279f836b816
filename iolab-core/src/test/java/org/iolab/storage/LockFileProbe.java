package org.iolab.storage;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Run in a child JVM: tries to lock the file given as argument; prints "locked" or "refused". */
public final class LockFileProbe {
    private LockFileProbe() {
    }

    /**
     * Runs the probe in a child JVM.
     *
     * @param mode "exclusive" or "shared"
     * @param file the lock file
     * @return what it printed: "locked" or "refused"
     */
    public static String inChild(String mode, Path file) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), LockFileProbe.class.getName(), mode, file.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("the lock probe failed: " + out);
        }
        return out;
    }

    /** @param args "exclusive" or "shared", then the lock file */
    public static void main(String[] args) {
        Path file = Path.of(args[1]);
        if (args[0].equals("shared")) {
            FileLocks.Shared s = FileLocks.tryShared(file);
            System.out.println(s == null ? "refused" : "locked");
            if (s != null) {
                s.close();
            }
            return;
        }
        FileLock l = FileLocks.tryLock(file);
        System.out.println(l == null ? "refused" : "locked");
        if (l != null) {
            FileLocks.release(l);
        }
    }
}
