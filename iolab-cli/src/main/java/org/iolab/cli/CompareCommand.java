package org.iolab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.iolab.IolabException;
import org.iolab.report.analysis.Compare;
import org.iolab.report.analysis.Comparison;
import org.iolab.report.model.ResultSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code iolab compare}: results files side by side, optionally exported as CSV. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Compares results.json files point by point; the first is the baseline. A change is"
                + " significant when the min-max ranges of the passes are disjoint (with at least 3 passes a side;"
                + " fewer: too few passes to tell).")
final class CompareCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RESULTS", description = "results.json files, the baseline first")
    List<Path> files;

    @Option(names = "--csv", paramLabel = "DIR", description = "also write one CSV per results file into DIR"
            + " (one row per pass)")
    Path csv;

    @Override
    public Integer call() {
        List<ResultSet> sets = new ArrayList<>();
        for (Path f : files) {
            sets.add(ResultSet.load(f).requireResults(f));
        }
        if (csv != null) {
            if (Files.exists(csv) && !Files.isDirectory(csv)) {
                throw new IolabException("--csv " + csv + " is a file; give a directory for the CSV files");
            }
            try {
                Files.createDirectories(csv);
            } catch (IOException e) {
                throw IolabException.io("create the --csv directory", csv, e);
            }
        }
        List<Path> csvFiles = new ArrayList<>();
        if (csv != null) {
            Set<String> used = new HashSet<>();
            for (ResultSet rs : sets) {
                Path out = csv.resolve(csvName(rs.source(), used));
                if (Files.exists(out, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    throw new IolabException("--csv " + csv + " already holds " + out.getFileName() + "; iolab"
                            + " overwrites nothing: choose another directory, or move the file away");
                }
                csvFiles.add(out);
            }
        }
        Comparison comparison = Compare.compare(sets);
        System.out.print(Compare.table(comparison));
        if (sets.size() > 1 && !comparison.anyShared()) {
            throw new IolabException("no point is in more than one of these files, so nothing was compared (runs of"
                    + " other methods, sizes or profiles?); give results of the same points");
        }
        for (int i = 0; i < csvFiles.size(); i++) {
            Compare.writeCsv(sets.get(i), csvFiles.get(i));
            System.out.println("wrote " + csvFiles.get(i));
        }
        return 0;
    }

    /** {@code quick1/results.json} becomes {@code quick1.csv}; {@code a.json} becomes {@code a.csv}. */
    static String csvName(Path source, Set<String> used) {
        Path abs = source.toAbsolutePath().normalize();
        String name = abs.getFileName() == null ? "results" : abs.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        if (base.equals("results") && abs.getParent() != null && abs.getParent().getFileName() != null) {
            base = abs.getParent().getFileName().toString();
        }
        String candidate = base;
        for (int i = 2; !used.add(candidate); i++) {
            candidate = base + "-" + i;
        }
        return candidate + ".csv";
    }
}
