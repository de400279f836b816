package org.iolab.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.iolab.IolabException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code iolab} command: {@code bench}, {@code methods}, {@code report}, {@code compare}, {@code journal},
 * {@code store}.
 */
@Command(name = "iolab", mixinStandardHelpOptions = true, version = "iolab 0.1.0",
        description = "Measures the fastest correct way to read and write files from the JVM on this machine.",
        subcommands = {BenchCommand.class, MethodsCommand.class, ReportCommand.class, CompareCommand.class,
                JournalCommand.class, StoreCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {
    /** Exit code for bad input or a problem the user can fix. */
    public static final int USER_ERROR = 2;
    /** Exit code for a failed benchmark (checksum mismatch, I/O error in a pass). */
    public static final int FAILED = 1;
    /** Exit code for a bug in iolab. */
    public static final int BUG = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * @param args the command line
     * @return the exit code: 0 ok, 1 a failed check, 2 bad input or an error the user can fix, 3 a bug
     */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler(Main::onException);
        cl.setParameterExceptionHandler(Main::onBadParameter);
        int code = cl.execute(args);
        return code == 0 ? outputWritten(System.out, cl.getErr(), stdoutIsPipe()) : code;
    }

    /** Exit code of a command whose reader closed the pipe early ({@code | head}): a shell's 128 + SIGPIPE. */
    static final int BROKEN_PIPE = 141;

    /** @return whether standard output is a pipe (Linux; false where that cannot be asked) */
    private static boolean stdoutIsPipe() {
        try {
            return java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/1")).toString()
                    .startsWith("pipe:");
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * @param out standard output, once a command is done with it
     * @param err where the message goes
     * @param toPipe standard output is a pipe
     * @return 0 when everything printed reached it; {@link #BROKEN_PIPE}, quietly, when its reader left the pipe; else
     *     {@link #USER_ERROR} after saying so: a {@link PrintStream}
     *     swallows its write errors (a full disk, a closed pipe), and a command whose output was lost did not succeed
     */
    static int outputWritten(PrintStream out, PrintWriter err, boolean toPipe) {
        out.flush();
        if (!out.checkError()) {
            return 0;
        }
        if (toPipe) {
            // a write to a pipe fails only when its reader has gone (| head, | grep -q): quietly, as a tool killed by
            // SIGPIPE does, but not 0 (what was printed is incomplete)
            return BROKEN_PIPE;
        }
        err.println("iolab: cannot write to standard output (a full disk, or a closed pipe): what it printed is"
                + " incomplete; write it somewhere with room, or to a reader that stays");
        err.flush();
        return USER_ERROR;
    }

    private static int onException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        if (damaged(e)) {
            // damaged data, not a bad argument: the exit code of a failed check ('verify' says 1 too)
            err.println("iolab: " + oneLine(e.getMessage()));
            err.flush();
            return FAILED;
        }
        if (e instanceof IolabException) {
            err.println("iolab: " + oneLine(e.getMessage()));
            err.flush();
            return USER_ERROR;
        }
        if (e instanceof BenchmarkFailure) {
            err.println("iolab: " + e.getMessage());
            err.flush();
            return FAILED;
        }
        err.println("iolab: internal error (a bug; please report it with this output):");
        e.printStackTrace(err);
        err.flush();
        return BUG;
    }

    /** @return whether {@code e}, or what caused it (a load names the line), is damaged data, not a bad argument */
    static boolean damaged(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.iolab.journal.JournalCorruptedException
                    || t instanceof org.iolab.store.StoreCorruptedException sc && !notAStore(sc)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the "damaged" file does not begin as a store at all: a wrong path, a user error */
    private static boolean notAStore(org.iolab.store.StoreCorruptedException e) {
        try {
            return e.offset() == 0 && !org.iolab.store.Store.beginsAsStore(e.file());
        } catch (IolabException unreadable) {
            return false;
        }
    }

    private static int onBadParameter(CommandLine.ParameterException e, String[] args) {
        PrintWriter err = e.getCommandLine().getErr();
        Throwable cause = e.getCause();
        String message = cause instanceof IolabException ? cause.getMessage() : e.getMessage();
        err.println("iolab: " + oneLine(message) + " (see --help)");
        err.flush();
        return USER_ERROR;
    }

    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", "; ");
    }

    @Override
    public Integer call() {
        return missingCommand(spec);
    }

    /**
     * A command that only groups subcommands was given none: its usage goes to standard error.
     *
     * @return the exit code of a usage error
     */
    static int missingCommand(CommandLine.Model.CommandSpec spec) {
        spec.commandLine().usage(spec.commandLine().getErr());
        return USER_ERROR;
    }
}
