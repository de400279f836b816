package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    /** Appends records {@code from} to {@code to - 1} ({@code of(n, size(n, max))}), checking each one's sequence. */
    static void append(Journal j, long from, long to, int max) {
        for (long i = from; i < to; i++) {
            assertEquals(i, j.append(of(i, size(i, max))));
        }
    }

    /**
     * Reads every record from {@code from} through the visitor and checks each one's sequence and payload.
     *
     * @return how many records it read
     */
    static long readChecked(Journal j, long from, int max) {
        long[] next = {from};
        j.read(from, (seq, payload) -> {
            assertEquals(next[0], seq);
            byte[] b = new byte[payload.remaining()];
            payload.get(b);
            assertArrayEquals(of(seq, size(seq, max)), b, "record " + seq);
            next[0]++;
            return true;
        });
        return next[0] - from;
    }

    /**
     * Reads records from {@code from} through the visitor, each checked, up to the first gap a repair cut (or the end).
     *
     * @return how many records it read before the gap
     */
    static long readToGap(Journal j, long from, int max) {
        long[] next = {from};
        j.read(from, (seq, payload) -> {
            if (seq != next[0]) {
                return false;
            }
            byte[] b = new byte[payload.remaining()];
            payload.get(b);
            assertArrayEquals(of(seq, size(seq, max)), b, "record " + seq);
            next[0]++;
            return true;
        });
        return next[0] - from;
    }

    /**
     * Opens the journal in {@code dir} for writing (recovering it) and reads every record, each of which must be
     * {@code of(n, size(n, max))} with sequence n from 0.
     *
     * @return how many records it holds
     */
    static long readIntact(Path dir, JournalOptions options, int max, String what) {
        try (Journal reopened = Journal.open(dir, options); JournalReader r = reopened.reader(0)) {
            long n = 0;
            while (r.hasNext()) {
                assertEquals(new Record(n, of(n, size(n, max))), r.next(), what + " record " + n);
                n++;
            }
            assertEquals(n, reopened.nextSequence(), what);
            return n;
        }
    }

    /** @return the sequences of every record from {@code from} on, each checked against the payload of its sequence */
    static List<Long> sequences(Journal j, long from, int max) {
        List<Long> seqs = new ArrayList<>();
        j.read(from, (seq, payload) -> {
            byte[] b = new byte[payload.remaining()];
            payload.get(b);
            assertArrayEquals(of(seq, size(seq, max)), b, "record " + seq);
            seqs.add(seq);
            return true;
        });
        return seqs;
    }

    /** @return the sequences {@code [from, to)} */
    static List<Long> range(long from, long to) {
        List<Long> r = new ArrayList<>();
        for (long s = from; s < to; s++) {
            r.add(s);
        }
        return r;
    }
}
