package org.iolab.report.html;

/**
 * One chart of the report: its SVG markup for embedding, or the sentence that says why it is missing.
 *
 * @param name file name without extension, e.g. {@code read-vs-buffer} (charts/NAME.svg and .png)
 * @param title the heading
 * @param caption what the chart shows and how to read it
 * @param svg the SVG element to embed (no XML prolog, ids unique in the page), or null when omitted
 * @param omitted why there is no chart and which option measures it, or null when there is one
 */
public record Figure(String name, String title, String caption, String svg, String omitted) {
    /**
     * @param name file name without extension
     * @param title the heading
     * @param caption how to read it
     * @param svg the SVG element
     * @return a drawn chart
     */
    static Figure drawn(String name, String title, String caption, String svg) {
        return new Figure(name, title, caption, svg, null);
    }

    /**
     * @param name file name without extension
     * @param title the heading
     * @param why which measurements are missing and which option makes them
     * @return a chart left out
     */
    static Figure omitted(String name, String title, String why) {
        return new Figure(name, title, null, null, why);
    }

    /** @return whether there is a chart */
    public boolean present() {
        return svg != null;
    }
}
