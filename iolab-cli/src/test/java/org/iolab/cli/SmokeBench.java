package org.iolab.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One {@code iolab bench --profile smoke} run shared by the integration tests of a JVM that check its output
 * (about 20 s each otherwise): {@link CliIT} checks the run and its files, {@link ReportBrowserIT} renders them.
 * Nothing may change the files it leaves; they are deleted when the JVM exits.
 *
 * @param cwd the working directory it ran in
 * @param dir the {@code --dir} it ran with (left empty by a correct run)
 * @param out the {@code --out} folder: results.json, report.html and their siblings
 * @param run its exit code and output
 */
record SmokeBench(Path cwd, Path dir, Path out, CliIT.Run run) {
    private static SmokeBench shared;

    /** @return the run, made by the first caller */
    static synchronized SmokeBench get() throws IOException, InterruptedException {
        if (shared == null) {
            Path cwd = Files.createTempDirectory("iolab-smoke");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(cwd)));
            Path dir = Files.createDirectories(cwd.resolve("dir"));
            Path out = cwd.resolve("out");
            CliIT.Run run = CliIT.iolab(cwd, "bench", "--profile", "smoke", "--out", out.toString(), "--dir",
                    dir.toString());
            shared = new SmokeBench(cwd, dir, out, run);
        }
        return shared;
    }

    private static void delete(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
