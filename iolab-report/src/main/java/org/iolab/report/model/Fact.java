package org.iolab.report.model;

/**
 * One fact about the machine, e.g. {@code CPU} = {@code AMD EPYC, 2 cores}.
 *
 * @param name what it is
 * @param value what was found, or why it could not be found
 */
public record Fact(String name, String value) {
}
