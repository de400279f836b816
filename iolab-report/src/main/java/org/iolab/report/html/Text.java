package org.iolab.report.html;

/** How the report writes numbers and escapes text. */
final class Text {
    private Text() {
    }

    /**
     * @param s any text (null gives "")
     * @return it with {@code & < > " '} escaped, safe inside elements and quoted attributes
     */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    // XML 1.0 forbids most control characters; drop them so the page stays well-formed
                    if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
