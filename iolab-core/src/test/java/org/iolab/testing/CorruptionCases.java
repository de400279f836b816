package org.iolab.testing;

import static java.util.concurrent.TimeUnit.SECONDS;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * What the generated corruption cases of the journal and the store share: seeds (printed as 16 hex digits, given
 * back through a system property), a time limit for every check, a temporary folder per case, and the raw file
 * edits that damage one.
 */
public final class CorruptionCases {
    /** Seconds a check may take before it counts as a hang. */
    public static final long TIMEOUT_SECONDS = 10;
    private static final ExecutorService CHECKS = Executors.newCachedThreadPool(
            r -> Thread.ofPlatform().daemon().name("corruption-check").unstarted(r));

    private CorruptionCases() {
    }

    /**
     * @param property the system property that repeats a whole run
     * @return its seed when set, else a new one
     */
    public static long runSeed(String property) {
        String given = System.getProperty(property);
        return given != null && !given.isBlank() ? parseSeed(property, given) : new SplittableRandom().nextLong();
    }

    /**
     * @param property the property's name, for the message
     * @param value 16 hex digits, {@code 0x} optional
     * @return the seed
     */
    public static long parseSeed(String property, String value) {
        String digits = value.strip();
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            digits = digits.substring(2);
        }
        try {
            return Long.parseUnsignedLong(digits, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + property + "=" + value + " is not a seed: give the 16 hex digits"
                    + " printed in a try's name", e);
        }
    }

    /** @return the seed as printed in a try's name */
    public static String hex(long seed) {
        return String.format("%016x", seed);
    }

    /** @return the {@code n}-th seed derived from a run seed (SplitMix64's finalizer) */
    public static long mix(long n) {
        long z = n * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** @return a value in {@code [lo, hi)} drawn from {@code raw}, or -1 when the range is empty */
    public static long pick(int raw, long lo, long hi) {
        return hi <= lo ? -1 : lo + Math.floorMod((long) raw, hi - lo);
    }

    /**
     * Runs {@code task} on another thread and waits at most {@link #TIMEOUT_SECONDS}.
     *
     * @param what the check, for the failure message
     * @param task the check
     * @return what it returned
     * @throws AssertionError when it hangs, throws, or fails an assertion
     */
    public static <T> T within(String what, Callable<T> task) {
        Future<T> f = CHECKS.submit(task);
        try {
            return f.get(TIMEOUT_SECONDS, SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError(what + ": did not finish in " + TIMEOUT_SECONDS + " s (a hang)", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AssertionError a) {
                throw a;
            }
            throw new AssertionError(what + ": threw " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(what + ": interrupted", e);
        }
    }

    /**
     * Runs {@code body} in a new temporary folder and deletes the folder afterwards.
     *
     * @param prefix the folder name's prefix
     * @param body the case
     */
    public static void inTempDir(String prefix, Consumer<Path> body) {
        Path tmp;
        try {
            tmp = Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a temporary folder for a corruption case", e);
        }
        Throwable failure = null;
        try {
            body.accept(tmp);
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            try {
                deleteTree(tmp);
            } catch (RuntimeException e) {
                if (failure == null) {
                    throw e;
                }
                failure.addSuppressed(e);
            }
        }
    }

    /** One generated case: its description (after the seed in the test's name) and what it does. */
    public record Case(String description, Consumer<Path> body) {
    }

    /**
     * The dynamic tests of one property: {@code tries} cases, each named by its seed and description and run in a
     * temporary folder of its own; with {@code seedProperty} set, only the case of that seed.
     *
     * @param property the property's name, for failure messages and the seeds
     * @param tries how many cases
     * @param seedProperty the system property that reruns one case
     * @param runSeed this run's seed
     * @param tmpPrefix the temporary folders' name prefix
     * @param make the case of a seed
     * @return the tests
     */
    public static Stream<DynamicTest> tries(String property, int tries, String seedProperty, long runSeed,
            String tmpPrefix, LongFunction<Case> make) {
        String only = System.getProperty(seedProperty);
        LongStream seeds = only != null && !only.isBlank() ? LongStream.of(parseSeed(seedProperty, only))
                : new SplittableRandom(runSeed ^ mix(property.hashCode())).longs(tries);
        return seeds.mapToObj(seed -> {
            Case c = make.apply(seed);
            return DynamicTest.dynamicTest("seed " + hex(seed) + ": " + c.description(), () -> {
                try {
                    inTempDir(tmpPrefix, c.body());
                } catch (Throwable t) {
                    throw new AssertionError(property + ", seed " + hex(seed) + " (rerun alone with -D" + seedProperty
                            + "=" + hex(seed) + "): " + t, t);
                }
            });
        });
    }

    /** @return the file's length */
    public static long fileSize(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the whole file */
    public static byte[] readBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return {@code n} bytes at {@code at} (zeros past the end) */
    public static byte[] readRange(Path file, long at, int n) {
        byte[] b = new byte[n];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.read(ByteBuffer.wrap(b), at);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b;
    }

    /** Writes {@code bytes} at {@code at}. */
    public static void write(Path file, long at, byte[] bytes) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b, at + b.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code root} and everything under it; nothing when it does not exist. */
    public static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + root, e);
        }
    }
}
