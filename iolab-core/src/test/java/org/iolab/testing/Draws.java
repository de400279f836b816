package org.iolab.testing;

import java.util.SplittableRandom;

/**
 * The draws the corruption generators make from one seeded random source. Every bounded draw returns one of its
 * two bounds once in {@value #EDGE_ONE_IN} draws, so edge cases (empty files, offset 0, the largest values) turn up
 * in every run; the draws are consumed from the source in call order, so a seed always rebuilds the same case.
 */
public final class Draws {
    /** One draw in this many returns a bound of its range. */
    public static final int EDGE_ONE_IN = 32;
    private final SplittableRandom random;

    /** @param random the seeded source (shared with the caller's own draws) */
    public Draws(SplittableRandom random) {
        this.random = random;
    }

    /** @return one of {@code values}, uniform */
    public <T> T of(T[] values) {
        return values[random.nextInt(values.length)];
    }

    /** @return a non-negative int, uniform (not biased to small values, which would all land in a header) */
    public int raw() {
        return uniform(0, Integer.MAX_VALUE);
    }

    /** @return uniform in {@code [lo, hi]}, or a bound once in {@link #EDGE_ONE_IN} draws */
    public int uniform(int lo, int hi) {
        if (random.nextInt(EDGE_ONE_IN) == 0) {
            return random.nextBoolean() ? lo : hi;
        }
        return (int) random.nextLong(lo, hi + 1L);
    }

    /** @return in {@code [lo, hi]}, leaning to {@code lo}: uniform below {@code lo + 2^k}, k uniform; or a bound */
    public int small(int lo, int hi) {
        if (random.nextInt(EDGE_ONE_IN) == 0) {
            return random.nextBoolean() ? lo : hi;
        }
        long span = (long) hi - lo + 1;
        int bits = 64 - Long.numberOfLeadingZeros(span);
        long limit = Math.min(span, 1L << random.nextInt(bits + 1));
        return (int) (lo + random.nextLong(limit));
    }

    /** @return any int, leaning to small magnitudes of either sign (like {@link #small}), or 0 and the extremes */
    public int anyInt() {
        if (random.nextInt(EDGE_ONE_IN) == 0) {
            return of(new Integer[] {0, Integer.MIN_VALUE, Integer.MAX_VALUE});
        }
        int magnitude = small(0, Integer.MAX_VALUE);
        return random.nextBoolean() ? magnitude : -magnitude - 1;
    }
}
