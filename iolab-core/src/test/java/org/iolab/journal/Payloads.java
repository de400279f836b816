package org.iolab.journal;

import java.util.SplittableRandom;

/** Deterministic test payloads: the content of record {@code seq} of a given size. */
final class Payloads {
    private Payloads() {
    }

    static byte[] of(long seq, int size) {
        byte[] b = new byte[size];
        new SplittableRandom(seq * 7919 + size).nextBytes(b);
        return b;
    }

    /** A size in {@code [0, max]} chosen by {@code seq}. */
    static int size(long seq, int max) {
        return new SplittableRandom(seq ^ 0x5DEECE66DL).nextInt(max + 1);
    }
}
