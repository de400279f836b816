package org.iolab.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.iolab.IolabException;

/** The {@code --name value} / {@code --name=value} command lines of the latency runners' child JVMs. */
public final class CommandLineOptions {
    private CommandLineOptions() {
    }

    /**
     * @param args the command line
     * @param known the option names accepted (with their dashes)
     * @return each option given, by name, in order
     * @throws IolabException naming the option that is unknown, repeated or missing its value
     */
    public static Map<String, String> parse(String[] args, Set<String> known) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name;
            String value;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            } else {
                name = arg;
                if (i + 1 >= args.length) {
                    throw new IolabException(known.contains(name) ? "option " + name + " needs a value"
                            : "unknown argument '" + name + "'");
                }
                value = args[++i];
            }
            if (!known.contains(name)) {
                throw new IolabException("unknown argument '" + name + "'");
            }
            if (values.put(name, value) != null) {
                throw new IolabException("option " + name + " is given twice");
            }
        }
        return values;
    }
}
