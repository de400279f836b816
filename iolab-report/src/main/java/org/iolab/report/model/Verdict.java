package org.iolab.report.model;

/** What this machine's measurements say about an article's claim. */
public enum Verdict {
    /** The measurements agree with the claim, beyond the spread of the runs. */
    HOLDS("holds"),
    /** The measurements contradict the claim, beyond the spread of the runs. */
    DOES_NOT_HOLD("does not hold"),
    /** The difference the claim is about is within the spread of the runs. */
    NOT_DISTINGUISHABLE("not distinguishable"),
    /** The results file lacks the measurements the claim needs (e.g. a profile that did not run them). */
    NOT_MEASURED("not measured");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** @return how the report prints it */
    public String label() {
        return label;
    }
}
