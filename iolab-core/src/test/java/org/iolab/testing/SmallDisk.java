package org.iolab.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A 3 MiB tmpfs mounted in a test's folder, to fill a disk without filling the machine's: needs root (the test is
 * skipped otherwise). Unmounted lazily, since a mapping the garbage collector has not released yet keeps it busy.
 */
public final class SmallDisk implements AutoCloseable {
    private final Path mount;

    private SmallDisk(Path mount) {
        this.mount = mount;
    }

    /**
     * @param parent a test's temporary folder
     * @return the disk, mounted at {@code parent/small}
     */
    public static SmallDisk mountIn(Path parent) throws IOException, InterruptedException {
        Path mount = Files.createDirectory(parent.resolve("small"));
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount.toString()) == 0,
                "cannot mount a tmpfs here (needs root)");
        return new SmallDisk(mount);
    }

    /** @return where it is mounted */
    public Path path() {
        return mount;
    }

    /** Remounts it read-only: every write, and every open for writing, fails with EROFS. */
    public void makeReadOnly() throws IOException, InterruptedException {
        if (run("mount", "-o", "remount,ro", mount.toString()) != 0) {
            throw new IOException("cannot remount " + mount + " read-only");
        }
    }

    @Override
    public void close() throws IOException {
        try {
            run("umount", "-l", mount.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting " + mount, e);
        }
    }

    /**
     * A fresh disk for each test of a class: {@code @RegisterExtension final SmallDisk.PerTest disk = new
     * SmallDisk.PerTest();}, then {@code disk.path()}. Mounted in a folder of its own, unmounted and removed after.
     */
    public static final class PerTest implements BeforeEachCallback, AfterEachCallback {
        private Path parent;
        private SmallDisk disk;

        @Override
        public void beforeEach(ExtensionContext context) throws Exception {
            parent = Files.createTempDirectory("iolab-small-disk");
            disk = mountIn(parent);
        }

        @Override
        public void afterEach(ExtensionContext context) throws Exception {
            try {
                if (disk != null) {
                    disk.close();
                }
            } finally {
                disk = null;
                Files.deleteIfExists(parent.resolve("small")); // empty once unmounted
                Files.deleteIfExists(parent);
            }
        }

        /** @return where this test's disk is mounted */
        public Path path() {
            return disk.path();
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }
}
