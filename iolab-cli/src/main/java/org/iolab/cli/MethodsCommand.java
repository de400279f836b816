package org.iolab.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.iolab.catalogue.Catalogue;
import org.iolab.catalogue.MethodInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code iolab methods}: the catalogue. */
@Command(name = "methods", mixinStandardHelpOptions = true,
        description = "Lists every file-access method iolab measures.")
final class MethodsCommand implements Callable<Integer> {
    @Option(names = "--json", description = "print a JSON array (id, kind, title, article, usesBuffer, description)")
    boolean json;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        if (json) {
            out.println(Results.text(json()));
            return 0;
        }
        out.printf("%-26s %-13s %-50s %-18s %-6s %s%n", "id", "kind", "title", "article", "buffer", "description");
        for (MethodInfo m : Catalogue.infos()) {
            out.printf("%-26s %-13s %-50s %-18s %-6s %s%n", m.id(), kind(m), m.title(), m.article().shortName(),
                    m.usesBuffer() ? "yes" : "no", m.description());
        }
        return 0;
    }

    private static String kind(MethodInfo m) {
        return m.kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return the catalogue as a JSON array */
    static ArrayNode json() {
        ArrayNode a = Results.JSON.createArrayNode();
        for (MethodInfo m : Catalogue.infos()) {
            ObjectNode o = a.addObject();
            o.put("id", m.id());
            o.put("kind", kind(m));
            o.put("title", m.title());
            o.put("article", m.article().shortName());
            o.put("citation", m.article().citation());
            o.put("usesBuffer", m.usesBuffer());
            o.put("description", m.description());
        }
        return a;
    }
}
