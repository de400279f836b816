package org.iolab.report.model;

/**
 * One article claim, checked against this run.
 *
 * @param claim the claim in a few words, e.g. "seek beats skip about 2x"
 * @param article who made it (e.g. {@code Fisher 2018})
 * @param measured the figures measured here that decide it, in words, e.g. "raf-seek 829 k/s vs bis-skip
 *     404 k/s (2.05x)"
 * @param verdict holds / does not hold / not distinguishable / not measured
 */
public record ClaimCheck(String claim, String article, String measured, Verdict verdict) {
}
