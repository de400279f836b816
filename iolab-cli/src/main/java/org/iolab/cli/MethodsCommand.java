package org.iolab.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.MethodInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code iolab methods}: the catalogue. */
@Command(name = "methods", mixinStandardHelpOptions = true,
        description = "Lists every file-access method iolab measures.")
final class MethodsCommand implements Callable<Integer> {
    @Option(names = "--json", description = "print JSON for machines")
    boolean json;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        for (MethodInfo m : Catalogue.infos()) {
            out.printf("%-24s %-14s %-40s %s%n", m.id(), m.kind(), m.title(), m.article().shortName());
        }
        return 0;
    }
}
