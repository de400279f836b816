package org.iolab.report.html;

import java.util.ArrayList;
import java.util.List;

/** An HTML table of escaped text cells (a cell may carry a CSS class), wrapped so that it scrolls sideways. */
final class Table {
    /**
     * One cell.
     *
     * @param text its text (escaped when written)
     * @param cssClass a CSS class, or null
     */
    record Cell(String text, String cssClass) {
    }

    private final List<String> headers;
    private final List<List<Cell>> rows = new ArrayList<>();

    /**
     * @param headers the column titles
     */
    Table(String... headers) {
        this.headers = List.of(headers);
    }

    /**
     * @param cells one text per column; a {@link Cell} keeps its class
     * @return this
     */
    Table row(Object... cells) {
        List<Cell> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c instanceof Cell cell ? cell : new Cell(c == null ? "" : c.toString(), null));
        }
        rows.add(r);
        return this;
    }

    /** @return whether it has no rows */
    boolean isEmpty() {
        return rows.isEmpty();
    }

    /**
     * @param out where the markup goes
     * @param cssClass the table's class, or null
     */
    void write(StringBuilder out, String cssClass) {
        out.append("<div class=\"scroll\"><table")
                .append(cssClass == null ? "" : " class=\"" + Text.esc(cssClass) + "\"")
                .append(">\n<thead><tr>");
        for (String h : headers) {
            out.append("<th>").append(Text.esc(h)).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (List<Cell> r : rows) {
            out.append("<tr>");
            for (Cell c : r) {
                out.append(c.cssClass() == null ? "<td>" : "<td class=\"" + Text.esc(c.cssClass()) + "\">")
                        .append(Text.esc(c.text())).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody></table></div>\n");
    }
}
