package org.iolab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code iolab} command: {@code bench}, {@code methods}. */
@Command(name = "iolab", mixinStandardHelpOptions = true, version = "iolab 0.1.0",
        description = "Measures the fastest correct way to read and write files from the JVM on this machine.",
        subcommands = {MethodsCommand.class})
public final class Main implements Runnable {
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
     * @return the exit code: 0 ok, 1 a failed check, 2 bad input or an error the user can fix
     */
    public static int run(String... args) {
        return new CommandLine(new Main()).execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
