package org.iolab.report.model;

import java.util.Arrays;
import java.util.List;

/**
 * Median, spread and a plain test of whether two sets of passes can be told apart.
 *
 * @param n how many values
 * @param median the median
 * @param min the smallest
 * @param max the largest
 * @param mean the mean
 */
public record Stats(int n, double median, double min, double max, double mean) {
    /**
     * @param values the values (at least one)
     * @return their statistics
     */
    public static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Stats(n, median, v[0], v[n - 1], Arrays.stream(v).average().orElse(Double.NaN));
    }

    /** Fewest passes on each side before two results can be called different: one pass has no spread. */
    public static final int MIN_PASSES = 3;

    /**
     * Two results are distinguishable when each has at least {@link #MIN_PASSES} passes and their min–max
     * ranges do not overlap: every pass of one beat every pass of the other. With few passes on a noisy
     * machine this is deliberately conservative.
     *
     * @param other another result
     * @return whether the ranges are disjoint
     */
    public boolean distinguishableFrom(Stats other) {
        return n >= MIN_PASSES && other.n >= MIN_PASSES && (min > other.max || other.min > max);
    }

    /**
     * @param other a baseline
     * @return median / baseline median
     */
    public double ratioTo(Stats other) {
        return median / other.median;
    }
}
