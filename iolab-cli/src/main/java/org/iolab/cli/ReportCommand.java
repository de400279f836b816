package org.iolab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.iolab.IolabException;
import org.iolab.report.html.HtmlReport;
import org.iolab.report.model.RunData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code iolab report}: draws report.html and its charts again from a results.json, without re-running. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Writes report.html and charts/ from a results.json (and the machine.json, limits.json"
                + " and notes.json beside it) without running anything.")
final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RESULTS_JSON", description = "a results.json written by ./iolab bench")
    Path resultsJson;

    @Option(names = "--out", paramLabel = "DIR", description = "folder for report.html and charts/ (default: the"
            + " results file's folder)")
    Path out;

    @Override
    public Integer call() {
        if (Files.isDirectory(resultsJson)) {
            throw new IolabException(resultsJson + " is a folder; give the results.json inside it");
        }
        RunData run = RunData.load(resultsJson);
        run.results().requireResults(resultsJson);
        if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
            throw new IolabException("--out " + out + " is a file, not a folder; choose a folder");
        }
        Path dir = out != null ? out : resultsJson.toAbsolutePath().getParent();
        System.out.println("report: " + HtmlReport.write(run, dir));
        return 0;
    }
}
