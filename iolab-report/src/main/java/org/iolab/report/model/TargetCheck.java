package org.iolab.report.model;

/**
 * One of the journal's performance targets (issue 4), checked against this run.
 *
 * @param target the target in a few words, e.g. "NONE 64 B appends ≥ 3× Chronicle Queue"
 * @param journal the journal's figure (median and min–max), or why it is missing
 * @param comparator the comparator's figure, or why it is missing
 * @param ratio journal median / comparator median (NaN when not measured)
 * @param needed the ratio the target asks for
 * @param verdict {@link Verdict#HOLDS} (met), {@link Verdict#DOES_NOT_HOLD} (not met), not distinguishable
 *     (the min–max ranges of the journal and of the comparator times {@code needed} overlap) or not measured
 */
public record TargetCheck(String target, String journal, String comparator, double ratio, double needed,
                          Verdict verdict) {
    /** @return {@code met}, {@code not met}, {@code not distinguishable} or {@code not measured} */
    public String label() {
        return switch (verdict) {
            case HOLDS -> "met";
            case DOES_NOT_HOLD -> "not met";
            default -> verdict.label();
        };
    }
}
