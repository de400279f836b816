package org.iolab.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** A small ext4 file system in an image file, loop-mounted for a test that must run out of space (root only). */
final class SmallExt4 {
    private SmallExt4() {
    }

    /**
     * @param dir a folder for the image and the mount point
     * @param mib the image's size
     * @return the mount point; the test is skipped (an assumption) when it cannot be mounted (not root, no mkfs)
     */
    static Path mount(Path dir, int mib) throws IOException, InterruptedException {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to mount an image");
        Path image = dir.resolve("ext4.img");
        Path mnt = Files.createDirectories(dir.resolve("mnt"));
        try (var ch = java.nio.channels.FileChannel.open(image, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(0);
            ch.write(java.nio.ByteBuffer.allocate(1), (long) mib * (1 << 20) - 1);
        }
        Assumptions.assumeTrue(run("mkfs.ext4", "-q", "-F", image.toString()) == 0, "mkfs.ext4");
        Assumptions.assumeTrue(run("mount", "-o", "loop", image.toString(), mnt.toString()) == 0, "mount -o loop");
        return mnt;
    }

    static void unmount(Path mnt) throws IOException, InterruptedException {
        run("umount", mnt.toString());
    }

    private static int run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(cmd)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        if (p.exitValue() != 0) {
            System.err.println(String.join(" ", cmd) + ": " + out);
        }
        return p.exitValue();
    }
}
