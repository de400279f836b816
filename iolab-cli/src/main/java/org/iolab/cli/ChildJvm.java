package org.iolab.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.iolab.IolabException;
import org.iolab.os.Workspace;

/**
 * Runs a measurement in a child JVM (the latency runs of the journal and the store): a fresh folder for its files
 * in the workspace, its output and errors in files there, a time limit, and everything deleted afterwards.
 */
final class ChildJvm {
    /** Seconds a child may take beyond its estimate before it is stopped. */
    static final long GRACE_SECONDS = 60;

    private ChildJvm() {
    }

    /**
     * @param what what the child measures, for the messages ("journal latency")
     * @param workDir the workspace
     * @param command the child's command, given the folder made for it
     * @param seconds how long the child should take ({@link #GRACE_SECONDS} more are allowed)
     * @param outputDespiteFailure accept the output of a child that exited non-zero when it holds this text (it
     *     printed its results before one part failed), or null to accept none
     * @param err where a folder that cannot be deleted is reported
     * @return the child's standard output
     * @throws IolabException when it cannot start, fails, or takes too long
     */
    static String run(String what, Path workDir, Function<Path, List<String>> command, double seconds,
            String outputDespiteFailure, PrintStream err) {
        Path dir;
        Path out;
        Path errFile;
        try {
            dir = Files.createTempDirectory(workDir, "child-");
            out = Files.createTempFile(workDir, "child-", ".out");
            errFile = Files.createTempFile(workDir, "child-", ".err");
        } catch (IOException e) {
            throw IolabException.io("create the folder of the " + what + " run", workDir, e);
        }
        try {
            Process p = new ProcessBuilder(command.apply(dir)).redirectOutput(out.toFile())
                    .redirectError(errFile.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            long limit = (long) Math.ceil(seconds) + GRACE_SECONDS;
            if (!p.waitFor(limit, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new IolabException("the child JVM took more than " + limit + " s and was stopped");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0 && (outputDespiteFailure == null || !stdout.contains(outputDespiteFailure))) {
                String text = Files.readString(errFile, StandardCharsets.UTF_8).strip();
                throw new IolabException("the child JVM failed (exit " + p.exitValue() + "): "
                        + (text.length() > 400 ? text.substring(text.length() - 400) : text));
            }
            return stdout;
        } catch (IOException e) {
            throw new IolabException("cannot run the " + what + " child JVM: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IolabException("interrupted while measuring " + what, e);
        } finally {
            deleteTree(dir, err);
            deleteTree(out, err);
            deleteTree(errFile, err);
        }
    }

    /** Deletes a file or a folder and everything in it; reports what cannot be deleted to {@code err}. */
    static void deleteTree(Path path, PrintStream err) {
        IOException left = Workspace.deleteTree(path);
        if (left != null) {
            err.println("iolab: could not delete " + path + ": " + left.getMessage());
        }
    }
}
