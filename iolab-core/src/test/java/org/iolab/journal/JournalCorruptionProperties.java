package org.iolab.journal;

import static org.iolab.testing.CorruptionCases.fileSize;
import static org.iolab.testing.CorruptionCases.pick;
import static org.iolab.testing.CorruptionCases.readBytes;
import static org.iolab.testing.CorruptionCases.readRange;
import static org.iolab.testing.CorruptionCases.within;
import static org.iolab.testing.CorruptionCases.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.iolab.IolabException;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.testing.CorruptionCases;
import org.iolab.testing.Draws;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Property-based corruption tests: a generated journal (every backend and preallocation, 4-64 KiB segments,
 * 0-300 records of 0-2 KiB) gets one generated damage (flipped bits, a truncation, a zeroed 4 KiB page, a
 * garbage length, a changed header byte, a deleted middle segment, garbage appended to the last segment); then
 * open, read, verify and repair must recover exactly the valid prefix or throw {@link JournalCorruptedException}
 * naming the file and offset: never another exception, an {@link OutOfMemoryError} (surefire runs with
 * {@code -Xmx1g}), a hang (every check runs under a 10 s timeout) or a record that differs from what was
 * appended.
 *
 * <p>The expected outcome comes from a model of the documented on-disk format (see {@link Journal}): the
 * pristine segments are parsed frame by frame, the damaged files are compared with them byte by byte (a missing
 * byte counts as zero, bytes past the segment capacity do not count, a frame or header cut by the end of the
 * file is damaged), and the first damage that a reader can see decides: a changed header byte (0..35; bytes
 * 36..63 may or may not be checked, both are accepted), a changed byte inside a record's frame (padding is not
 * covered by the CRC), a non-zero length where a sealed segment's data ends, or a missing middle segment. Damage
 * in the last segment's records after its synced mark (header bytes 48..63: an offset and its CRC32C) is a torn
 * tail (cut, never reported as corruption); below the mark, or anywhere else, it is never skipped. A closed
 * journal's mark covers all its records; the built journals move it to a random record (or drop it), as a crash
 * after that record's sync leaves it, so both sides of it get damaged.
 *
 * <p>Each property is a {@link TestFactory} of one {@link DynamicTest} per try, whose name gives the try's seed
 * and the generated journal and damage. The cases come from a plain seeded {@link Gen} over
 * {@link SplittableRandom} rather than from jqwik, whose author asks AI agents not to use it (this project is
 * written by AI agents). Every run draws new seeds; to rerun one try alone, pass its seed:
 * {@code ./mvnw -B -ntp -pl iolab-core -am verify -Dtest='JournalCorruptionProperties#PROPERTY'
 * -Djournal.corruption.seed=SEED -Dsurefire.failIfNoSpecifiedTests=false -DskipITs} (each property then runs
 * only that try; {@code -Djournal.corruption.runSeed=SEED} instead repeats a whole run's tries).
 */
class JournalCorruptionProperties {
    private static final int HEADER = 64;
    /** Header bytes 0..35 are documented and checked; 36..63 are zero today and may become a marker. */
    private static final int CHECKED_HEADER = 36;
    private static final int FRAME_HEADER = 16;
    /** Where a sealed segment's header holds its seal marker: "SEALEDOK" xor the first sequence. */
    private static final int SEAL_OFFSET = 40;
    private static final long SEAL_MAGIC = 0x4B4F44454C414553L;
    /** Where a segment's header holds its synced mark: the offset, then CRC32C(offset, first sequence). */
    private static final int MARK_OFFSET = 48;
    /** The system property that reruns one try: its seed, as printed in the try's name (16 hex digits). */
    static final String SEED_PROPERTY = "journal.corruption.seed";
    /** The system property that repeats a whole run: the run seed every try's seed derives from. */
    static final String RUN_SEED_PROPERTY = "journal.corruption.runSeed";
    /** Where this run's try seeds come from (new each run unless {@link #RUN_SEED_PROPERTY} is set). */
    private static final long RUN_SEED = CorruptionCases.runSeed(RUN_SEED_PROPERTY);

    // ------------------------------------------------------------------------------------------ properties

    /**
     * Read-only open and writer open, each followed by reading everything: the valid prefix, exactly, or
     * {@link JournalCorruptedException} at the first damage (read-only first: it changes nothing).
     */
    @TestFactory
    Stream<DynamicTest> openAndReadReturnTheValidPrefixOrThrowTheTypedException() {
        return tries("openAndReadReturnTheValidPrefixOrThrowTheTypedException", 120, Scope.ANYWHERE,
                (tmp, spec, damage) -> {
                    Built b = Built.create(tmp.resolve("j"), spec);
                    Damaged d = b.damage(damage, Scope.ANYWHERE);
                    Outcome ro = within("read-only open + read of " + d, () -> readAll(b, true));
                    expectEither(d, x -> checkOpen(b, d, x, ro, true));
                    Outcome rw = within("open + read of " + d, () -> readAll(b, false));
                    expectEither(d, x -> checkOpen(b, d, x, rw, false));
                });
    }

    /**
     * {@code verify} never throws on damage; it reports unrecoverable damage exactly when a writer's open or
     * read would throw, naming the damaged file and offset.
     */
    @TestFactory
    Stream<DynamicTest> verifyReportsDamageAndNamesTheFile() {
        return tries("verifyReportsDamageAndNamesTheFile", 120, Scope.ANYWHERE, (tmp, spec, damage) -> {
            Built b = Built.create(tmp.resolve("j"), spec);
            Damaged d = b.damage(damage, Scope.ANYWHERE);
            VerifyReport report = within("verify of " + d, () -> Journal.verify(b.dir));
            expectEither(d, x -> checkVerify(d, x, report));
        });
    }

    /**
     * @return whether {@code segment} (damaged) still holds its first record whole: length, CRC32C and the sequence
     *     its name gives, at offset {@value #HEADER}
     */
    private static boolean firstRecordIntact(Path segment) {
        if (segment == null || !Files.exists(segment)) {
            return false;
        }
        byte[] bytes = readBytes(segment);
        if (bytes.length < HEADER + 16) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int length = b.getInt(HEADER);
        if (length < 16 || HEADER + (long) length > bytes.length) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, HEADER + 8, length - 8);
        return (int) crc.getValue() == b.getInt(HEADER + 4) && b.getLong(HEADER + 8) == Format.parseName(segment);
    }

    /**
     * {@code repair} cuts the journal at its first damage: afterwards it opens, reads an intact prefix (exactly
     * the records before the damage, or more when the damage is a header over an intact first record, which repair
     * writes again), verifies clean, and takes the next sequence.
     */
    @TestFactory
    Stream<DynamicTest> repairThenOpenReadsTheIntactPrefix() {
        return tries("repairThenOpenReadsTheIntactPrefix", 80, Scope.ANYWHERE, (tmp, spec, damage) -> {
            Built b = Built.create(tmp.resolve("j"), spec);
            Damaged d = b.damage(damage, Scope.ANYWHERE);
            // a last segment left with no header and no data reads as a creation a crash interrupted, which the open
            // deletes (none of its records was durable, as far as any format can tell): its sequences come back
            Path lastFile = b.segments.getLast().file();
            boolean uncreated = within("verify before repair of " + d, () -> Journal.verify(b.dir)).problems().stream()
                    .anyMatch(p -> p.file().equals(lastFile) && p.offset() == 0 && p.recoverable());
            // so do the records of a last segment whose synced mark the damage changed: they read as a torn tail
            int lastIndex = b.segments.size() - 1;
            boolean markLost = d.changed[lastIndex].nextSetBit(Format.MARK_OFFSET) >= 0
                    && d.changed[lastIndex].nextSetBit(Format.MARK_OFFSET) < Format.MARK_OFFSET + Format.MARK_SIZE;
            VerifyReport before = within("repair of " + d, () -> Journal.repair(b.dir));
            VerifyReport after = within("verify after repair of " + d, () -> Journal.verify(b.dir));
            assertTrue(after.ok(), d + ": verify after repair still finds " + after.problems() + " (repair found "
                    + before.problems() + ")");
            long from;
            try (Journal j = Journal.open(b.dir, b.options)) {
                from = j.firstSequence();
            }
            if (from > 0) {
                // the first segment's header over no intact record went aside: the journal starts at the next one,
                // whose records are all there (unless the same damage reached them too)
                assertTrue(d.expectations().stream().anyMatch(x -> x.header && x.kept == 0
                        && !firstRecordIntact(x.file)), d + ": the journal starts at " + from + " after repair");
                Outcome rest = within("read after repair of " + d, () -> readFrom(b, from));
                for (int i = 0; i < rest.records.size(); i++) {
                    assertEquals(from + i, rest.records.get(i).sequence(), d + ": sequence");
                    assertArrayEquals(b.spec.payload((int) (from + i)), rest.records.get(i).payload(), d + ": payload");
                }
                assertTrue(rest.error == null, d + ": after repair " + rest.error);
                return;
            }
            Outcome rw = within("open + read after repair of " + d, () -> readAll(b, false));
            assertIntactRecords(b, d, rw);
            if (rw.error != null) {
                throw new AssertionError(d + ": open + read after repair threw " + rw.error, rw.error);
            }
            int prefix = 0;
            while (prefix < rw.records.size() && rw.records.get(prefix).sequence() == prefix) {
                prefix++;
            }
            int run = prefix;
            // a damaged header over an intact first record is written again: the records after it stay (all of
            // them, unless the same damage reached a later record too)
            // junk after a segment's last record loses no record: the prefix goes on past it (to later damage)
            expectEither(d, x -> run == x.kept || x.header && firstRecordIntact(x.file)
                    && run > x.kept && run <= b.records() || afterTheData(b, x) && run >= x.kept ? null
                    : "repair kept the first " + run + " records, the first damage is at record " + x.kept
                            + " (" + x + ")");
            // the later segments stay across the gap a cut leaves: every record of a segment the damage did not
            // touch is still there (a writable open checks only the last segment, so they may have been acknowledged)
            java.util.Set<Long> read = new java.util.HashSet<>();
            rw.records.forEach(r -> read.add(r.sequence()));
            for (int i = 0; i < b.segments.size(); i++) {
                if (i != d.deleted && d.changed[i].isEmpty() && d.sizes[i] == b.segments.get(i).content().length) {
                    for (Frame f : b.segments.get(i).frames()) {
                        assertTrue(read.contains(f.sequence()), d + ": repair lost record " + f.sequence() + " of "
                                + b.segments.get(i).file().getFileName() + ", which the damage did not touch");
                    }
                }
            }
            VerifyReport cut = within("verify after repair of " + d, () -> Journal.verify(b.dir));
            long next = within("nextSequence after repair of " + d, () -> {
                try (Journal j = Journal.openReadOnly(b.dir, b.options)) {
                    return j.nextSequence();
                }
            });
            // the next append never takes the sequence of a record a sync covered, not even after a cut of the last
            // segment (it may have been acknowledged, and read); those of a torn tail, past the synced mark, it may
            assertTrue(next >= b.syncedEnd() || uncreated || markLost, d + ": after repair the next append takes sequence " + next + ", which"
                    + " a synced record the damage cut had (" + b.syncedEnd() + " were synced)");
            assertEquals(next - rw.records.size(), cut.cut(), d + ": sequences verify counts as cut");
            appendAndReopen(b, d, rw.records, next);
        });
    }

    /**
     * Damage confined to the tail of the last segment (from the last record on) is a torn tail: open recovers
     * without an exception and returns exactly the records before the damaged one; the journal then appends,
     * reopens and verifies without a single problem.
     */
    @TestFactory
    Stream<DynamicTest> damageInTheLastRecordIsATornTailThatOpenCuts() {
        return tries("damageInTheLastRecordIsATornTailThatOpenCuts", 80, Scope.TAIL, (tmp, spec, damage) -> {
            Built b = Built.create(tmp.resolve("j"), spec, true);
            Damaged d = b.damage(damage, Scope.TAIL);
            for (Expect x : d.expectations()) {
                assertTrue(x.kind == Kind.NONE || x.kind == Kind.LAST_TAIL, d + ": not a tail damage: " + x);
                assertTrue(x.kept >= b.records() - 1, d + ": the tail damage reached before the last record: " + x);
            }
            long kept = d.expectations().getFirst().kept;
            Outcome ro = within("read-only open + read of " + d, () -> readAll(b, true));
            assertExactly(b, d, ro, kept, "read-only open + read");
            Outcome rw = within("open + read of " + d, () -> readAll(b, false));
            assertExactly(b, d, rw, kept, "open + read");
            appendAndReopen(b, d, kept);
        });
    }

    /**
     * The minimal case of a bug that {@link #openAndReadReturnTheValidPrefixOrThrowTheTypedException} found (fixed
     * in {@code Journal.attach()}): the only segment of a journal holds a record but its header is damaged. Both
     * {@code Journal.open} and {@code Journal.openReadOnly} must throw {@link JournalCorruptedException} naming the
     * file and offset 0 (the read-only open used to throw the plain {@link IolabException} "no journal segments in
     * DIR (no valid *.seg file): open it for writing first", taking the segment for one being created).
     */
    @Test
    void aDamagedOnlySegmentWithRecordsIsCorruptionForAReadOnlyOpenToo() {
        CorruptionCases.inTempDir("iolab-corruption-", tmp -> {
            Built b = Built.create(tmp.resolve("j"), new JournalSpec(Backend.RANDOM_ACCESS_FILE, Preallocation.NONE,
                    4, 1, 0, 0));
            Damaged d = b.damage(new HeaderByte(0, 0, 1), Scope.ANYWHERE);
            Path segment = b.segments.getFirst().file;
            for (boolean readOnly : new boolean[] {true, false}) {
                Outcome o = within((readOnly ? "read-only open of " : "open of ") + d, () -> readAll(b, readOnly));
                assertTrue(o.error instanceof JournalCorruptedException e && e.file().equals(segment)
                        && e.offset() == 0, d + (readOnly ? ": read-only" : ": writer") + " open threw " + o.error);
            }
        });
    }

    // ------------------------------------------------------------------------------------------ tries

    /** One try of a property: builds, damages and checks a journal in {@code tmp}, a fresh empty folder. */
    @FunctionalInterface
    interface Body {
        /**
         * @param tmp a folder of this try's own, deleted afterwards
         * @param spec the journal to build
         * @param damage the damage to do to it
         */
        void run(Path tmp, JournalSpec spec, Damage damage);
    }

    /**
     * {@code tries} dynamic tests of {@code property} (see {@link CorruptionCases#tries}); with
     * {@link #SEED_PROPERTY} set, the one try of that seed.
     */
    private static Stream<DynamicTest> tries(String property, int tries, Scope scope, Body body) {
        return CorruptionCases.tries(property, tries, SEED_PROPERTY, RUN_SEED, "iolab-corruption-", seed -> {
            Gen g = new Gen(seed);
            JournalSpec spec = g.journal();
            Damage damage = scope == Scope.TAIL ? g.tailDamage() : g.anyDamage();
            return new CorruptionCases.Case(spec + "; " + damage, tmp -> body.run(tmp, spec, damage));
        });
    }

    // ------------------------------------------------------------------------------------------ generators

    /**
     * The generator of one try: every value comes from one {@link SplittableRandom} seeded by the try's seed, so
     * the seed alone reproduces the journal and the damage.
     *
     * <p>Distributions: choices among enum constants, booleans and damage kinds are uniform; the record count,
     * the largest payload and the raw numbers that pick segments and offsets are uniform over their whole range
     * (biased to small values they would all land in the header); the other ranges lean to their low end (an
     * order of magnitude is picked uniformly, then a value in it), so that 1-byte garbage, xor 1, header byte 0
     * and small lengths come up often. Every bounded draw returns one of its two bounds once in
     * {@value Draws#EDGE_ONE_IN} draws, so that edge cases (an empty journal, empty payloads, offset 0, the largest
     * values) turn up in every run.
     */
    static final class Gen {
        private final SplittableRandom random;
        private final Draws draws;

        Gen(long seed) {
            this.random = new SplittableRandom(seed);
            this.draws = new Draws(random);
        }

        JournalSpec journal() {
            Backend backend = draws.of(Backend.values());
            Preallocation preallocation = draws.of(Preallocation.values());
            // mostly small segments, so that most journals have several (and sealed ones to damage)
            int segmentKiB = random.nextInt(4) < 3 ? draws.small(4, 16) : draws.small(17, 64);
            return new JournalSpec(backend, preallocation, segmentKiB, draws.uniform(0, 300), draws.uniform(0, 2048),
                    random.nextLong());
        }

        /** Any kind of damage, each kind as likely. */
        Damage anyDamage() {
            return switch (random.nextInt(7)) {
                case 0 -> flip();
                case 1 -> truncate();
                case 2 -> zeroPage();
                case 3 -> garbageLength();
                case 4 -> headerByte();
                case 5 -> new DeleteMiddle(draws.raw());
                default -> appendGarbage();
            };
        }

        /** The kinds of damage that can be confined to the last segment's tail, each as likely. */
        Damage tailDamage() {
            return switch (random.nextInt(5)) {
                case 0 -> flip();
                case 1 -> truncate();
                case 2 -> zeroPage();
                case 3 -> garbageLength();
                default -> appendGarbage();
            };
        }

        private Flip flip() {
            int segment = draws.raw();
            boolean focus = random.nextBoolean();
            List<Integer> bits = new ArrayList<>();
            for (int n = draws.small(1, 8); n > 0; n--) {
                bits.add(draws.raw());
            }
            return new Flip(segment, focus, List.copyOf(bits));
        }

        private Truncate truncate() {
            return new Truncate(draws.raw(), random.nextBoolean(), draws.raw());
        }

        private ZeroPage zeroPage() {
            return new ZeroPage(draws.raw(), random.nextBoolean(), draws.raw());
        }

        private GarbageLength garbageLength() {
            return new GarbageLength(draws.raw(), random.nextBoolean(), random.nextBoolean(), draws.raw(),
                    draws.of(LengthKind.values()), draws.anyInt());
        }

        private HeaderByte headerByte() {
            return new HeaderByte(draws.raw(), draws.small(0, HEADER - 1), draws.small(1, 255));
        }

        private AppendGarbage appendGarbage() {
            return new AppendGarbage(random.nextBoolean(), draws.small(1, 4096), random.nextLong());
        }
    }

    /**
     * A journal to build.
     *
     * @param backend the storage backend for writing and reading
     * @param preallocation how segments are preallocated
     * @param segmentKiB the segment size in KiB
     * @param records how many records
     * @param maxPayload the largest payload
     * @param seed seeds the payload sizes and bytes
     */
    record JournalSpec(Backend backend, Preallocation preallocation, int segmentKiB, int records, int maxPayload,
            long seed) {
        JournalOptions options() {
            return JournalOptions.defaults().withBackend(backend).withPreallocation(preallocation)
                    .withSegmentSize(segmentKiB * 1024L).withDurability(Durability.NONE);
        }

        @Override
        public String toString() {
            return backend + "/" + preallocation + ", " + segmentKiB + " KiB segments, " + records + " records of 0-"
                    + maxPayload + " B";
        }

        byte[] payload(long seq) {
            SplittableRandom rnd = new SplittableRandom(seed ^ (seq * 0x9E3779B97F4A7C15L));
            byte[] b = new byte[rnd.nextInt(maxPayload + 1)];
            rnd.nextBytes(b);
            return b;
        }
    }

    /** One damage; raw numbers are resolved against the built journal (uniform, they reach any of its offsets). */
    sealed interface Damage {
    }

    /**
     * Flips 1..8 bits of one segment.
     *
     * @param segment picks the segment
     * @param focus true: only the data (header, records and 64 bytes after them); false: the whole file
     * @param bits each picks an offset ({@code bit >>> 3}) and a bit ({@code bit & 7})
     */
    record Flip(int segment, boolean focus, List<Integer> bits) implements Damage {
    }

    /**
     * Truncates a segment file.
     *
     * @param segment picks the segment
     * @param focus true: within the data; false: anywhere in the file
     * @param at picks the new size
     */
    record Truncate(int segment, boolean focus, int at) implements Damage {
    }

    /**
     * Zeroes 4 KiB (a page-aligned page, or from any offset of the tail).
     *
     * @param segment picks the segment
     * @param focus true: within the data; false: anywhere in the file
     * @param page picks the page
     */
    record ZeroPage(int segment, boolean focus, int page) implements Damage {
    }

    /** What a garbage length is. */
    enum LengthKind {
        /** Any int. */
        RANDOM,
        /** 0, the end-of-data marker. */
        ZERO,
        /** Negative (huge as an unsigned int). */
        NEGATIVE,
        /** Near {@link Integer#MAX_VALUE}. */
        HUGE,
        /** A few bytes more than are left in the segment. */
        PAST_END
    }

    /**
     * Writes a garbage 4-byte length.
     *
     * @param segment picks the segment
     * @param focus true: within the data; false: anywhere in the file
     * @param atBoundary true: at a record boundary (a frame start or the end of the data)
     * @param where picks the boundary or offset
     * @param kind the kind of value
     * @param random the random part of the value
     */
    record GarbageLength(int segment, boolean focus, boolean atBoundary, int where, LengthKind kind, int random)
            implements Damage {
    }

    /**
     * Changes one byte of a segment header.
     *
     * @param segment picks the segment
     * @param offset the header byte (0..63)
     * @param xor what it is xor-ed with (1..255)
     */
    record HeaderByte(int segment, int offset, int xor) implements Damage {
    }

    /**
     * Deletes a segment that is neither the first nor the last (nothing when there are fewer than three).
     *
     * @param which picks the segment
     */
    record DeleteMiddle(int which) implements Damage {
    }

    /**
     * Writes random bytes into the last segment.
     *
     * @param atFileEnd true: after the end of the file; false: right after the last record
     * @param length how many bytes
     * @param seed seeds them
     */
    record AppendGarbage(boolean atFileEnd, int length, long seed) implements Damage {
    }

    /** Where a damage may go. */
    enum Scope {
        /** Any segment, any offset. */
        ANYWHERE,
        /** The last segment, from its last record (or the end of its header) on. */
        TAIL
    }

    // ------------------------------------------------------------------------------------------ the model

    /**
     * One record frame in a pristine segment.
     *
     * @param start its offset
     * @param length 16 + the payload length (padding excluded)
     * @param sequence its sequence
     */
    record Frame(long start, int length, long sequence) {
    }

    /**
     * A pristine segment, parsed from its file by the documented format.
     *
     * @param file the segment file
     * @param firstSeq the first sequence (from the header)
     * @param capacity the capacity (from the header)
     * @param content bytes {@code [0, capacity)} (a missing byte is zero)
     * @param frames its records
     * @param sealed its header carries the seal marker (every segment but the last of a closed journal)
     * @param mark its valid synced mark, or {@value #HEADER} when it has none: its records below were synced
     */
    record Segment(Path file, long firstSeq, long capacity, byte[] content, List<Frame> frames, boolean sealed,
            long mark) {
        long dataEnd() {
            return frames.isEmpty() ? HEADER : frames.getLast().start + align(frames.getLast().length);
        }
    }

    /** A built journal and its pristine segments. */
    static final class Built {
        final Path dir;
        final JournalSpec spec;
        final JournalOptions options;
        final List<Segment> segments;

        private Built(Path dir, JournalSpec spec, List<Segment> segments) {
            this.dir = dir;
            this.spec = spec;
            this.options = spec.options();
            this.segments = segments;
        }

        /**
         * @return a journal of {@code spec}, closed; the last segment's synced mark is then left where the close put
         *     it (after its last record), or moved to one of its records, or dropped, as {@code spec}'s seed picks
         */
        static Built create(Path dir, JournalSpec spec) {
            return create(dir, spec, false);
        }

        /**
         * @param crashed the last segment's synced mark is moved to its last record or before (or dropped), as a
         *     crash after an earlier sync leaves it: its last record is then a tail a crash may tear
         */
        static Built create(Path dir, JournalSpec spec, boolean crashed) {
            try (Journal j = Journal.open(dir, spec.options())) {
                for (long seq = 0; seq < spec.records; seq++) {
                    assertEquals(seq, j.append(spec.payload(seq)));
                }
            }
            List<Path> files = segmentFiles(dir);
            Path lastFile = files.getLast();
            long[] starts = frameStarts(readBytes(lastFile));
            SplittableRandom rnd = new SplittableRandom(spec.seed ^ 0x6D61726BL);
            if (crashed) {
                // the start of one of its records (so that the last record is after the mark), or no mark
                int pick = rnd.nextInt(starts.length);
                writeMark(lastFile, pick < starts.length - 1 ? starts[pick] : 0);
            } else if (rnd.nextInt(3) > 0) {
                // the start of one of its records, where its data ends (as the close left it), or no mark
                int pick = rnd.nextInt(starts.length + 1);
                writeMark(lastFile, pick < starts.length ? starts[pick] : 0);
            }
            List<Segment> segments = new ArrayList<>();
            long next = 0;
            for (Path file : segmentFiles(dir)) {
                byte[] bytes = readBytes(file);
                ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
                long capacity = b.getLong(24);
                assertEquals(spec.segmentKiB * 1024L, capacity, file + ": capacity in the header");
                long limit = Math.min(bytes.length, capacity);
                List<Frame> frames = new ArrayList<>();
                for (long pos = HEADER; pos + FRAME_HEADER <= limit && b.getInt((int) pos) != 0; ) {
                    int length = b.getInt((int) pos);
                    long seq = b.getLong((int) pos + 8);
                    assertEquals(next, seq, file + " @ " + pos + ": sequence of a pristine record");
                    assertArrayEquals(spec.payload(seq), Arrays.copyOfRange(bytes, (int) pos + FRAME_HEADER,
                            (int) pos + length), file + " @ " + pos + ": payload of pristine record " + seq);
                    frames.add(new Frame(pos, length, seq));
                    next++;
                    pos += align(length);
                }
                long firstSeq = b.getLong(16);
                boolean sealed = b.getLong(SEAL_OFFSET) == (SEAL_MAGIC ^ firstSeq);
                segments.add(new Segment(file, firstSeq, capacity, logical(bytes, capacity), frames, sealed,
                        mark(b, firstSeq, capacity)));
            }
            assertEquals(spec.records, next, "records in the pristine journal");
            return new Built(dir, spec, segments);
        }

        long records() {
            return spec.records;
        }

        /**
         * @return the sequence after the last record a sync covered: every record of the segments before the last,
         *     and the last segment's records below its synced mark (the writer may have acknowledged them)
         */
        long syncedEnd() {
            Segment last = segments.getLast();
            for (Frame f : last.frames()) {
                if (f.start() >= last.mark()) {
                    return f.sequence();
                }
            }
            return records();
        }

        /** @return the start of each record of a segment's bytes, then where its data ends */
        private static long[] frameStarts(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            long limit = Math.min(bytes.length, b.getLong(24));
            List<Long> starts = new ArrayList<>();
            long pos = HEADER;
            for (; pos + FRAME_HEADER <= limit && b.getInt((int) pos) != 0; pos += align(b.getInt((int) pos))) {
                starts.add(pos);
            }
            starts.add(pos);
            return starts.stream().mapToLong(Long::longValue).toArray();
        }

        /** Writes the synced mark {@code offset} into a segment's header (none for 64 or less), as documented. */
        private static void writeMark(Path segment, long offset) {
            ByteBuffer mark = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            if (offset > HEADER) {
                ByteBuffer header = ByteBuffer.wrap(readBytes(segment), 0, HEADER).order(ByteOrder.LITTLE_ENDIAN);
                mark.putLong(0, offset).putInt(8, markCrc(offset, header.getLong(16)));
            }
            try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
                ch.write(mark, MARK_OFFSET);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static int markCrc(long offset, long firstSeq) {
            CRC32C crc = new CRC32C();
            crc.update(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(offset).putLong(firstSeq)
                    .flip());
            return (int) crc.getValue();
        }

        /** @return the valid synced mark in header {@code b}, or {@value #HEADER} */
        private static long mark(ByteBuffer b, long firstSeq, long capacity) {
            long offset = b.getLong(MARK_OFFSET);
            boolean valid = offset > HEADER && offset <= capacity && offset % 8 == 0
                    && b.getInt(MARK_OFFSET + 8) == markCrc(offset, firstSeq);
            return valid ? offset : HEADER;
        }

        Segment last() {
            return segments.getLast();
        }

        /** Applies {@code damage} to the files and compares them with the pristine segments. */
        Damaged damage(Damage damage, Scope scope) {
            String done = apply(damage, scope);
            int n = segments.size();
            int deleted = -1;
            BitSet[] changed = new BitSet[n];
            long[] sizes = new long[n];
            boolean lastHasData = false;
            for (int i = 0; i < n; i++) {
                Segment s = segments.get(i);
                changed[i] = new BitSet();
                if (!Files.exists(s.file)) {
                    deleted = i;
                    continue;
                }
                byte[] now = readBytes(s.file);
                sizes[i] = now.length;
                byte[] logical = logical(now, s.capacity);
                for (int k = 0; k < logical.length; k++) {
                    if (logical[k] != s.content[k]) {
                        changed[i].set(k);
                    }
                }
                if (i == n - 1) {
                    for (int k = HEADER; k < now.length && !lastHasData; k++) {
                        lastHasData = now[k] != 0;
                    }
                }
            }
            return new Damaged(this, damage + ": " + done, deleted, changed, sizes, lastHasData);
        }

        private String apply(Damage damage, Scope scope) {
            int index = switch (damage) {
                case Flip f -> pickSegment(f.segment, scope);
                case Truncate t -> pickSegment(t.segment, scope);
                case ZeroPage z -> pickSegment(z.segment, scope);
                case GarbageLength g -> pickSegment(g.segment, scope);
                case HeaderByte h -> pickSegment(h.segment, scope);
                case DeleteMiddle unused -> -1;
                case AppendGarbage a -> segments.size() - 1;
            };
            Segment s = index < 0 ? null : segments.get(index);
            long size = s == null ? 0 : fileSize(s.file);
            long lo = scope == Scope.TAIL ? (s.frames.isEmpty() ? HEADER : s.frames.getLast().start) : 0;
            long end = s == null ? 0 : Math.min(size, s.dataEnd() + 64);
            switch (damage) {
                case Flip f -> {
                    long hi = f.focus ? end : size;
                    StringBuilder out = new StringBuilder(s.file.getFileName() + ": flipped");
                    for (int bit : f.bits) {
                        long at = pick(bit >>> 3, lo, hi);
                        if (at >= 0) {
                            byte[] one = readRange(s.file, at, 1);
                            write(s.file, at, new byte[] {(byte) (one[0] ^ (1 << (bit & 7)))});
                            out.append(" bit ").append(bit & 7).append(" @ ").append(at);
                        }
                    }
                    return out.toString();
                }
                case Truncate t -> {
                    long at = pick(t.at, lo, t.focus ? end : size);
                    if (at < 0) {
                        return "nothing to truncate";
                    }
                    try (FileChannel ch = FileChannel.open(s.file, StandardOpenOption.WRITE)) {
                        ch.truncate(at);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return s.file.getFileName() + ": truncated to " + at + " bytes (of " + size + ")";
                }
                case ZeroPage z -> {
                    long hi = z.focus ? end : size;
                    long at = scope == Scope.TAIL ? pick(z.page, lo, hi)
                            : 4096 * pick(z.page, 0, (hi + 4095) / 4096);
                    if (at < 0) {
                        return "no page to zero";
                    }
                    int n = (int) Math.max(0, Math.min(4096, size - at));
                    write(s.file, at, new byte[n]);
                    return s.file.getFileName() + ": zeroed " + n + " bytes @ " + at;
                }
                case GarbageLength g -> {
                    long hi = g.focus ? end : size;
                    List<Long> boundaries = new ArrayList<>();
                    for (Frame fr : s.frames) {
                        if (fr.start >= lo) {
                            boundaries.add(fr.start);
                        }
                    }
                    if (s.dataEnd() + 4 <= s.capacity && s.dataEnd() >= lo) {
                        boundaries.add(s.dataEnd());
                    }
                    long at = g.atBoundary && !boundaries.isEmpty()
                            ? boundaries.get(Math.floorMod(g.where, boundaries.size())) : pick(g.where, lo, hi);
                    if (at < 0) {
                        return "no place for a length";
                    }
                    int value = switch (g.kind) {
                        case RANDOM -> g.random;
                        case ZERO -> 0;
                        case NEGATIVE -> g.random | Integer.MIN_VALUE;
                        case HUGE -> Integer.MAX_VALUE - (g.random & 0xFFFF);
                        case PAST_END -> (int) (s.capacity - at + 1 + Math.floorMod(g.random, 16));
                    };
                    write(s.file, at, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value).array());
                    return s.file.getFileName() + ": length " + value + " written @ " + at;
                }
                case HeaderByte h -> {
                    byte[] one = readRange(s.file, h.offset, 1);
                    write(s.file, h.offset, new byte[] {(byte) (one[0] ^ h.xor)});
                    return s.file.getFileName() + ": header byte " + h.offset + " xor " + h.xor;
                }
                case DeleteMiddle m -> {
                    if (segments.size() < 3) {
                        return "no middle segment to delete";
                    }
                    Path victim = segments.get(1 + Math.floorMod(m.which, segments.size() - 2)).file;
                    try {
                        Files.delete(victim);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return "deleted " + victim.getFileName();
                }
                case AppendGarbage a -> {
                    byte[] garbage = new byte[a.length];
                    new SplittableRandom(a.seed).nextBytes(garbage);
                    long at = a.atFileEnd ? size : s.dataEnd();
                    write(s.file, at, garbage);
                    return s.file.getFileName() + ": " + a.length + " garbage bytes written @ " + at + " (file size "
                            + size + ")";
                }
            }
        }

        private int pickSegment(int raw, Scope scope) {
            return scope == Scope.TAIL ? segments.size() - 1 : Math.floorMod(raw, segments.size());
        }
    }

    /** What a reader can see of the damage. */
    enum Kind {
        /** Nothing a reader checks changed. */
        NONE,
        /** Inside or after the records of the last segment after its synced mark: a torn tail, cut by open. */
        LAST_TAIL,
        /**
         * Inside the records of the last segment below its synced mark: records that were synced, so both opens
         * refuse the journal before returning any record, and verify and repair see damage.
         */
        LAST_MARKED,
        /** The header of the last segment. */
        LAST_HEADER,
        /** A sealed segment's header, records or end, or a missing segment: corruption. */
        SEALED
    }

    /**
     * The expected result of the first damage a reader sees.
     *
     * @param kind where it is
     * @param kept how many records come before it (those survive recovery and repair)
     * @param file the file a {@link JournalCorruptedException} or a verify problem names
     * @param offset the offset it names
     * @param header true when it is a segment header (open throws before any record is read)
     */
    record Expect(Kind kind, long kept, Path file, long offset, boolean header) {
    }

    /** A damaged journal and the model's view of it. */
    static final class Damaged {
        final Built built;
        final String description;
        final int deleted;
        final BitSet[] changed;
        final long[] sizes;
        final boolean lastHasData;

        Damaged(Built built, String description, int deleted, BitSet[] changed, long[] sizes, boolean lastHasData) {
            this.built = built;
            this.description = description;
            this.deleted = deleted;
            this.changed = changed;
            this.sizes = sizes;
            this.lastHasData = lastHasData;
        }

        /**
         * @return the expectation with header bytes 36..63 unchecked, then (when it differs) with them checked
         */
        List<Expect> expectations() {
            Expect lenient = expect(CHECKED_HEADER);
            Expect strict = expect(HEADER);
            return lenient.equals(strict) ? List.of(lenient) : List.of(lenient, strict);
        }

        private Expect expect(int headerEnd) {
            List<Segment> segs = built.segments;
            for (int i = 0; i < segs.size(); i++) {
                Segment s = segs.get(i);
                boolean last = i == segs.size() - 1;
                if (i == deleted) {
                    Segment before = segs.get(i - 1);
                    return new Expect(Kind.SEALED, s.firstSeq, before.file, before.dataEnd(), false);
                }
                BitSet c = changed[i];
                // a file cut inside its header has no header, even where the bytes cut were zeros
                int first = sizes[i] < HEADER ? 0 : c.nextSetBit(0);
                if (first >= 0 && first < headerEnd) {
                    return new Expect(last ? Kind.LAST_HEADER : Kind.SEALED, s.firstSeq, s.file, 0, true);
                }
                // a changed mark fails its CRC: then the segment has none
                int markChanged = c.nextSetBit(MARK_OFFSET);
                long mark = markChanged >= 0 && markChanged < MARK_OFFSET + 12 ? HEADER : s.mark;
                for (Frame f : s.frames) {
                    int at = c.nextSetBit((int) f.start);
                    // a frame cut by the end of the file is damaged, even where the bytes cut were zeros
                    if (at >= 0 && at < f.start + f.length || f.start + f.length > sizes[i]) {
                        Kind kind = !last ? Kind.SEALED : f.start < mark ? Kind.LAST_MARKED : Kind.LAST_TAIL;
                        return new Expect(kind, f.sequence, s.file, f.start, false);
                    }
                }
                long end = s.dataEnd();
                if (last) {
                    if (c.nextSetBit(HEADER) >= 0) {
                        return new Expect(Kind.LAST_TAIL, built.records(), s.file, end, false);
                    }
                } else {
                    int at = c.nextSetBit((int) end);
                    if (at >= 0 && at < end + 4 && end + FRAME_HEADER <= Math.min(s.capacity, sizes[i])) {
                        return new Expect(Kind.SEALED, s.firstSeq + s.frames.size(), s.file, end, false);
                    }
                }
            }
            return new Expect(Kind.NONE, built.records(), null, -1, false);
        }

        /**
         * @return true when the last segment is the only one or the one before it is sealed: then it is not one
         *     being created, and records under a bad header in it are corruption for a read-only open too
         */
        boolean lastFollowsASeal() {
            List<Segment> segs = built.segments;
            return segs.size() == 1 || segs.get(segs.size() - 2).sealed;
        }

        @Override
        public String toString() {
            return description + " [" + built.spec + ", " + built.segments.size() + " segments, the last one's synced"
                    + " mark @ " + built.last().mark() + "]";
        }
    }

    /**
     * What reading returned.
     *
     * @param records the records returned before the end or the error
     * @param error what was thrown, or null
     */
    record Outcome(List<Record> records, Throwable error) {
    }

    // ------------------------------------------------------------------------------------------ checks

    /** Fails unless the outcome matches one of the expectations (header bytes 36..63 checked or not). */
    private static void expectEither(Damaged d, Function<Expect, String> check) {
        List<String> misses = new ArrayList<>();
        for (Expect x : d.expectations()) {
            String miss = check.apply(x);
            if (miss == null) {
                return;
            }
            misses.add(miss);
        }
        fail(d + ": " + String.join(" / or: ", misses));
    }

    /** The records of a writer's open from {@code from} on. */
    private static Outcome readFrom(Built b, long from) {
        List<Record> got = new ArrayList<>();
        try (Journal j = Journal.open(b.dir, b.options)) {
            j.read(from, (seq, payload) -> {
                byte[] copy = new byte[payload.remaining()];
                payload.get(copy);
                got.add(new Record(seq, copy));
                return got.size() <= b.records() + 1;
            });
            return new Outcome(got, null);
        } catch (Throwable t) {
            return new Outcome(got, t);
        }
    }

    /** Reads every record: through the iterator after a read-only open, through the visitor after an open. */
    private static Outcome readAll(Built b, boolean readOnly) {
        List<Record> got = new ArrayList<>();
        try (Journal j = readOnly ? Journal.openReadOnly(b.dir, b.options) : Journal.open(b.dir, b.options)) {
            if (readOnly) {
                try (JournalReader r = j.reader(0)) {
                    while (r.hasNext()) {
                        got.add(r.next());
                        if (got.size() > b.records() + 1) {
                            return new Outcome(got, new AssertionError("more records than were appended"));
                        }
                    }
                }
            } else {
                j.read(0, (seq, payload) -> {
                    byte[] copy = new byte[payload.remaining()];
                    payload.get(copy);
                    got.add(new Record(seq, copy));
                    return got.size() <= b.records() + 1;
                });
                if (got.size() > b.records() + 1) {
                    return new Outcome(got, new AssertionError("more records than were appended"));
                }
            }
            return new Outcome(got, null);
        } catch (Throwable t) {
            return new Outcome(got, t);
        }
    }

    /** @return whether the damage {@code x} is after the last record of its segment (none of its records is hit) */
    private static boolean afterTheData(Built b, Expect x) {
        return b.segments.stream().anyMatch(g -> g.file().equals(x.file) && x.offset == g.dataEnd());
    }

    /**
     * Every record returned (even before an exception) is the one appended with that sequence, in increasing order
     * (after a repair, gaps it cut may lie between them).
     */
    private static void assertIntactRecords(Built b, Damaged d, Outcome o) {
        long previous = -1;
        for (Record r : o.records) {
            assertTrue(r.sequence() > previous, d + ": sequence " + r.sequence() + " after " + previous);
            assertArrayEquals(b.spec.payload(r.sequence()), r.payload(), d + ": payload of record " + r.sequence());
            previous = r.sequence();
        }
        if (o.error != null && !(o.error instanceof JournalCorruptedException)) {
            throw new AssertionError(d + ": threw " + o.error + " instead of JournalCorruptedException", o.error);
        }
    }

    /** Every record returned (even before an exception) is the one appended with that sequence, from 0 on. */
    private static void assertIntactPrefix(Built b, Damaged d, Outcome o) {
        for (int i = 0; i < o.records.size(); i++) {
            Record r = o.records.get(i);
            assertEquals(i, r.sequence(), d + ": sequence of record " + i);
            assertArrayEquals(b.spec.payload(i), r.payload(), d + ": payload of record " + i);
        }
        if (o.error instanceof JournalCorruptedException e) {
            assertTrue(e.getMessage().contains(e.file().toString()) && e.getMessage().contains("offset " + e.offset()),
                    d + ": the message does not name the file and offset: " + e.getMessage());
            assertTrue(e.file().startsWith(b.dir), d + ": names a file outside the journal: " + e.file());
        } else if (o.error != null) {
            throw new AssertionError(d + ": threw " + o.error + " instead of JournalCorruptedException", o.error);
        }
    }

    private static String checkOpen(Built b, Damaged d, Expect x, Outcome o, boolean readOnly) {
        if (readOnly && x.kind == Kind.LAST_HEADER && b.segments.size() == 1 && !d.lastHasData
                && o.error instanceof IolabException e && !(e instanceof JournalCorruptedException)
                && e.getMessage().contains("no journal segments")) {
            // the only segment has a bad header and holds nothing: a journal whose creation was interrupted
            // (open recreates it), so "no journal segments ... open it for writing first" is right
            return null;
        }
        assertIntactPrefix(b, d, o);
        String what = (readOnly ? "read-only open + read" : "open + read") + " (expected " + x + ")";
        String got = o.error == null ? o.records.size() + " records" : o.records.size() + " records, then " + o.error;
        boolean completes = switch (x.kind) {
            case NONE, LAST_TAIL -> true;
            case LAST_MARKED -> false;
            // a last segment with a bad header that holds nothing else is an interrupted creation: deleted by open,
            // skipped by a read-only open; over data it is corruption, except that a read-only open skips it after
            // a segment not sealed yet (it may be one being created)
            case LAST_HEADER -> !d.lastHasData || readOnly && !d.lastFollowsASeal();
            case SEALED -> false;
        };
        if (completes) {
            return o.error == null && o.records.size() == x.kept ? null
                    : what + ": expected exactly " + x.kept + " records, got " + got;
        }
        if (!(o.error instanceof JournalCorruptedException e)) {
            return what + ": expected JournalCorruptedException, got " + got;
        }
        // a writable open refuses damage below the last segment's synced mark (it would append after it); a
        // read-only one reads up to it, and its reader is told there, as at damage in a sealed segment
        long before = x.header || x.kind == Kind.LAST_MARKED && !readOnly ? 0 : x.kept;
        if (!e.file().equals(x.file) || e.offset() != x.offset || o.records.size() != before) {
            return what + ": expected " + before + " records then the damage at " + x.file + " @ " + x.offset
                    + ", got " + got;
        }
        return null;
    }

    private static String checkVerify(Damaged d, Expect x, VerifyReport report) {
        boolean clean = switch (x.kind) {
            case NONE, LAST_TAIL -> true;
            case LAST_HEADER -> !d.lastHasData;
            case SEALED, LAST_MARKED -> false;
        };
        String got = "ok=" + report.ok() + ", " + report.records() + " records, problems " + report.problems();
        if (clean) {
            boolean counted = x.kind == Kind.LAST_HEADER || report.records() == x.kept;
            return report.ok() && counted ? null : "verify: expected clean with " + x.kept + " records (" + x
                    + "), got " + got;
        }
        VerifyReport.Problem first = report.problems().stream().filter(p -> !p.recoverable()).findFirst()
                .orElse(null);
        return first != null && first.file().equals(x.file) && first.offset() == x.offset ? null
                : "verify: expected the first unrecoverable problem at " + x.file + " @ " + x.offset + ", got " + got;
    }

    private static void assertExactly(Built b, Damaged d, Outcome o, long kept, String what) {
        assertIntactPrefix(b, d, o);
        if (o.error != null) {
            throw new AssertionError(d + ": " + what + " threw " + o.error, o.error);
        }
        assertEquals(kept, o.records.size(), d + ": " + what + ": records");
    }

    /**
     * Appends record {@code next}, reopens, reads {@code kept} and it, each intact, and verifies no problem: a repaired
     * journal, which may go on across gaps.
     */
    private static void appendAndReopen(Built b, Damaged d, List<Record> kept, long next) {
        within("append after repair of " + d, () -> {
            try (Journal j = Journal.open(b.dir, b.options)) {
                assertEquals(next, j.append(b.spec.payload(next)), d + ": sequence of the next append");
            }
            return null;
        });
        Outcome again = within("reopen + read of " + d, () -> readAll(b, false));
        assertIntactRecords(b, d, again);
        if (again.error != null) {
            throw new AssertionError(d + ": reopen + read after an append threw " + again.error, again.error);
        }
        List<Long> expected = new ArrayList<>(kept.stream().map(Record::sequence).toList());
        expected.add(next);
        assertEquals(expected, again.records.stream().map(Record::sequence).toList(), d + ": records after an append");
        VerifyReport report = within("verify of " + d, () -> Journal.verify(b.dir));
        assertTrue(report.ok() && report.problems().isEmpty(), d + ": verify after repair and an append: "
                + report.problems());
        assertEquals(kept.size() + 1, report.records(), d + ": records verified");
    }

    /** Appends record {@code next}, reopens, reads {@code next + 1} intact records and verifies no problem. */
    private static void appendAndReopen(Built b, Damaged d, long next) {
        within("append after recovery of " + d, () -> {
            try (Journal j = Journal.open(b.dir, b.options)) {
                assertEquals(next, j.append(b.spec.payload(next)), d + ": sequence of the next append");
            }
            return null;
        });
        Outcome again = within("reopen + read of " + d, () -> readAll(b, false));
        assertExactly(b, d, again, next + 1, "reopen + read after an append");
        VerifyReport report = within("verify of " + d, () -> Journal.verify(b.dir));
        assertTrue(report.ok() && report.problems().isEmpty(), d + ": verify after recovery and an append: "
                + report.problems());
        assertEquals(next + 1, report.records(), d + ": records verified");
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static long align(long n) {
        return (n + 7) & -8L;
    }

    private static byte[] logical(byte[] bytes, long capacity) {
        return Arrays.copyOf(bytes, (int) capacity);
    }

    private static List<Path> segmentFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("[0-9]{20}\\.seg")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
