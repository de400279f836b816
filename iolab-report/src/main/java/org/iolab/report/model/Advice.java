package org.iolab.report.model;

/**
 * The recommendation for one workload on this machine.
 *
 * @param workload {@code sequential read}, {@code sequential write} or {@code random read}
 * @param best the winning measurement
 * @param runnerUp the best measurement of another method (null when there is none)
 * @param clearlyAhead whether the winner's passes all beat the runner-up's ({@link Stats#distinguishableFrom})
 * @param text one or two sentences for the reader
 */
public record Advice(String workload, Measurement best, Measurement runnerUp, boolean clearlyAhead, String text) {
}
