package org.iolab.catalogue;

/** Where a method comes from: one of the seed articles iolab grew from, or the modern JDK. */
public enum Article {
    /** Martin Thompson, "Java Sequential IO Performance" (2011). */
    THOMPSON("Thompson 2011", "Martin Thompson, \"Java Sequential IO Performance\" (2011)"),
    /** Eric Bruno, "Java File IO Comparison" (2010). */
    BRUNO("Bruno 2010", "Eric Bruno, \"Java File IO Comparison\" (2010)"),
    /** Nick Fisher, "Appropriately Using Random Access Over Streams" (2018). */
    FISHER("Fisher 2018", "Nick Fisher, \"Improving Java IO Performance: Appropriately Using Random Access Over Streams\" (2018)"),
    /** The public "java-io-benchmark" repository's README. */
    JAVA_IO_BENCHMARK("java-io-benchmark", "the public \"java-io-benchmark\" repository"),
    /** David Nadeau, "Java tip: How to read files quickly". */
    NADEAU("Nadeau", "David Nadeau, \"Java tip: How to read files quickly\""),
    /** Not in the articles: APIs of JDK 7 to 25 (FFM, positional I/O, O_DIRECT, transferTo). */
    MODERN("modern JDK", "iolab: JDK 7-25 APIs the articles predate");

    private final String shortName;
    private final String citation;

    Article(String shortName, String citation) {
        this.shortName = shortName;
        this.citation = citation;
    }

    /** @return a short label, e.g. {@code Nadeau} */
    public String shortName() {
        return shortName;
    }

    /** @return author, title and year */
    public String citation() {
        return citation;
    }
}
