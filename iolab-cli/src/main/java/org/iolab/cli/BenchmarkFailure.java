package org.iolab.cli;

/** A benchmark failed (a checksum mismatch, an I/O error in a pass, a crashed fork): exit code 1. */
final class BenchmarkFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, naming the method and its parameters */
    BenchmarkFailure(String message) {
        super(message);
    }
}
