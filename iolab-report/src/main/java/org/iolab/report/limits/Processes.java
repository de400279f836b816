package org.iolab.report.limits;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.iolab.IolabException;

/** Runs external programs (the C compiler, the native baseline, fio) and finds them on the PATH. */
final class Processes {
    private Processes() {
    }

    /**
     * What a finished program said.
     *
     * @param exitCode its exit code
     * @param stdout its standard output
     * @param stderr its standard error
     */
    record Output(int exitCode, String stdout, String stderr) {
        /** @return stdout and stderr, trimmed, for an error message */
        String both() {
            String out = (stdout.strip() + "\n" + stderr.strip()).strip();
            return out.isEmpty() ? "(no output)" : out;
        }
    }

    /**
     * @param name a program name such as {@code cc}
     * @return the first executable of that name in a folder of {@code PATH}
     */
    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null || path.isEmpty()) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            try {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            } catch (java.nio.file.InvalidPathException e) {
                // a malformed PATH entry: skip it
            }
        }
        return Optional.empty();
    }

    /**
     * Runs a program to completion, reading its output as it goes.
     *
     * @param command program and arguments
     * @param what what is being run, for error messages, e.g. "the C compiler"
     * @return its exit code and output
     * @throws IolabException when it cannot be started or the wait is interrupted
     */
    static Output run(List<String> command, String what) {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        } catch (IOException e) {
            throw new IolabException("cannot start " + what + " (" + String.join(" ", command) + "): "
                    + e.getMessage() + "; check that it is installed and executable", e);
        }
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        String out = drain(p.getInputStream());
        try {
            int code = p.waitFor();
            return new Output(code, out, err.join());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IolabException("interrupted while running " + what + " (" + String.join(" ", command)
                    + ")", e);
        }
    }

    private static String drain(InputStream in) {
        try (in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output lost: " + e.getMessage() + ")";
        }
    }
}
