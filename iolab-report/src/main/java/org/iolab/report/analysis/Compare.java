package org.iolab.report.analysis;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.iolab.IolabException;
import org.iolab.report.model.Measurement;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.Stats;
import org.iolab.report.model.WholeFile;

/** Compares results files point by point, and exports one as CSV. */
public final class Compare {
    /** The CSV header {@link #writeCsv} writes. */
    public static final String CSV_HEADER =
            "file,bench,method,kind,bufferSize,fileSize,cache,prealloc,sync,stride,length,unit,pass,throughput,durability,"
                    + "records,phase";

    private Compare() {
    }

    /**
     * @param files results files, the baseline first (at least one)
     * @return one row per point of any file; a point missing from a file gives a {@code missing} cell
     * @throws IolabException when no file is given
     */
    public static Comparison compare(List<ResultSet> files) {
        if (files.isEmpty()) {
            throw new IolabException("nothing to compare: give at least one results.json");
        }
        List<Map<String, Measurement>> byKey = new ArrayList<>();
        Map<String, Measurement> firstSeen = new LinkedHashMap<>();
        for (ResultSet rs : files) {
            Map<String, Measurement> m = new LinkedHashMap<>();
            List<Measurement> points = new ArrayList<>(rs.all());
            points.addAll(rs.store());
            for (Measurement x : points) {
                m.putIfAbsent(x.key(), x);
                firstSeen.putIfAbsent(x.key(), x);
            }
            byKey.add(m);
        }
        List<Comparison.Row> rows = new ArrayList<>();
        for (Map.Entry<String, Measurement> e : firstSeen.entrySet()) {
            String key = e.getKey();
            Measurement base = byKey.getFirst().get(key);
            List<Comparison.Cell> cells = new ArrayList<>();
            for (int i = 0; i < byKey.size(); i++) {
                Measurement m = byKey.get(i).get(key);
                cells.add(cell(i == 0, base, m));
            }
            Measurement any = e.getValue();
            rows.add(new Comparison.Row(key, any.bench(), any.label(), any.unit(), cells));
        }
        return new Comparison(files.stream().map(ResultSet::source).toList(), rows);
    }

    private static Comparison.Cell cell(boolean isBaseline, Measurement base, Measurement m) {
        if (m == null) {
            return new Comparison.Cell(null, Double.NaN, Double.NaN, Comparison.Status.MISSING);
        }
        if (m.passes().isEmpty()) {
            return new Comparison.Cell(m, Double.NaN, Double.NaN, Comparison.Status.NOT_MEASURED);
        }
        Stats s = m.stats();
        if (isBaseline) {
            return new Comparison.Cell(m, s.median(), Double.NaN, Comparison.Status.BASELINE);
        }
        if (base == null || base.passes().isEmpty()) {
            return new Comparison.Cell(m, s.median(), Double.NaN, Comparison.Status.NO_BASELINE);
        }
        Stats b = base.stats();
        double change = (s.median() / b.median() - 1) * 100;
        return new Comparison.Cell(m, s.median(), change, s.n() < Stats.MIN_PASSES || b.n() < Stats.MIN_PASSES
                ? Comparison.Status.TOO_FEW_PASSES
                : s.distinguishableFrom(b) ? Comparison.Status.SIGNIFICANT : Comparison.Status.WITHIN_NOISE);
    }

    /**
     * @param c a comparison
     * @return an aligned text table: the point, then per file its median and (after the baseline) the change
     *     and whether it is significant, within noise or missing
     */
    public static String table(Comparison c) {
        List<String> names = names(c.files());
        List<List<String>> lines = new ArrayList<>();
        List<String> header = new ArrayList<>();
        header.add("point");
        for (int i = 0; i < names.size(); i++) {
            header.add(names.get(i) + (i == 0 ? " (baseline)" : ""));
        }
        lines.add(header);
        for (Comparison.Row r : c.rows()) {
            List<String> line = new ArrayList<>();
            line.add(r.label());
            for (Comparison.Cell cell : r.cells()) {
                line.add(text(cell, r.unit()));
            }
            lines.add(line);
        }
        int cols = header.size();
        int[] width = new int[cols];
        for (List<String> l : lines) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], l.get(i).length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (List<String> l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < cols; i++) {
                if (i > 0) {
                    line.append("  ");
                }
                line.append(l.get(i));
                if (i < cols - 1) {
                    line.append(" ".repeat(width[i] - l.get(i).length()));
                }
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }

    private static String text(Comparison.Cell cell, String unit) {
        return switch (cell.status()) {
            case MISSING, NOT_MEASURED -> cell.status().label();
            case BASELINE -> Rates.format(cell.median(), unit);
            case NO_BASELINE -> Rates.format(cell.median(), unit) + " (no baseline)";
            case SIGNIFICANT, WITHIN_NOISE, TOO_FEW_PASSES -> Rates.format(cell.median(), unit) + " "
                    + Rates.percent(cell.changePercent()) + ("ms".equals(unit) ? " (time: lower is faster) " : " ")
                    + cell.status().label();
        };
    }

    /** File names, or full paths when two files share a name. */
    private static List<String> names(List<Path> files) {
        List<String> names = files.stream().map(p -> p.getFileName() == null ? p.toString()
                : p.getFileName().toString()).toList();
        boolean unique = names.stream().distinct().count() == names.size();
        return unique ? names : files.stream().map(Path::toString).toList();
    }

    /**
     * Writes one CSV row per measured pass (RFC 4180: comma separated, CRLF line ends, fields quoted when they
     * hold a comma, quote or line break).
     *
     * @param results the measurements
     * @param csv the file to write (replaced whole when it exists; {@code iolab compare} refuses one first)
     * @throws IolabException naming the file when it cannot be written
     */
    public static void writeCsv(ResultSet results, Path csv) {
        try {
            // whole or not at all: a full disk leaves no cut-off CSV (and an older one of that name as it was)
            WholeFile.write(csv, out -> {
                Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
                writeCsv(results, w);
                w.flush();
            });
        } catch (IOException e) {
            throw IolabException.io("write CSV", csv, e);
        }
    }

    private static void writeCsv(ResultSet results, Writer w) throws IOException {
        String file = results.source() == null ? "" : results.source().toString();
        w.write(CSV_HEADER);
        w.write("\r\n");
        List<Measurement> points = new ArrayList<>(results.all());
        points.addAll(results.store());
        for (Measurement m : points) {
            String kind = m.kind() == null ? "" : m.kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
            List<Double> passes = m.passes();
            for (int i = 0; i < passes.size(); i++) {
                List<String> f = List.of(file, m.bench().name().toLowerCase(Locale.ROOT), m.method(), kind,
                        Long.toString(m.bufferSize()), Long.toString(m.fileSize()), nz(m.cache()),
                        nz(m.prealloc()), Boolean.toString(m.sync()), Long.toString(m.stride()),
                        Integer.toString(m.length()), m.unit(), Integer.toString(i + 1),
                        number(passes.get(i)), nz(m.durability()), Long.toString(m.records()), nz(m.phase()));
                StringBuilder line = new StringBuilder();
                for (String s : f) {
                    if (!line.isEmpty()) {
                        line.append(',');
                    }
                    line.append(quote(s));
                }
                w.write(line.toString());
                w.write("\r\n");
            }
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "";
        }
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    /**
     * @param field a CSV field
     * @return it, quoted per RFC 4180 when it holds a comma, a double quote or a line break
     */
    static String quote(String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0
                && field.indexOf('\r') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }
}
