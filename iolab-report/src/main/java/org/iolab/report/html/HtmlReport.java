package org.iolab.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.os.Workspace;
import org.iolab.report.analysis.Advisor;
import org.iolab.report.analysis.Claims;
import org.iolab.report.analysis.JournalTargets;
import org.iolab.report.analysis.PageCacheTruth;
import org.iolab.report.analysis.Rates;
import org.iolab.report.limits.Fio;
import org.iolab.report.analysis.StoreTargets;
import org.iolab.report.model.Advice;
import org.iolab.report.model.Bench;
import org.iolab.report.model.ClaimCheck;
import org.iolab.report.model.Fact;
import org.iolab.report.model.Latency;
import org.iolab.report.model.Limit;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.PutLatency;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;
import org.iolab.report.model.Stats;
import org.iolab.report.model.TargetCheck;
import org.iolab.report.model.WholeFile;

/**
 * {@code report.html}: one self-contained page (inline CSS and SVG, no script, no remote resource) that
 * answers which method to use on this machine and how close Java gets to the hardware, followed by the
 * machine, the physical limits, the charts, every result, the articles' claims and how it was measured.
 * The markup is well-formed XML (XHTML-compatible HTML5), so it can be checked strictly.
 */
public final class HtmlReport {
    /** File name of the page. */
    public static final String FILE = "report.html";
    /** Folder of the chart files, beside the page. */
    public static final String CHARTS = "charts";
    /** The section headings, in page order. */
    public static final List<String> SECTIONS = List.of("The answer", "The machine", "Physical limits", "Charts",
            "All results", "The journal", "The store", "The articles' claims, checked", "How it was measured");

    private HtmlReport() {
    }

    /**
     * Writes {@code report.html} and {@code charts/} into {@code outDir}.
     *
     * @param run the results and their sibling files
     * @param outDir the folder (created when missing)
     * @return the page's path
     * @throws IolabException naming the file when something cannot be written
     */
    public static Path write(RunData run, Path outDir) {
        Path staging;
        try {
            Files.createDirectories(outDir);
            // drawn aside first: a chart or the page that fails leaves the folder as it was, with no half-written file
            staging = Files.createTempDirectory(outDir, ".report-");
        } catch (IOException e) {
            throw IolabException.io("create the report folder", outDir, e);
        }
        Path page = outDir.resolve(FILE);
        try {
            List<Figure> figures = Charts.render(run.results(), staging.resolve(CHARTS));
            String html = render(run, figures);
            Files.writeString(staging.resolve(FILE), html, StandardCharsets.UTF_8);
            // every file synced before its rename, the folders after: a power loss leaves the old page or the new,
            // never an empty one (a rename can reach the disk before the bytes it names)
            WholeFile.sync(staging.resolve(FILE));
            Path charts = Files.createDirectories(outDir.resolve(CHARTS));
            Set<String> drawn = new TreeSet<>();
            try (var files = Files.list(staging.resolve(CHARTS))) {
                for (Path f : files.toList()) {
                    drawn.add(f.getFileName().toString());
                    WholeFile.sync(f);
                    Files.move(f, charts.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            try (var files = Files.list(charts)) {
                for (Path f : files.toList()) {
                    String n = f.getFileName().toString();
                    if (Charts.isChartFile(n) && !drawn.contains(n)) {
                        Files.delete(f); // a chart of an earlier rendering this run no longer has (not a user's file)
                    }
                }
            }
            WholeFile.sync(charts);
            Files.move(staging.resolve(FILE), page, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            WholeFile.sync(outDir);
        } catch (IOException e) {
            throw IolabException.io("write", page, e);
        } finally {
            IOException left = Workspace.deleteTree(staging);
            if (left != null) {
                System.err.println("iolab: could not delete " + staging + ": " + left.getMessage());
            }
        }
        return page;
    }

    /**
     * @param run the results and their sibling files
     * @param figures the charts
     * @return the page
     */
    static String render(RunData run, List<Figure> figures) {
        StringBuilder b = new StringBuilder(1 << 20);
        List<Measurement> all = run.results().measurements();
        OptionalDouble device = PageCacheTruth.deviceBandwidth(run);
        b.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
                .append("<meta charset=\"utf-8\"/>\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
                .append("<title>iolab report: ").append(Text.esc(machineName(run))).append("</title>\n")
                .append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n<main>\n");
        b.append("<h1>Which way to read and write files from Java on this machine</h1>\n");
        b.append("<p class=\"lead\">").append(Text.esc(summaryLine(run))).append("</p>\n");
        b.append("<nav><ol>");
        for (int i = 0; i < SECTIONS.size(); i++) {
            b.append("<li><a href=\"#s").append(i + 1).append("\">").append(i + 1).append(". ")
                    .append(Text.esc(SECTIONS.get(i))).append("</a></li>");
        }
        b.append("</ol></nav>\n");
        answer(b, run, device);
        machine(b, run);
        limits(b, run);
        charts(b, figures);
        results(b, run, all, device);
        journal(b, run, figures);
        store(b, run, figures);
        claims(b, run);
        method(b, run);
        b.append("</main>\n</body>\n</html>\n");
        return b.toString();
    }

    private static void heading(StringBuilder b, int n) {
        b.append("<section id=\"s").append(n).append("\">\n<h2>").append(n).append(". ")
                .append(Text.esc(SECTIONS.get(n - 1))).append("</h2>\n");
    }

    private static void p(StringBuilder b, String text) {
        b.append("<p>").append(Text.esc(text)).append("</p>\n");
    }

    // ---- 1. the answer ----

    private static void answer(StringBuilder b, RunData run, OptionalDouble device) {
        heading(b, 1);
        List<Advice> advice = Advisor.advise(run);
        if (advice.isEmpty()) {
            p(b, "The results hold no measurement with passes, so there is nothing to recommend.");
        } else {
            Table t = new Table("workload", "use", "buffer", "median", "vs runner-up", "verdict");
            for (Advice a : advice) {
                Measurement m = a.best();
                String vs = "-";
                if (a.runnerUp() != null && m.bench().store()) {
                    Measurement r = a.runnerUp();
                    vs = Rates.ratio(r.stats().median() / m.stats().median()) + " faster than " + r.method() + " ("
                            + StoreTargets.ms(r.stats().median()) + ", " + m.phase() + ")";
                } else if (a.runnerUp() != null) {
                    Measurement r = a.runnerUp();
                    vs = Rates.ratio(m.stats().ratioTo(r.stats())) + " " + shortLabel(r) + " ("
                            + Rates.format(r.stats().median(), r.unit()) + ")";
                }
                String verdict = a.runnerUp() == null ? "only method measured"
                        : a.clearlyAhead() ? "clearly ahead" : "tied within the noise";
                t.row(a.workload(), new Table.Cell(m.method(), "method"), buffer(m), m.bench().store()
                        ? m.phase() + " " + StoreTargets.ms(m.stats().median()) : Rates.format(m.stats().median(),
                        m.unit()), vs,
                        new Table.Cell(verdict, a.runnerUp() == null ? null : a.clearlyAhead() ? "ahead" : "tied"));
            }
            t.write(b, "answer");
            b.append("<ul class=\"advice\">\n");
            for (Advice a : advice) {
                b.append("<li><strong>").append(Text.esc(a.workload())).append(":</strong> ")
                        .append(Text.esc(a.text()));
                String truth = PageCacheTruth.label(a.best(), device);
                if (!truth.isEmpty()) {
                    b.append(" <span class=\"memory\">").append(Text.esc(truth)).append("</span>");
                }
                b.append("</li>\n");
            }
            b.append("</ul>\n");
        }
        p(b, javaVsHardware(run, advice));
        b.append("</section>\n");
    }

    /** @return "Java reaches N× of C read() / fio" for the best warm and cold reads, or why it cannot say */
    static String javaVsHardware(RunData run, List<Advice> advice) {
        if (run.limits().isEmpty()) {
            return "No physical limits were measured in this run (see the machine's notes), so Java cannot be set"
                    + " against C and fio here; ./iolab bench measures them unless --no-limits is given.";
        }
        List<String> parts = new ArrayList<>();
        for (Advice a : advice) {
            Measurement m = a.best();
            if (m.bench() != Bench.READ && m.bench() != Bench.WRITE) {
                continue;
            }
            List<String> ratios = new ArrayList<>();
            String c = PageCacheTruth.ratio(m, run.limits());
            if (!c.isEmpty()) {
                ratios.add(c);
            }
            fioRatio(m, run.limits()).ifPresent(ratios::add);
            if (!ratios.isEmpty()) {
                parts.add("for " + a.workload() + " " + shortLabel(m) + " reaches " + String.join(" and ", ratios));
            }
        }
        if (parts.isEmpty()) {
            return "The physical limits measured here match none of the recommended methods' workloads.";
        }
        return "Java against the hardware: " + String.join("; ", parts) + ".";
    }

    /** @return the measurement's median over the best fio job of the same direction and cache state */
    private static Optional<String> fioRatio(Measurement m, List<Limit> limits) {
        if (!PageCacheTruth.fioCanMatch(m)) {
            return Optional.empty();
        }
        boolean direct = PageCacheTruth.isDirect(m);
        String prefix = m.bench() == Bench.READ ? "read-" : "write-";
        Predicate<Limit> same = l -> "fio".equals(l.tool()) && l.operation().startsWith(prefix)
                && (!direct || l.operation().endsWith("direct"))
                && !l.passes().isEmpty() && (m.bench() != Bench.READ || l.cache() == null
                || l.cache().equals(m.cache()) || l.operation().endsWith("direct") && "cold".equals(m.cache()));
        return limits.stream().filter(same).max(Comparator.comparingDouble(l -> l.stats().median()))
                .map(l -> String.format(Locale.ROOT, "%.2f× %s", m.stats().median() / l.stats().median(),
                        PageCacheTruth.name(l)));
    }

    // ---- 2. the machine ----

    private static void machine(StringBuilder b, RunData run) {
        heading(b, 2);
        if (run.machine().isEmpty()) {
            p(b, "No machine facts were recorded with these results (machine.json is missing); ./iolab bench"
                    + " records them at the end of a run.");
        } else {
            Table t = new Table("what", "found");
            for (Fact f : run.machine()) {
                t.row(f.name(), f.value());
            }
            t.write(b, "facts");
        }
        if (!run.notes().isEmpty()) {
            b.append("<p>Notes on what could not be measured:</p>\n<ul class=\"notes\">\n");
            for (String n : run.notes()) {
                b.append("<li>").append(Text.esc(n)).append("</li>\n");
            }
            b.append("</ul>\n");
        }
        b.append("</section>\n");
    }

    // ---- 3. physical limits ----

    private static void limits(StringBuilder b, RunData run) {
        heading(b, 3);
        if (run.limits().isEmpty()) {
            p(b, "No C or fio baseline is recorded with these results (limits.json is missing or empty)."
                    + (run.notes().isEmpty() ? " Run ./iolab bench without --no-limits to measure them."
                    : " The notes above say why."));
            b.append("</section>\n");
            return;
        }
        p(b, "The same file and buffer sizes, read and written by a small C program (read(), fread(), mmap(),"
                + " write(), each pass checksummed like the Java methods) and by fio when it is installed. These are"
                + " what the machine can do without a JVM.");
        Table t = new Table("tool", "operation", "block size", "file size", "cache", "median", "min–max", "passes",
                "note");
        for (Limit l : run.limits()) {
            Stats s = l.stats();
            t.row("c".equals(l.tool()) ? "C" : l.tool(), PageCacheTruth.name(l), l.blockSize() > 0 ? Sizes.format(l.blockSize()) : "-",
                    Sizes.format(l.fileSize()), l.cache() == null ? "-" : l.cache(), Rates.format(s.median(), "B/s"),
                    Rates.format(s.min(), "B/s") + " – " + Rates.format(s.max(), "B/s"), s.n(),
                    l.note() == null ? "" : l.note());
        }
        t.write(b, "limits");
        b.append("<h3>Every Java result against its matching limit</h3>\n");
        Table r = new Table("result", "median", "ratio to the limit");
        for (Measurement m : sorted(run.results().measurements())) {
            String ratio = PageCacheTruth.ratio(m, run.limits());
            if (!ratio.isEmpty()) {
                r.row(new Table.Cell(m.label(), "method"), Rates.format(m.stats().median(), m.unit()), ratio);
            }
        }
        if (r.isEmpty()) {
            p(b, "None of the Java results has a matching limit (random access has none).");
        } else {
            r.write(b, "ratios");
        }
        b.append("</section>\n");
    }

    // ---- 4. charts ----

    private static void charts(StringBuilder b, List<Figure> figures) {
        heading(b, 4);
        p(b, "Each chart is also saved beside this page as PNG and SVG in charts/.");
        for (Figure f : figures) {
            if (f.name().equals(Charts.JOURNAL_APPENDS) || f.name().equals(Charts.STORE_PHASES)) {
                continue; // drawn in the journal and store sections
            }
            figure(b, f);
        }
        b.append("</section>\n");
    }

    private static void figure(StringBuilder b, Figure f) {
        b.append("<figure id=\"chart-").append(Text.esc(f.name())).append("\">\n<h3>")
                .append(Text.esc(f.title())).append("</h3>\n");
        if (f.present()) {
            b.append("<div class=\"chart\">").append(f.svg()).append("</div>\n<figcaption>")
                    .append(Text.esc(f.caption())).append(" <a href=\"").append(CHARTS).append('/')
                    .append(Text.esc(f.name())).append(".png\">PNG</a> <a href=\"").append(CHARTS).append('/')
                    .append(Text.esc(f.name())).append(".svg\">SVG</a></figcaption>\n");
        } else {
            b.append("<p class=\"omitted\">Not drawn: ").append(Text.esc(f.omitted())).append("</p>\n");
        }
        b.append("</figure>\n");
    }

    // ---- 6. the journal ----

    private static void journal(StringBuilder b, RunData run, List<Figure> figures) {
        heading(b, 6);
        List<Measurement> journal = run.results().journal();
        if (journal.isEmpty() && run.latency().isEmpty()) {
            p(b, "This run did not measure the journal. ./iolab bench --workload journal (or --workload all) measures"
                    + " its appends per backend, durability and record size, its replay and its latency, next to"
                    + " Chronicle Queue and fio writing at the same cadence.");
            b.append("</section>\n");
            return;
        }
        p(b, "iolab's journal (org.iolab.journal): appends by one writer thread per second (JMH throughput, one"
                + " operation = one record) and payload MB/s, per storage backend, durability and record size;"
                + " replay of a journal already in the page cache through the zero-copy visitor; write then sync:"
                + " fio's byte count at fio's block size appended to a fresh journal, ending with a sync, beside"
                + " fio's two jobs; Chronicle Queue and fio measured in the same run. Spread is min–max over the"
                + " measured iterations or passes.");
        b.append("<h3>Targets</h3>\n");
        Table targets = new Table("target", "journal", "compared with", "ratio", "needed", "verdict");
        for (TargetCheck c : JournalTargets.check(run)) {
            targets.row(c.target(), c.journal(), c.comparator(), Rates.ratio(c.ratio()),
                    String.format(Locale.ROOT, "≥ %s", Rates.ratio(c.needed())), new Table.Cell(c.label(),
                            "verdict " + c.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-')));
        }
        targets.write(b, "targets");
        p(b, "A target is met or not met only when every pass of the journal is above, or below, every pass of the"
                + " comparator times the factor; overlapping ranges are not distinguishable.");
        List<Measurement> appends = journal.stream().filter(m -> m.bench() == Bench.JOURNAL_APPEND).sorted(
                Comparator.comparing((Measurement m) -> m.durability() == null ? "" : durabilityOrder(m.durability()))
                        .thenComparingLong(Measurement::bufferSize)
                        .thenComparing(Comparator.comparingDouble((Measurement m) -> m.stats().median()).reversed()))
                .toList();
        if (!appends.isEmpty()) {
            b.append("<h3>Appends</h3>\n");
            Table t = new Table("backend", "durability", "record", "appends/s", "min–max", "MB/s", "min–max",
                    "passes", "Chronicle Queue", "vs Chronicle");
            for (Measurement m : appends) {
                // Chronicle Queue never syncs: its rate is set against the journal's at NONE only
                Optional<Measurement> c = journal.stream().filter(x -> "none".equals(m.durability())
                        && x.bench() == Bench.CHRONICLE_APPEND && x.bufferSize() == m.bufferSize()
                        && !x.passes().isEmpty()).findFirst();
                Stats s = m.stats();
                Stats bytes = m.byteStats();
                t.row(new Table.Cell(m.method(), "method"), m.durability(), Sizes.format(m.bufferSize()),
                        new Table.Cell(Rates.format(s.median(), m.unit()), "num"),
                        Rates.format(s.min(), m.unit()) + " – " + Rates.format(s.max(), m.unit()),
                        new Table.Cell(Rates.format(bytes.median(), "B/s"), "num"),
                        Rates.format(bytes.min(), "B/s") + " – " + Rates.format(bytes.max(), "B/s"), s.n(),
                        c.map(x -> Rates.format(x.stats().median(), x.unit()))
                                .orElse("none".equals(m.durability()) ? "not measured" : "-"),
                        c.map(x -> Rates.ratio(s.ratioTo(x.stats()))).orElse("-"));
            }
            t.write(b, "journal-appends");
        }
        List<Measurement> replays = journal.stream().filter(m -> m.bench().replay()).sorted(
                Comparator.comparingLong(Measurement::bufferSize).thenComparing(Comparator.comparingDouble(
                        (Measurement m) -> m.stats().median()).reversed())).toList();
        if (!replays.isEmpty()) {
            b.append("<h3>Replay (warm)</h3>\n");
            Table t = new Table("journal", "record", "records", "records/s", "min–max", "MB/s", "min–max", "passes");
            for (Measurement m : replays) {
                Stats s = m.stats();
                Stats bytes = m.byteStats();
                t.row(new Table.Cell(m.bench().chronicle() ? "chronicle-queue tailer" : m.method(), "method"),
                        Sizes.format(m.bufferSize()), m.records(),
                        new Table.Cell(Rates.format(s.median(), m.unit()), "num"),
                        Rates.format(s.min(), m.unit()) + " – " + Rates.format(s.max(), m.unit()),
                        new Table.Cell(Rates.format(bytes.median(), "B/s"), "num"),
                        Rates.format(bytes.min(), "B/s") + " – " + Rates.format(bytes.max(), "B/s"), s.n());
            }
            t.write(b, "journal-replay");
        }
        bulk(b, journal, run.limits());
        List<Limit> fio = run.limits().stream().filter(l -> l.operation().startsWith("journal-")).toList();
        b.append("<h3>fio at the journal's record sizes and cadence</h3>\n");
        if (fio.isEmpty()) {
            p(b, "fio was not measured for the journal in this run (not installed, or --no-limits).");
        } else {
            Table t = new Table("fio job", "block = record", "file", "MB/s", "min–max", "passes", "how");
            for (Limit l : fio) {
                Stats s = l.stats();
                t.row(PageCacheTruth.name(l), Sizes.format(l.blockSize()), Sizes.format(l.fileSize()),
                        new Table.Cell(Rates.format(s.median(), "B/s"), "num"),
                        Rates.format(s.min(), "B/s") + " – " + Rates.format(s.max(), "B/s"), s.n(), l.note());
            }
            t.write(b, "journal-fio");
        }
        b.append("<h3>Latency, corrected for coordinated omission</h3>\n");
        if (run.latency().isEmpty()) {
            p(b, "No latency run in this run (see the notes below).");
        } else {
            p(b, "Appends at a fixed rate; each append's latency counts from when it was due, so a stall counts"
                    + " against every append it delayed. tail: until a reader sees the record; durable: until it is"
                    + " durable (a group commit covered it).");
            Table t = new Table("mode", "backend", "durability", "record", "rate", "achieved", "appends", "p50",
                    "p90", "p99", "p99.9", "max");
            for (Latency l : run.latency()) {
                List<Object> cells = new ArrayList<>(List.of(l.mode(), new Table.Cell(l.backend(), "method"),
                        l.durability(), Sizes.format(l.recordSize()), Math.round(l.rate()) + "/s",
                        Math.round(l.achievedRate()) + "/s", l.count()));
                cells.addAll(JournalTargets.percentiles(l));
                t.row(cells.toArray());
            }
            t.write(b, "journal-latency");
        }
        figures.stream().filter(f -> f.name().equals(Charts.JOURNAL_APPENDS)).findFirst().ifPresent(f -> figure(b, f));
        List<String> notes = run.notes().stream().filter(n -> n.contains("journal") || n.contains("Chronicle"))
                .toList();
        if (!notes.isEmpty()) {
            b.append("<ul class=\"notes\">\n");
            notes.forEach(n -> li(b, n));
            b.append("</ul>\n");
        }
        b.append("</section>\n");
    }

    /** The write-then-sync passes beside fio's buffered and fdatasync jobs at the same record size. */
    private static void bulk(StringBuilder b, List<Measurement> journal, List<Limit> limits) {
        List<Measurement> bulk = journal.stream().filter(m -> m.bench() == Bench.JOURNAL_BULK).sorted(
                Comparator.comparing((Measurement m) -> m.durability() == null ? "" : durabilityOrder(m.durability()))
                        .thenComparingLong(Measurement::bufferSize)
                        .thenComparing(Comparator.comparingDouble((Measurement m) -> m.stats().median()).reversed()))
                .toList();
        if (bulk.isEmpty()) {
            return;
        }
        b.append("<h3>Write then sync, beside fio</h3>\n");
        p(b, "Each pass appends fio's byte count in records of fio's block size to a fresh journal and ends with a"
                + " sync; at NONE its counterpart is fio's buffered write (one fsync at the end), at BATCH fio's"
                + " write with an fdatasync every group-commit threshold.");
        Table t = new Table("backend", "durability", "record", "bytes", "MB/s", "min–max", "passes", "fio buffered",
                "fio fdatasync", "vs fio");
        for (Measurement m : bulk) {
            Stats bytes = m.byteStats();
            Optional<Limit> buffered = fioJob(limits, Fio.JOURNAL_WRITE, m.bufferSize());
            Optional<Limit> synced = fioJob(limits, Fio.JOURNAL_WRITE_FDATASYNC, m.bufferSize());
            Optional<Limit> same = "batch".equals(m.durability()) ? synced : buffered;
            t.row(new Table.Cell(m.method(), "method"), m.durability(), Sizes.format(m.bufferSize()),
                    Sizes.format(m.fileSize()), new Table.Cell(Rates.format(bytes.median(), "B/s"), "num"),
                    Rates.format(bytes.min(), "B/s") + " – " + Rates.format(bytes.max(), "B/s"), bytes.n(),
                    buffered.map(HtmlReport::fioFigure).orElse("not measured"),
                    synced.map(HtmlReport::fioFigure).orElse("not measured"),
                    same.map(l -> Rates.ratio(bytes.ratioTo(l.stats()))).orElse("-"));
        }
        t.write(b, "journal-bulk");
    }

    private static Optional<Limit> fioJob(List<Limit> limits, String operation, long blockSize) {
        return limits.stream().filter(l -> Fio.TOOL.equals(l.tool()) && operation.equals(l.operation())
                && l.blockSize() == blockSize && !l.passes().isEmpty()).findFirst();
    }

    private static String fioFigure(Limit l) {
        Stats s = l.stats();
        return Rates.format(s.median(), "B/s") + " (" + Rates.format(s.min(), "B/s") + " – "
                + Rates.format(s.max(), "B/s") + ")";
    }

    // ---- 7. the store ----

    private static void store(StringBuilder b, RunData run, List<Figure> figures) {
        heading(b, 7);
        List<Measurement> store = run.results().store().stream().filter(m -> !m.passes().isEmpty()).toList();
        if (store.isEmpty()) {
            p(b, "This run did not measure the record store; ./iolab bench --workload store (or --workload all)"
                    + " runs Bruno's employee workload on iolab's store and on the embedded peers.");
            b.append("</section>\n");
            return;
        }
        p(b, "Bruno's employee workload (org.iolab.bench.store.StoreBenchmark): put every employee, scan and decode"
                + " them all, get all in shuffled order, delete every second, insert half as many new ones (reusing"
                + " the freed space), close and reopen; each phase is one timed single-shot pass on a fresh store"
                + " brought to that phase untimed, and checked afterwards (a wrong count, sum or value fails the run)."
                + " Times in ms, median and min–max over the measured passes; lower is better. The size is the"
                + " store's folder after the reopen (the final size), engine closed. iolab's engines are iolab"
                + " (the default backend) and iolab-<backend>; bruno-mbb is Bruno's own MappedByteBuffer code, not a"
                + " peer.");
        b.append("<h3>Targets</h3>\n");
        Table targets = new Table("target", "iolab", "compared with", "ratio", "needed", "verdict");
        for (TargetCheck c : StoreTargets.check(run)) {
            targets.row(c.target(), c.journal(), c.comparator(), Rates.ratio(c.ratio()), StoreTargets.needed(c),
                    new Table.Cell(c.label(), "verdict " + c.verdict().name().toLowerCase(Locale.ROOT)
                            .replace('_', '-')));
        }
        targets.write(b, "store-targets");
        p(b, "Speed targets compare iolab's fastest engine with the fastest peer at the same durability and record"
                + " count; the ratio is how many times faster iolab is (peer time / iolab time). Met or not met only"
                + " when every pass clears, or misses, every pass of the comparator times the factor. The live data"
                + " is the key and value bytes of the employees live after the workload (every second of the first"
                + " records, plus the records / 2 new ones), encoded by EmployeeCodec, as ./iolab bench computes it.");
        List<String> levels = store.stream().map(Measurement::durability).distinct()
                .sorted(Comparator.comparing(StoreTargets::order)).toList();
        for (String d : levels) {
            List<Long> counts = store.stream().filter(m -> d.equals(m.durability())).map(Measurement::records)
                    .distinct().sorted(Comparator.reverseOrder()).toList();
            for (long records : counts) {
                storeTable(b, store.stream().filter(m -> d.equals(m.durability()) && m.records() == records)
                        .toList(), d, records);
            }
        }
        putLatency(b, run);
        figures.stream().filter(f -> f.name().equals(Charts.STORE_PHASES)).findFirst().ifPresent(f -> figure(b, f));
        List<String> notes = run.notes().stream().filter(n -> n.contains("store")).toList();
        if (!notes.isEmpty()) {
            b.append("<ul class=\"notes\">\n");
            notes.forEach(n -> li(b, n));
            b.append("</ul>\n");
        }
        b.append("</section>\n");
    }

    /** The per-put latency runs and the device's 4 KiB write+fdatasync rate beside them. */
    private static void putLatency(StringBuilder b, RunData run) {
        b.append("<h3>Per-put latency and the device's synced write rate</h3>\n");
        Optional<Limit> device = StoreTargets.deviceSync(run.limits());
        if (run.putLatency().isEmpty()) {
            p(b, "No per-put latency run in this run (see the notes below).");
        } else {
            p(b, "org.iolab.bench.store.StoreLatency: employees put one after the other into a fresh store (a"
                    + " closed loop, like the put phase), the first ones as a warm-up, each recorded put timed on"
                    + " its own from the call to the return (put), or for iolab at BATCH also to the moment the"
                    + " store reported it durable (durable: the group commit's wait). puts/s is the recorded puts"
                    + " over the loop's time. These are service times: a stall delays the puts after it rather"
                    + " than being charged to them. At ALWAYS every put is one synced write, so the device's"
                    + " 4 KiB write+fdatasync rate is its ceiling unless the engine syncs less than a page.");
            Table t = new Table("engine", "durability", "latency", "puts", "puts/s", "p50", "p90", "p99", "p99.9",
                    "max", "vs device");
            List<PutLatency> rows = run.putLatency().stream().sorted(Comparator
                    .comparing((PutLatency l) -> StoreTargets.order(l.durability()))
                    .thenComparing(l -> StoreTargets.iolab(l.engine()) ? 0 : 1)
                    .thenComparing(PutLatency::engine).thenComparing(l -> PutLatency.PUT.equals(l.mode()) ? 0 : 1))
                    .toList();
            for (PutLatency l : rows) {
                boolean put = PutLatency.PUT.equals(l.mode());
                t.row(new Table.Cell(l.engine(), "method"), l.durability(), put ? "put returned" : "put durable",
                        l.puts(), new Table.Cell(Rates.format(l.putsPerSecond(), "puts/s"), "num"),
                        JournalTargets.micros(l.p50Nanos()), JournalTargets.micros(l.p90Nanos()),
                        JournalTargets.micros(l.p99Nanos()), JournalTargets.micros(l.p999Nanos()),
                        JournalTargets.micros(l.maxNanos()), device.filter(d -> put && "always".equals(l.durability()))
                                .map(d -> Rates.ratio(l.putsPerSecond() / StoreTargets.deviceRate(d))).orElse("-"));
            }
            t.write(b, "store-latency");
        }
        if (device.isPresent()) {
            Limit d = device.get();
            Stats s = d.stats();
            p(b, "The device: fio's 4 KiB sequential writes with an fdatasync after each (" + d.note() + ") ran at "
                    + Rates.format(StoreTargets.deviceRate(d), "writes/s") + " (" + Rates.format(s.min()
                    / d.blockSize(), "writes/s") + " – " + Rates.format(s.max() / d.blockSize(), "writes/s") + ", "
                    + s.n() + " pass" + (s.n() == 1 ? "" : "es") + ") in the same folder; \"vs device\" is an"
                    + " engine's ALWAYS puts/s over that rate.");
        } else {
            p(b, "The device's 4 KiB write+fdatasync rate was not measured in this run (fio not installed, or"
                    + " --no-limits).");
        }
    }

    /** One durability and record count: rows = engines, columns = phases, best peer marked, iolab's ratios. */
    private static void storeTable(StringBuilder b, List<Measurement> of, String durability, long records) {
        List<String> phases = ResultSet.STORE_PHASES.stream().filter(p -> of.stream().anyMatch(m -> p.equals(m.phase())))
                .toList();
        List<String> engines = of.stream().map(Measurement::method).distinct().sorted(Comparator
                .comparing((String e) -> StoreTargets.iolab(e) ? 0 : StoreTargets.peer(e) ? 2 : 1)
                .thenComparing(e -> e)).toList();
        b.append("<h3>").append(Text.esc("Durability " + durability.toUpperCase(Locale.ROOT) + ", " + records
                + " records")).append("</h3>\n");
        List<String> headers = new ArrayList<>(List.of("engine"));
        phases.forEach(p -> headers.add(p + " (ms)"));
        headers.add("final size");
        Table t = new Table(headers.toArray(String[]::new));
        for (String engine : engines) {
            List<Object> cells = new ArrayList<>(List.of(new Table.Cell(engine, "method")));
            for (String phase : phases) {
                Optional<Measurement> m = find(of, engine, phase);
                Optional<Measurement> best = bestPeer(of, phase);
                boolean marked = m.isPresent() && best.isPresent() && best.get() == m.get();
                cells.add(m.map(x -> new Table.Cell(StoreTargets.figure(x.stats()) + (marked ? " ★" : ""),
                        marked ? "num ahead" : "num")).orElse(new Table.Cell("-", "num")));
            }
            cells.add(find(of, engine, "reopen").filter(m -> m.fileSize() > 0).map(m -> Sizes.format(m.fileSize()))
                    .orElse("-"));
            t.row(cells.toArray());
        }
        List<String> iolabs = engines.stream().filter(StoreTargets::iolab).toList();
        for (String engine : iolabs) {
            List<Object> cells = new ArrayList<>(List.of(new Table.Cell(engine + " vs best peer", "method")));
            for (String phase : phases) {
                Optional<Measurement> m = find(of, engine, phase);
                Optional<Measurement> best = bestPeer(of, phase);
                cells.add(m.isPresent() && best.isPresent()
                        ? fasterOrSlower(best.get().stats().median() / m.get().stats().median())
                        : "-");
            }
            Optional<Measurement> r = find(of, engine, "reopen");
            cells.add(r.filter(m -> m.fileSize() > 0 && m.bufferSize() > 0).map(m -> Rates.ratio(
                    (double) m.fileSize() / m.bufferSize()) + " the live data").orElse("-"));
            t.row(cells.toArray());
        }
        t.write(b, "store-" + durability + "-" + records);
        p(b, "★ marks the best peer of each phase (lowest median); bruno-mbb, heap-map (a heap HashMap written only"
                + " at close: the floor of each phase) and iolab's engines are not peers."
                + " Ratios above 1x mean iolab is faster.");
    }

    private static Optional<Measurement> find(List<Measurement> of, String engine, String phase) {
        return of.stream().filter(m -> engine.equals(m.method()) && phase.equals(m.phase())).findFirst();
    }

    private static Optional<Measurement> bestPeer(List<Measurement> of, String phase) {
        return of.stream().filter(m -> StoreTargets.peer(m.method()) && phase.equals(m.phase()))
                .min(Comparator.comparingDouble(m -> m.stats().median()));
    }

    private static String durabilityOrder(String d) {
        return switch (d) {
            case "none" -> "0";
            case "batch" -> "1";
            case "always" -> "2";
            default -> d;
        };
    }

    // ---- 5. all results ----

    private static void results(StringBuilder b, RunData run, List<Measurement> all, OptionalDouble device) {
        heading(b, 5);
        p(b, "Every point of the run, fastest first within reads, writes and random access. Throughput is the file"
                + " size over the pass time (random access: probes per second). A read faster than the device"
                + " bandwidth" + (device.isPresent() ? " (" + Rates.format(device.getAsDouble(), "B/s") + ")" : "")
                + " came from the page cache and is labelled served from memory: it is not the disk's speed.");
        Table t = new Table("kind", "method", "buffer", "file size", "cache / prealloc", "median", "min–max",
                "passes", "ratio to limit", "page-cache truth");
        for (Measurement m : sorted(all)) {
            Stats s = m.stats();
            String truth = PageCacheTruth.label(m, device);
            t.row(kind(m), new Table.Cell(m.method(), "method"), buffer(m), Sizes.format(m.fileSize()), setting(m),
                    new Table.Cell(Rates.format(s.median(), m.unit()), "num"),
                    Rates.format(s.min(), m.unit()) + " – " + Rates.format(s.max(), m.unit()), s.n(),
                    PageCacheTruth.ratio(m, run.limits()),
                    new Table.Cell(truth, truth.startsWith("served from memory") ? "memory" : null));
        }
        t.write(b, "results");
        b.append("</section>\n");
    }

    private static List<Measurement> sorted(List<Measurement> all) {
        return all.stream().sorted(Comparator.comparing(Measurement::bench)
                .thenComparing(Comparator.comparingDouble((Measurement m) -> m.stats().median()).reversed()))
                .toList();
    }

    private static String kind(Measurement m) {
        return switch (m.bench()) {
            case READ -> m.kind() == org.iolab.catalogue.Kind.READ_CHARS ? "read (chars)" : "read";
            case WRITE -> "write";
            case RANDOM -> "random";
            case JOURNAL_APPEND, CHRONICLE_APPEND -> "append";
            case JOURNAL_REPLAY, CHRONICLE_REPLAY -> "replay";
            case JOURNAL_BULK -> "write+sync";
            case STORE -> "store";
        };
    }

    private static String buffer(Measurement m) {
        if (m.bench().store()) {
            return "-";
        }
        if (m.bench() == Bench.RANDOM) {
            return "stride " + Sizes.format(m.stride()) + ", " + m.length() + " B";
        }
        return m.usesBuffer() ? Sizes.format(m.bufferSize()) : "-";
    }

    private static String setting(Measurement m) {
        if (m.bench() == Bench.WRITE) {
            return (m.prealloc() == null ? "none" : m.prealloc()) + (m.sync() ? ", sync" : "");
        }
        return m.cache() == null ? "-" : m.cache();
    }

    private static String shortLabel(Measurement m) {
        return m.bench() != Bench.RANDOM && m.usesBuffer() ? m.method() + " " + Sizes.format(m.bufferSize())
                : m.method();
    }

    // ---- 6. claims ----

    private static void claims(StringBuilder b, RunData run) {
        heading(b, 8);
        List<ClaimCheck> checks = Claims.check(run);
        if (checks.isEmpty()) {
            p(b, "No claim could be checked.");
        } else {
            p(b, "A claim holds or does not hold only when every pass of one side beat every pass of the other;"
                    + " overlapping ranges are not distinguishable on this machine with these passes.");
            Table t = new Table("claim", "article", "measured here", "verdict");
            for (ClaimCheck c : checks) {
                t.row(c.claim(), c.article(), c.measured(), new Table.Cell(c.verdict().label(),
                        "verdict " + c.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-')));
            }
            t.write(b, "claims");
        }
        b.append("</section>\n");
    }

    // ---- 7. how it was measured ----

    private static void method(StringBuilder b, RunData run) {
        heading(b, 9);
        JsonNode first = firstEntry(run.results());
        List<Measurement> all = run.results().measurements();
        Set<Integer> passes = new TreeSet<>();
        Set<Integer> warmups = new TreeSet<>();
        List<Measurement> every = new ArrayList<>(run.results().all());
        every.addAll(run.results().store());
        for (Measurement m : every) {
            passes.add(m.passes().size());
            warmups.add(m.warmups().size());
        }
        String jdk = first == null ? "?" : first.path("jdkVersion").asText("?") + " ("
                + first.path("vmName").asText("") + ")";
        String forks = first == null ? "?" : first.path("forks").asText("?");
        String warmupIterations = first == null ? "?" : first.path("warmupIterations").asText("?");
        String jvmArgs = first == null ? "" : String.join(" ", strings(first.path("jvmArgs")));
        String evict = first == null ? "fadvise" : first.path("params").path("evict").asText("fadvise");
        b.append("<ul>\n");
        li(b, "Harness: JMH " + (first == null ? "" : first.path("jmhVersion").asText("")) + ", single-shot mode:"
                + " every pass reads or writes the whole file once and is timed on its own; throughput is bytes"
                + " (or probes) over that time.");
        li(b, "Passes: " + join(passes) + " measured per point, after " + warmupIterations
                + " JMH warm-up pass(es) per fork (warm-up passes are not in the medians; the pass chart shows"
                + " them when recorded), in " + forks + " fork(s) (a fresh JVM per point).");
        li(b, "JDK " + jdk + "; JVM flags: " + (jvmArgs.isEmpty() ? "none" : jvmArgs) + ".");
        li(b, "Cache control: warm passes read a file already in the page cache; cold passes evict it first ("
                + ("drop-caches".equals(evict) ? "echo 3 > /proc/sys/vm/drop_caches"
                : "posix_fadvise(POSIX_FADV_DONTNEED), then mincore checks that no page is left")
                + "), so they measure the device.");
        li(b, "Correctness: every read pass computes a 64-bit checksum of every byte it read and compares it with"
                + " the file's known content; random access checks the bytes at its probes; every write pass is"
                + " checked for size and checksum after it ends; a mismatch fails the run. The C baseline verifies"
                + " the same checksum.");
        li(b, "Spread: min–max of the passes. Two results are told apart only when their ranges do not overlap.");
        b.append("</ul>\n");
        b.append("<p>To reproduce (the same methods, buffers and cache states on the largest file; as in this run, the"
                + " planner gives methods too slow for it a smaller file, and the command may measure a few more"
                + " combinations than this run had):</p>\n<pre>").append(Text.esc(reproduce(run, forks)))
                .append("</pre>\n<p>To draw this page again from the results without re-running:</p>\n<pre>")
                .append(Text.esc("./iolab report " + run.results().source().getFileName())).append("</pre>\n");
        b.append("<p class=\"source\">Results: ").append(Text.esc(run.results().source().toString()))
                .append("</p>\n</section>\n");
    }

    private static void li(StringBuilder b, String text) {
        b.append("<li>").append(Text.esc(text)).append("</li>\n");
    }

    private static String join(Set<Integer> s) {
        return s.stream().map(String::valueOf).collect(Collectors.joining(" or "));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : array) {
            out.add(n.asText());
        }
        return out;
    }

    /** @return the commands that measure this run's catalogue points and workloads again, one a line */
    private static String reproduce(RunData run, String forks) {
        List<String> lines = new ArrayList<>();
        if (!run.results().measurements().isEmpty()) {
            lines.add(command(run.results().measurements(), forks));
        }
        if (!run.results().journal().isEmpty()) {
            lines.add("./iolab bench --workload journal");
        }
        if (!run.results().store().isEmpty()) {
            lines.add("./iolab bench --workload store");
        }
        return lines.isEmpty() ? command(run.results().measurements(), forks) : String.join("\n", lines);
    }

    /** @return the command that measures the same methods, buffers, sizes and cache states */
    static String command(List<Measurement> all, String forks) {
        Set<String> methods = new LinkedHashSet<>();
        Set<Long> buffers = new TreeSet<>();
        TreeSet<Long> sizes = new TreeSet<>();
        Set<String> caches = new TreeSet<>();
        int runs = 1;
        for (Measurement m : all) {
            methods.add(m.method());
            if (m.bench() != Bench.RANDOM && m.usesBuffer()) {
                buffers.add(m.bufferSize());
            }
            sizes.add(m.fileSize());
            if (m.cache() != null) {
                caches.add(m.cache());
            }
            runs = Math.max(runs, m.passes().size());
        }
        StringBuilder c = new StringBuilder("./iolab bench --methods ").append(String.join(",", methods));
        if (!buffers.isEmpty()) {
            c.append(" --buffers ").append(buffers.stream().map(HtmlReport::size).collect(Collectors.joining(",")));
        }
        if (!sizes.isEmpty()) {
            c.append(" --sizes ").append(size(sizes.last()));
        }
        if (!caches.isEmpty()) {
            c.append(" --cache ").append(caches.size() > 1 ? "both" : caches.iterator().next());
        }
        c.append(" --runs ").append(runs);
        if (forks != null && forks.matches("\\d+")) {
            c.append(" --forks ").append(forks);
        }
        return c.toString();
    }

    private static String size(long bytes) {
        String[] units = {"", "k", "m", "g", "t"};
        int u = 0;
        while (u < units.length - 1 && bytes % 1024 == 0 && bytes >= 1024) {
            bytes /= 1024;
            u++;
        }
        return bytes + units[u];
    }

    private static JsonNode firstEntry(ResultSet results) {
        try {
            JsonNode root = ResultSet.JSON.readTree(results.source().toFile());
            return root != null && root.isArray() && !root.isEmpty() ? root.get(0) : null;
        } catch (IOException | RuntimeException e) {
            return null; // the page still renders; the method section says "?"
        }
    }

    private static String machineName(RunData run) {
        return run.machine().stream().filter(f -> f.name().equals("CPU")).map(Fact::value).findFirst()
                .orElse(run.results().source().getFileName().toString());
    }

    private static String summaryLine(RunData run) {
        List<Measurement> all = run.results().measurements();
        long reads = all.stream().filter(m -> m.bench() == Bench.READ).count();
        long writes = all.stream().filter(m -> m.bench() == Bench.WRITE).count();
        long random = all.stream().filter(m -> m.bench() == Bench.RANDOM).count();
        Set<String> methods = all.stream().map(Measurement::method).collect(Collectors.toCollection(TreeSet::new));
        List<Measurement> journal = run.results().journal();
        List<Measurement> store = run.results().store();
        List<Measurement> any = all.isEmpty() ? journal.isEmpty() ? store : journal : all;
        String jdk = any.isEmpty() ? "" : " on JDK " + any.getFirst().jdk();
        List<String> parts = new ArrayList<>();
        if (!all.isEmpty() || (journal.isEmpty() && store.isEmpty())) {
            parts.add(String.format(Locale.ROOT, "%d methods, %d points (%d reads, %d writes, %d random access)",
                    methods.size(), all.size(), reads, writes, random));
        }
        if (!journal.isEmpty()) {
            parts.add(journal.size() + " journal points");
        }
        if (!store.isEmpty()) {
            parts.add(store.size() + " store points");
        }
        return String.join(", ", parts) + jdk + ", " + run.limits().size() + " physical limits.";
    }

    private static final String CSS = """
            :root { color-scheme: light; }
            body { margin: 0; background: #fafafa; color: #1d1d1f;
              font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
            main { max-width: 1100px; margin: 0 auto; padding: 1.5rem 1rem 4rem; background: #fff; }
            h1 { font-size: 1.7rem; margin: 0.5rem 0; }
            h2 { font-size: 1.35rem; margin-top: 2.5rem; border-bottom: 2px solid #e3e3e3; padding-bottom: 0.2rem; }
            h3 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
            .lead { color: #555; }
            nav ol { list-style: none; padding: 0; margin: 0.5rem 0; }
            nav li { display: inline-block; margin: 0.15rem 1.4rem 0.15rem 0; }
            a { color: #0b5cad; }
            .scroll { overflow-x: auto; margin: 0.5rem 0 1rem; }
            table { border-collapse: collapse; font-size: 0.9rem; min-width: 60%; }
            th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid #e6e6e6; vertical-align: top; }
            th { background: #f2f4f7; white-space: nowrap; }
            td.method { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
            td.num { white-space: nowrap; }
            td.ahead { color: #11663a; font-weight: 600; }
            td.tied { color: #8a5a00; font-weight: 600; }
            .memory { color: #7a3e9d; font-weight: 600; }
            td.verdict { font-weight: 600; white-space: nowrap; }
            td.holds { background: #e3f4e8; color: #11663a; }
            td.does-not-hold { background: #fbe4e4; color: #a01818; }
            td.not-distinguishable { background: #fff3d6; color: #7a5200; }
            td.not-measured { background: #f0f0f0; color: #666; }
            figure { margin: 1rem 0 2rem; }
            .chart svg { display: block; width: 100%; height: auto; max-width: 1000px; }
            figcaption { color: #444; font-size: 0.92rem; margin-top: 0.3rem; }
            .omitted { color: #666; font-style: italic; }
            pre { background: #f4f4f4; padding: 0.6rem; overflow-x: auto; white-space: pre-wrap;
              word-break: break-all; }
            .source { color: #777; font-size: 0.85rem; }
            """;

    /**
     * @param ratio the best peer's time over iolab's
     * @return e.g. {@code 1.74x faster}, or for a ratio below 1 {@code 1.04x slower} (its inverse)
     */
    static String fasterOrSlower(double ratio) {
        return ratio >= 1 ? Rates.ratio(ratio) + " faster" : Rates.ratio(1 / ratio) + " slower";
    }
}
