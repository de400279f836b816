package org.iolab.store;

import static org.iolab.testing.CorruptionCases.fileSize;
import static org.iolab.testing.CorruptionCases.pick;
import static org.iolab.testing.CorruptionCases.readBytes;
import static org.iolab.testing.CorruptionCases.readRange;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.journal.JournalTestAccess;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.storage.FaultyStorage;
import org.iolab.testing.CorruptionCases;
import org.iolab.testing.Draws;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Property-based corruption tests of the record store, in the style of the journal's
 * {@code JournalCorruptionProperties}: a generated store (every backend and durability; a seeded history of puts of
 * 0 B to 12 KiB values under 0 to 300-byte keys, updates, deletes and reinserts that reuse holes; closed cleanly,
 * copied while open as a kill -9 between two operations leaves it, or killed inside a write through
 * {@link FaultyStorage}, as the process-crash test does) gets one generated damage (flipped bits in a slot header, a
 * key, a value, padding, a hole, either header copy, {@code FILE.idx} or a redo segment; a truncated data file,
 * {@code FILE.idx} or redo segment; a zeroed 4 KiB page; a garbage slot, key or value length; garbage after the
 * data; a deleted {@code FILE.idx} or redo segment). Then {@link Store#verify}, {@link Store#open} with a get of
 * every key and a scan, and {@link Store#repair} followed by all of that must each either succeed or throw an
 * {@link IolabException} with a one-line message ({@link StoreCorruptedException} naming a file of the store and
 * the offset): never another exception, an {@link OutOfMemoryError} (surefire runs with {@code -Xmx1g}) or a hang
 * (every call runs under a 10 s timeout), and never a wrong value.
 *
 * <p>What "wrong" means comes from an oracle (the history of every key) and a model of the documented slot format
 * (see {@link Store}): the pristine data file of a cleanly closed store is parsed slot by slot and compared byte by
 * byte with the damaged one. A value returned for a key must be one the key held at some point of the history (or
 * absent); when the store was closed cleanly, exactly its final value, and absent only when bytes of its record
 * changed; when no record, redo log or header copy in use changed (nothing did, or only {@code FILE.idx} or the
 * older header copy), exactly the final state (or, after a kill, the state with the operation in flight), and
 * verify finds nothing unrecoverable. After a repair the store verifies clean, opens, reads and scans without an
 * exception, takes a put, a delete and a compaction and reopens with them; from a cleanly closed store, repair keeps
 * every record whose bytes were not damaged (it drops only damaged records) and reports a problem whenever it drops
 * one.
 *
 * <p>The cases come from a plain seeded {@link Gen} over {@link SplittableRandom} rather than from jqwik, whose
 * author asks AI agents not to use it (this project is written by AI agents). Every run draws new seeds; each
 * try's name gives its seed and what it built and damaged; to rerun one try alone: {@code ./mvnw -B -ntp -pl
 * iolab-core -am verify -Dtest='StoreCorruptionProperties#PROPERTY' -Dstore.corruption.seed=SEED
 * -Dsurefire.failIfNoSpecifiedTests=false -DskipITs} ({@code -Dstore.corruption.runSeed=SEED} instead repeats a
 * whole run's tries).
 */
class StoreCorruptionProperties {
    private static final String NAME = "s.store";
    /** The system property that reruns one try: its seed, as printed in the try's name (16 hex digits). */
    static final String SEED_PROPERTY = "store.corruption.seed";
    /** The system property that repeats a whole run: the run seed every try's seed derives from. */
    static final String RUN_SEED_PROPERTY = "store.corruption.runSeed";
    /** Where this run's try seeds come from (new each run unless {@link #RUN_SEED_PROPERTY} is set). */
    private static final long RUN_SEED = CorruptionCases.runSeed(RUN_SEED_PROPERTY);

    // ------------------------------------------------------------------------------------------ properties

    /**
     * {@code verify} (which changes nothing), then {@code open}, a get of every key (and of keys never put) and a
     * scan: each returns only values the key held, or throws the typed exception; {@code verify} reports
     * unrecoverable damage exactly when the open, a get or the scan throws {@link StoreCorruptedException}, except
     * that damage no check covers (padding, the body of a hole) and damage the redo log's replay overwrites need not
     * make reads throw. A cut redo log is no exception: verify, like the open, checks the index the replay leads to.
     */
    @TestFactory
    Stream<DynamicTest> verifyOpenGetAndScanReturnOnlyValuesTheKeyHeld() {
        return tries("verifyOpenGetAndScanReturnOnlyValuesTheKeyHeld", 200, (tmp, spec, damage) -> {
            Built b = Built.create(tmp, spec);
            Damaged d = b.damage(damage);
            Reported verified = CorruptionCases.within("verify of " + d, () -> verify(b));
            assertTypedError(d, "verify", verified.error);
            if (d.intact()) {
                assertTrue(verified.report != null && verified.report.ok(), d + ": verify of an undamaged store: "
                        + (verified.report != null ? verified.report.problems() : verified.error));
            }
            Reads r = CorruptionCases.within("open + get + scan of " + d, () -> readAll(b, b.options));
            checkReads(d, r, "open + get + scan");
            if (verified.report != null && r.openError == null) {
                boolean threw = r.corruption() != null;
                // an open replays the redo log, which rewrites (heals) the slots of the operations it holds
                boolean healed = !spec.clean() && spec.durability != Durability.NONE;
                assertTrue(verified.report.ok() || threw || healed || d.onlyNotChecked(), d + ": verify found "
                        + verified.report.problems() + " but open + get + scan found nothing");
                assertTrue(!verified.report.ok() || !threw, d + ": verify found no damage ("
                        + verified.report.problems() + ") but open + get + scan threw " + r.corruption());
            }
        });
    }

    /**
     * {@code repair} succeeds and leaves a store that verifies clean, opens, returns only correct values from get
     * and scan (from a cleanly closed store: every record whose bytes were not damaged, with its final value),
     * takes a put and a delete, and reopens with them.
     */
    @TestFactory
    Stream<DynamicTest> repairLeavesAStoreThatVerifiesCleanAndHoldsOnlyCorrectValues() {
        return tries("repairLeavesAStoreThatVerifiesCleanAndHoldsOnlyCorrectValues", 200,
                StoreCorruptionProperties::checkRepair);
    }

    /**
     * Seeds of {@link #repairLeavesAStoreThatVerifiesCleanAndHoldsOnlyCorrectValues} that once failed, run on every
     * build (each run draws new seeds, so a case found once would not come back by itself): a data file cut short
     * below its header's data end, whose repair replayed a redo write and started the prefaulter past the mapping's
     * end (channel-direct at BATCH and at ALWAYS); a slot header whose length and sequence bits were both flipped, so
     * that the record after it reads as its value and goes with it (the oracle had called that record undamaged).
     */
    private static final long[] REPAIR_SEEDS_FOUND = {0xe3cd95af37b33c24L, 0xc627f5db948d71cdL, 0xc1fab2a6704af43cL};

    @TestFactory
    Stream<DynamicTest> repairOfTheCasesFoundBefore() {
        return LongStream.of(REPAIR_SEEDS_FOUND).mapToObj(seed -> {
            Gen g = new Gen(seed);
            StoreSpec spec = g.store();
            Damage damage = g.damage();
            return DynamicTest.dynamicTest("seed " + CorruptionCases.hex(seed) + ": " + spec + "; " + damage,
                    () -> CorruptionCases.inTempDir("iolab-store-corruption-", tmp -> checkRepair(tmp, spec, damage)));
        });
    }

    private static void checkRepair(Path tmp, StoreSpec spec, Damage damage) {
        Built b = Built.create(tmp, spec);
        Damaged d = b.damage(damage);
        StoreReport repaired = CorruptionCases.within("repair of " + d, () -> Store.repair(b.file));
        if (d.intact()) {
            assertTrue(repaired.ok(), d + ": repair of an undamaged store found " + repaired.problems());
        }
        StoreReport after = CorruptionCases.within("verify after repair of " + d, () -> Store.verify(b.file));
        assertTrue(after.ok(), d + ": verify after repair still finds " + after.problems() + " (repair found "
                + repaired.problems() + ")");
        Reads r = CorruptionCases.within("open + get + scan after repair of " + d, () -> readAll(b, b.options));
        if (r.openError != null || r.corruption() != null || r.otherError() != null) {
            Throwable t = r.openError != null ? r.openError
                    : r.corruption() != null ? r.corruption() : r.otherError();
            throw new AssertionError(d + ": after repair (which found " + repaired.problems() + "): " + t, t);
        }
        checkReads(d, r, "open + get + scan after repair");
        assertEquals(r.scanned.size(), r.size, d + ": size() after repair and the records scanned");
        for (Map.Entry<ByteBuffer, byte[]> e : r.scanned.entrySet()) {
            assertArrayEquals(e.getValue(), r.got.get(e.getKey()), d + ": get and scan differ after repair");
        }
        if (spec.clean()) {
            boolean lost = b.finalState.keySet().stream().anyMatch(k -> r.got.get(k) == null);
            assertTrue(!lost || !repaired.ok(), d + ": repair dropped records without reporting a problem ("
                    + repaired.problems() + ")");
            for (Map.Entry<ByteBuffer, byte[]> e : b.finalState.entrySet()) {
                if (!d.damagedKeys.contains(e.getKey())) {
                    assertArrayEquals(e.getValue(), r.got.get(e.getKey()), d + ": repair lost the undamaged"
                            + " record of key " + hex(e.getKey()) + " (repair found " + repaired.problems() + ")");
                }
            }
        }
        writeAndReopen(b, d, r.scanned);
    }

    // ------------------------------------------------------------------------------------------ tries

    /** One try of a property: builds, damages and checks a store in {@code tmp}, a fresh empty folder. */
    @FunctionalInterface
    interface Body {
        /**
         * @param tmp a folder of this try's own, deleted afterwards
         * @param spec the store to build
         * @param damage the damage to do to it
         */
        void run(Path tmp, StoreSpec spec, Damage damage);
    }

    /** {@code tries} dynamic tests of {@code property} (see {@link CorruptionCases#tries}). */
    private static Stream<DynamicTest> tries(String property, int tries, Body body) {
        return CorruptionCases.tries(property, tries, SEED_PROPERTY, RUN_SEED, "iolab-store-corruption-", seed -> {
            Gen g = new Gen(seed);
            StoreSpec spec = g.store();
            Damage damage = g.damage();
            return new CorruptionCases.Case(spec + "; " + damage, tmp -> body.run(tmp, spec, damage));
        });
    }

    private static String hex(ByteBuffer key) {
        StringBuilder s = new StringBuilder();
        for (int i = key.position(); i < key.limit() && i < 16; i++) {
            s.append(String.format("%02x", key.get(i)));
        }
        return key.remaining() > 16 ? s + "..(" + key.remaining() + " B)" : s.isEmpty() ? "(empty)" : s.toString();
    }

    // ------------------------------------------------------------------------------------------ generators

    /**
     * The generator of one try: every value comes from one {@link SplittableRandom} seeded by the try's seed, so
     * the seed alone reproduces the store, its history and the damage.
     *
     * <p>Distributions: enum constants, booleans and damage kinds are uniform; the number of operations and the
     * raw numbers that pick slots and offsets are uniform over their range; the other ranges lean to their low end
     * (an order of magnitude is picked uniformly, then a value in it). Every bounded draw returns one of its two
     * bounds once in {@value Draws#EDGE_ONE_IN} draws, so that empty stores, empty keys and values, offset 0 and the
     * largest values turn up in every run.
     */
    static final class Gen {
        private final SplittableRandom random;
        private final Draws draws;

        Gen(long seed) {
            this.random = new SplittableRandom(seed);
            this.draws = new Draws(random);
        }

        StoreSpec store() {
            Backend backend = draws.of(Backend.values());
            Durability durability = draws.of(Durability.values());
            Stop stop = draws.of(Stop.values());
            // ALWAYS syncs the redo log at every operation: fewer of them keep the class fast
            int ops = draws.uniform(0, durability == Durability.ALWAYS ? 40 : 160);
            int keys = draws.small(1, 64);
            int maxValue = random.nextInt(4) == 0 ? draws.small(4097, 12288) : draws.small(0, 2048);
            int maxKey = random.nextInt(8) == 0 ? draws.small(49, 300) : draws.small(0, 48);
            long redoLimit = random.nextBoolean() ? 64L << 20 : draws.small(4, 64) * 1024L;
            return new StoreSpec(backend, durability, stop, ops, keys, maxKey, maxValue, redoLimit,
                    random.nextLong());
        }

        /** Any kind of damage, each kind as likely. */
        Damage damage() {
            return switch (random.nextInt(9)) {
                case 0, 1 -> new Flip(draws.of(Part.values()), draws.raw(), bits());
                case 2 -> new Truncate(draws.of(Target.values()), draws.raw(), draws.raw());
                case 3 -> new ZeroPage(draws.raw());
                case 4 -> new SlotLength(draws.raw(), random.nextBoolean(), draws.of(LengthKind.values()), draws.anyInt());
                case 5 -> new KeyValueLength(draws.raw(), random.nextBoolean(), draws.of(LengthKind.values()), draws.anyInt());
                case 6 -> new Delete(random.nextBoolean() ? Target.INDEX : Target.REDO, draws.raw());
                case 7 -> new AppendGarbage(draws.small(1, 8192), random.nextLong());
                default -> new Flip(random.nextBoolean() ? Part.HEADER_A : Part.HEADER_B, draws.raw(), bits());
            };
        }

        private List<Integer> bits() {
            List<Integer> bits = new ArrayList<>();
            for (int n = draws.small(1, 8); n > 0; n--) {
                bits.add(draws.raw());
            }
            return List.copyOf(bits);
        }
    }

    /**
     * A store to build.
     *
     * @param backend the storage backend for writing and reading
     * @param durability the durability level
     * @param stop how the writer stopped
     * @param ops how many operations
     * @param keys how many distinct keys they use
     * @param maxKey the longest key (keys 0..keys-1 are 2 bytes of their number and up to maxKey more)
     * @param maxValue the longest value
     * @param redoLimit the redo log size that triggers a checkpoint
     * @param seed seeds the operations, keys and values
     */
    record StoreSpec(Backend backend, Durability durability, Stop stop, int ops, int keys, int maxKey,
            int maxValue, long redoLimit, long seed) {
        StoreOptions options() {
            return StoreOptions.defaults().withBackend(backend).withDurability(durability)
                    .withBatch(Duration.ofMillis(1), 4096).withRedoLimit(redoLimit)
                    .withJournalTweak(j -> j.withSegmentSize(64 * 1024));
        }

        @Override
        public String toString() {
            return backend + "/" + durability + ", " + ops + " ops on " + keys + " keys of 2-" + (2 + maxKey)
                    + " B, values of 0-" + maxValue + " B, redo limit " + redoLimit + ", "
                    + stop.toString().toLowerCase().replace('_', ' ');
        }

        boolean clean() {
            return stop == Stop.CLOSED;
        }

        /** Key {@code i}: its number in 2 bytes and random bytes; key 0 is empty in half of the stores. */
        byte[] key(int i) {
            if (i == 0 && (seed & 1) == 0) {
                return new byte[0];
            }
            SplittableRandom rnd = new SplittableRandom(seed ^ (i * 0xC2B2AE3D27D4EB4FL));
            byte[] k = new byte[2 + rnd.nextInt(maxKey + 1)];
            rnd.nextBytes(k);
            k[0] = (byte) (i >>> 8);
            k[1] = (byte) i;
            return k;
        }

        /** The operations: key number and value, null for a delete. */
        List<Map.Entry<Integer, byte[]>> operations() {
            SplittableRandom rnd = new SplittableRandom(seed);
            List<Map.Entry<Integer, byte[]>> out = new ArrayList<>();
            for (int i = 0; i < ops; i++) {
                int key = rnd.nextInt(keys);
                byte[] value = null;
                if (rnd.nextInt(4) != 0) {
                    int size = rnd.nextInt(8) == 0 ? 0 : rnd.nextInt(6) == 0 ? rnd.nextInt(maxValue / 2, maxValue + 1)
                            : rnd.nextInt(Math.min(maxValue, 256) + 1);
                    value = new byte[size];
                    rnd.nextBytes(value);
                }
                out.add(new AbstractMap.SimpleImmutableEntry<>(key, value));
            }
            return out;
        }
    }

    /** How the writer of a built store stopped. */
    enum Stop {
        /** Closed cleanly. */
        CLOSED,
        /** Still open when its files were copied (what a kill -9 between two operations leaves). */
        COPIED_OPEN,
        /** Killed inside a write ({@link FaultyStorage#armProcessCrash}), or after the last operation. */
        KILLED
    }

    /** One damage; raw numbers are resolved against the built store. */
    sealed interface Damage {
    }

    /** Where a flip goes. */
    enum Part {
        /** The 24-byte header of a slot (live or hole). */
        SLOT_HEADER,
        /** The key of a live record. */
        KEY,
        /** The value of a live record. */
        VALUE,
        /** The padding after a live record's value (not covered by its CRC). */
        PADDING,
        /** A hole, header or body. */
        HOLE,
        /** Anywhere in the data file. */
        ANY_DATA,
        /** Header copy A (offset 0). */
        HEADER_A,
        /** Header copy B (offset 512). */
        HEADER_B,
        /** {@code FILE.idx}. */
        INDEX,
        /** A redo segment, up to 64 bytes after its last byte that is not zero (its header and records). */
        REDO
    }

    /** A file to truncate or delete. */
    enum Target {
        /** The data file. */
        DATA,
        /** {@code FILE.idx}. */
        INDEX,
        /** A redo segment (truncated up to its last byte that is not zero). */
        REDO
    }

    /**
     * Flips 1..8 bits in one part.
     *
     * @param part where
     * @param pick picks the slot or segment
     * @param bits each picks an offset in the part ({@code bit >>> 3}) and a bit ({@code bit & 7})
     */
    record Flip(Part part, int pick, List<Integer> bits) implements Damage {
    }

    /**
     * Truncates a file.
     *
     * @param target which file
     * @param pick picks the segment
     * @param at picks the new size
     */
    record Truncate(Target target, int pick, int at) implements Damage {
    }

    /**
     * Zeroes a 4 KiB page of the data file (the header page included).
     *
     * @param page picks the page
     */
    record ZeroPage(int page) implements Damage {
    }

    /** What a garbage length is. */
    enum LengthKind {
        /** Any int. */
        RANDOM,
        /** 0. */
        ZERO,
        /** Negative (huge as an unsigned int). */
        NEGATIVE,
        /** Near {@link Integer#MAX_VALUE}. */
        HUGE,
        /** Garbage in the bits beside the length (type, padding, the zero bit). */
        OTHER_BITS,
        /** A few bytes more than are left in the data. */
        PAST_END,
        /** Plausible: a multiple of 8, at least a slot header, ending inside the data (maybe mid-slot). */
        WITHIN
    }

    /**
     * Writes a garbage slot length (bits 0-22 of the first 4 bytes of a slot, or all 32 bits for
     * {@link LengthKind#RANDOM} and {@link LengthKind#NEGATIVE}, bits 23-31 for {@link LengthKind#OTHER_BITS}).
     *
     * @param pick picks the slot
     * @param live true: a live record's; false: any slot's
     * @param kind the kind of value
     * @param random the random part of the value
     */
    record SlotLength(int pick, boolean live, LengthKind kind, int random) implements Damage {
    }

    /**
     * Writes a garbage key length (2 bytes at 4) or padding (bits 25-30 of the first 4 bytes; the value length is
     * derived from it) into a live record.
     *
     * @param pick picks the record
     * @param key true: the key length; false: the value length
     * @param kind the kind of value
     * @param random the random part of the value
     */
    record KeyValueLength(int pick, boolean key, LengthKind kind, int random) implements Damage {
    }

    /**
     * Deletes {@code FILE.idx} or a redo segment.
     *
     * @param target which
     * @param pick picks the segment
     */
    record Delete(Target target, int pick) implements Damage {
    }

    /**
     * Writes random bytes after the end of the data file.
     *
     * @param length how many
     * @param seed seeds them
     */
    record AppendGarbage(int length, long seed) implements Damage {
    }

    // ------------------------------------------------------------------------------------------ the model

    /**
     * One slot of a pristine data file, parsed by the documented format.
     *
     * @param offset where it starts
     * @param length its slot length
     * @param type 1 live, 2 free
     * @param keyLength its key length
     * @param valueLength its value length
     */
    record Slot(long offset, int length, int type, int keyLength, int valueLength) {
        long bodyEnd() {
            return offset + Slots.HEADER + keyLength + valueLength;
        }
    }

    /** A built store, its oracle, and its pristine files. */
    static final class Built {
        final Path file;
        final StoreSpec spec;
        final StoreOptions options;
        final List<ByteBuffer> keys = new ArrayList<>();
        final Map<ByteBuffer, byte[]> finalState = new HashMap<>();
        /** The states the store may hold when undamaged: the final one, and with the operation a kill cut. */
        final List<Map<ByteBuffer, byte[]>> finals = new ArrayList<>();
        /** Every value each key held (null: absent), from before its first put on. */
        final Map<ByteBuffer, List<byte[]>> history = new HashMap<>();
        /** The store's files (data, FILE.idx, redo segments) as built. */
        final Map<Path, byte[]> pristine = new LinkedHashMap<>();
        /** The slots of the data file (closed stores only). */
        final List<Slot> slots = new ArrayList<>();
        /** Where the header copy not in use is (-1: unknown, no valid header). */
        long olderHeaderCopy = -1;
        /** The live slot of each key (closed stores only). */
        final Map<ByteBuffer, Slot> slotOf = new HashMap<>();

        private Built(Path file, StoreSpec spec) {
            this.file = file;
            this.spec = spec;
            this.options = spec.options();
        }

        static Built create(Path tmp, StoreSpec spec) {
            Built b = new Built(tmp.resolve(NAME), spec);
            for (int i = 0; i < spec.keys + 2; i++) {
                ByteBuffer k = ByteBuffer.wrap(spec.key(i));
                b.keys.add(k);
                List<byte[]> h = new ArrayList<>();
                h.add(null);
                b.history.put(k, h);
            }
            Path writerFile = spec.stop == Stop.COPIED_OPEN ? tmp.resolve("writer").resolve(NAME) : b.file;
            try {
                Files.createDirectories(writerFile.getParent());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<FaultyStorage> faulty = new ArrayList<>();
            StoreOptions writing = b.options;
            if (spec.stop == Stop.KILLED) {
                // every file the writer opens dies (kill -9) at one of its first few writes, or outlives the ops
                Random rnd = new Random(spec.seed);
                int budget = 2 + 6 * spec.ops;
                FileOpener opener = (f, writable) -> {
                    FaultyStorage fs = FaultyStorage.open(spec.backend, f);
                    fs.armProcessCrash(1 + rnd.nextInt(budget), rnd);
                    faulty.add(fs);
                    return fs;
                };
                writing = b.options.withOpener(opener).withJournalTweak(j -> JournalTestAccess.withOpener(
                        j.withSegmentSize(64 * 1024), (f, writable) -> writable ? opener.open(f, true)
                                : spec.backend.open(f, false)));
            }
            Map<ByteBuffer, byte[]> inFlight = null;
            Store s = null;
            try {
                s = Store.open(writerFile, writing);
                for (Map.Entry<Integer, byte[]> op : spec.operations()) {
                    ByteBuffer k = b.keys.get(op.getKey());
                    b.history.get(k).add(op.getValue());
                    inFlight = new HashMap<>(b.finalState);
                    if (op.getValue() == null) {
                        inFlight.remove(k);
                        long seq = s.delete(k.array());
                        assertEquals(b.finalState.containsKey(k), seq >= 0, "delete of a key the oracle holds or not");
                        b.finalState.remove(k);
                    } else {
                        inFlight.put(k, op.getValue());
                        s.put(k.array(), op.getValue());
                        b.finalState.put(k, op.getValue());
                    }
                    inFlight = null;
                }
                if (spec.stop == Stop.COPIED_OPEN) {
                    copyStore(writerFile, b.file);
                }
            } catch (IolabException e) {
                if (spec.stop != Stop.KILLED || e instanceof StoreCorruptedException) {
                    throw e;
                }
                // killed: the operation in flight may or may not have happened
            } finally {
                if (spec.stop == Stop.KILLED) {
                    for (FaultyStorage f : faulty) {
                        f.close();
                    }
                    if (s != null) {
                        s.abandon();
                    }
                } else if (s != null) {
                    s.close();
                }
            }
            b.finals.add(b.finalState);
            if (inFlight != null) {
                b.finals.add(inFlight);
            }
            for (Path f : storeFiles(b.file)) {
                b.pristine.put(f, readBytes(f));
            }
            b.parse();
            return b;
        }

        /**
         * Parses the pristine data file slot by slot: up to the data end of a closed store (checked against the
         * oracle), or up to the first zero or impossible header of one copied while open.
         */
        private void parse() {
            byte[] bytes = pristine.get(file);
            if (bytes.length < Header.COPY_B + Header.SIZE && !spec.clean()) {
                // killed while creating it
                return;
            }
            ByteBuffer page = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            Header a = Header.decode(page, Header.COPY_A);
            Header bh = Header.decode(page, Header.COPY_B);
            Header h = a == null || (bh != null && bh.generation() > a.generation()) ? bh : a;
            olderHeaderCopy = h == null ? -1 : h == a ? Header.COPY_B : Header.COPY_A;
            assertTrue(h != null || !spec.clean(), "a closed store has a valid header");
            if (h == null) {
                return;
            }
            assertTrue(h.clean() || !spec.clean(), "a closed store has a clean header");
            long end = spec.clean() ? h.dataEnd() : bytes.length;
            Map<ByteBuffer, byte[]> live = new HashMap<>();
            for (long pos = Slots.DATA_START; pos + Slots.HEADER <= end; ) {
                long w0 = page.getLong((int) pos);
                boolean plausible = w0 != 0 && Slots.checkShape(w0, pos, end) == null;
                Slot s = new Slot(pos, (int) Slots.slotLength(w0), Slots.type(w0), Slots.keyLength(w0),
                        plausible ? Slots.keyAndValue(w0) - Slots.keyLength(w0) : 0);
                if (!spec.clean() && !plausible) {
                    break;
                }
                assertTrue(s.length >= Slots.HEADER && s.length % 8 == 0 && pos + s.length <= end,
                        "pristine slot " + s);
                slots.add(s);
                if (s.type == Slots.LIVE && spec.clean()) {
                    ByteBuffer k = ByteBuffer.wrap(Arrays.copyOfRange(bytes, (int) pos + Slots.HEADER,
                            (int) pos + Slots.HEADER + s.keyLength));
                    byte[] v = Arrays.copyOfRange(bytes, (int) pos + Slots.HEADER + s.keyLength, (int) s.bodyEnd());
                    assertTrue(live.put(k, v) == null, "two live slots of one key in a closed store");
                    slotOf.put(k, s);
                } else if (s.type != Slots.LIVE) {
                    assertEquals(Slots.FREE, s.type, "pristine slot type at " + pos);
                }
                pos += s.length;
            }
            if (spec.clean()) {
                assertEquals(finalState.keySet(), live.keySet(), "the keys of the pristine data file");
                for (Map.Entry<ByteBuffer, byte[]> e : live.entrySet()) {
                    assertArrayEquals(finalState.get(e.getKey()), e.getValue(), "a pristine value");
                }
            }
        }

        List<Slot> slots(boolean liveOnly) {
            return liveOnly ? slots.stream().filter(s -> s.type == Slots.LIVE).toList() : slots;
        }

        List<Path> redoSegments() {
            return pristine.keySet().stream().filter(p -> p.getFileName().toString().endsWith(".seg")).toList();
        }

        Path index() {
            return IndexFile.of(file);
        }

        /** Applies {@code damage} and compares the files with the pristine ones. */
        Damaged damage(Damage damage) {
            String done = apply(damage);
            Map<Path, Boolean> changedFiles = new LinkedHashMap<>();
            List<Long> dataChanges = new ArrayList<>();
            long dataSize = Files.exists(file) ? fileSize(file) : -1;
            for (Map.Entry<Path, byte[]> e : pristine.entrySet()) {
                Path f = e.getKey();
                byte[] before = e.getValue();
                byte[] now = Files.exists(f) ? readBytes(f) : null;
                boolean changed = now == null || !Arrays.equals(before, now);
                changedFiles.put(f, changed);
                if (f.equals(file) && now != null) {
                    int n = Math.max(before.length, now.length);
                    for (int i = 0; i < n; i++) {
                        byte x = i < before.length ? before[i] : 0;
                        byte y = i < now.length ? now[i] : 0;
                        if (x != y || i >= now.length) {
                            dataChanges.add((long) i);
                        }
                    }
                }
            }
            // a slot whose length word changed claims the bytes up to its new end: the slots there read as its value
            // (which may hold slot images) unless its CRC proves the length was the only damage, so they may be lost
            List<long[]> claimed = new ArrayList<>();
            if (Files.exists(file)) {
                for (Slot s : slotOf.values()) {
                    boolean lengthHit = false;
                    for (long at : dataChanges) {
                        lengthHit |= at >= s.offset && at < s.offset + 3;
                    }
                    if (lengthHit && s.offset + 8 <= dataSize) {
                        long w0 = ByteBuffer.wrap(readRange(file, s.offset, 8)).order(ByteOrder.LITTLE_ENDIAN)
                                .getLong();
                        claimed.add(new long[] {s.offset, s.offset + Slots.slotLength(w0)});
                    }
                }
            }
            List<ByteBuffer> damagedKeys = new ArrayList<>();
            for (Map.Entry<ByteBuffer, Slot> e : slotOf.entrySet()) {
                Slot s = e.getValue();
                boolean hit = s.bodyEnd() > dataSize;
                for (long at : dataChanges) {
                    hit |= at >= s.offset && at < s.bodyEnd();
                }
                for (long[] c : claimed) {
                    hit |= s.offset > c[0] && s.offset < c[1];
                }
                if (hit) {
                    damagedKeys.add(e.getKey());
                }
            }
            return new Damaged(this, damage + ": " + done, changedFiles, dataChanges, damagedKeys);
        }

        private String apply(Damage damage) {
            switch (damage) {
                case Flip f -> {
                    long[] range = range(f.part, f.pick);
                    if (range == null) {
                        return "no " + f.part + " to flip";
                    }
                    Path target = range[0] == 0 ? file : range[0] == 1 ? index() : redoSegments().get((int) range[3]);
                    StringBuilder out = new StringBuilder(target.getFileName() + ": flipped");
                    for (int bit : f.bits) {
                        long at = pick(bit >>> 3, range[1], range[2]);
                        if (at >= 0) {
                            byte[] one = readRange(target, at, 1);
                            write(target, at, new byte[] {(byte) (one[0] ^ (1 << (bit & 7)))});
                            out.append(" bit ").append(bit & 7).append(" @ ").append(at);
                        }
                    }
                    return out.toString();
                }
                case Truncate t -> {
                    Path target = target(t.target, t.pick);
                    if (target == null) {
                        return "no " + t.target + " file to truncate";
                    }
                    long size = fileSize(target);
                    // a redo segment is preallocated: a cut anywhere in it would mostly cut zeros after its records,
                    // and never lose an acknowledged operation
                    long at = pick(t.at, 0, t.target == Target.REDO ? written(target) : size);
                    if (at < 0) {
                        return "nothing to truncate";
                    }
                    try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                        ch.truncate(at);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return target.getFileName() + ": truncated to " + at + " bytes (of " + size + ")";
                }
                case ZeroPage z -> {
                    long size = fileSize(file);
                    long at = 4096 * pick(z.page, 0, (size + 4095) / 4096);
                    if (at < 0) {
                        return "no page to zero";
                    }
                    int n = (int) Math.max(0, Math.min(4096, size - at));
                    write(file, at, new byte[n]);
                    return "zeroed " + n + " bytes @ " + at;
                }
                case SlotLength g -> {
                    List<Slot> candidates = slots(g.live);
                    long at = candidates.isEmpty() ? Slots.DATA_START + 8 * pick(g.pick, 0, Math.max(0,
                            (fileSize(file) - Slots.DATA_START) / 8)) : candidates.get(Math.floorMod(g.pick,
                            candidates.size())).offset;
                    if (at + 4 > fileSize(file)) {
                        return "no slot for a length";
                    }
                    int value = length(g.kind, g.random, at);
                    int old = ByteBuffer.wrap(readRange(file, at, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
                    int word = switch (g.kind) {
                        case RANDOM, NEGATIVE -> value;
                        case OTHER_BITS -> (old & 0x7F_FFFF) | (value << 23);
                        default -> (old & ~0x7F_FFFF) | (int) Math.min((value & 0xFFFF_FFFFL) >>> 3, 0x7F_FFFF);
                    };
                    write(file, at, le(4, word));
                    return "slot length word " + Integer.toHexString(word) + " (" + g.kind + " " + value
                            + ") written @ " + at;
                }
                case KeyValueLength g -> {
                    List<Slot> live = slots(true);
                    if (live.isEmpty()) {
                        return "no live record for a length";
                    }
                    Slot s = live.get(Math.floorMod(g.pick, live.size()));
                    int value = length(g.kind, g.random, s.offset);
                    if (g.key) {
                        write(file, s.offset + 4, le(2, value));
                        return "key length " + (value & 0xFFFF) + " written @ " + (s.offset + 4);
                    }
                    int old = ByteBuffer.wrap(readRange(file, s.offset, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
                    int word = (old & ~(Slots.MAX_PAD << 25)) | ((value & Slots.MAX_PAD) << 25);
                    write(file, s.offset, le(4, word));
                    return "padding " + (value & Slots.MAX_PAD) + " (so the value length) written @ " + s.offset;
                }
                case Delete del -> {
                    Path target = target(del.target, del.pick);
                    if (target == null || !Files.exists(target)) {
                        return "no " + del.target + " file to delete";
                    }
                    try {
                        Files.delete(target);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return "deleted " + target.getFileName();
                }
                case AppendGarbage a -> {
                    byte[] garbage = new byte[a.length];
                    new SplittableRandom(a.seed).nextBytes(garbage);
                    long size = fileSize(file);
                    write(file, size, garbage);
                    return a.length + " garbage bytes written @ " + size;
                }
            }
        }

        /** @return {file (0 data, 1 index, 2 redo), from, to, segment} or null when the part is missing */
        private long[] range(Part part, int pick) {
            long size = fileSize(file);
            List<Slot> live = slots(true);
            List<Slot> holes = slots.stream().filter(s -> s.type == Slots.FREE).toList();
            return switch (part) {
                case SLOT_HEADER -> slots.isEmpty() ? null : slotRange(slots, pick, 0, Slots.HEADER);
                case KEY -> live.isEmpty() ? null : within(live.get(Math.floorMod(pick, live.size())), true);
                case VALUE -> live.isEmpty() ? null : within(live.get(Math.floorMod(pick, live.size())), false);
                case PADDING -> {
                    List<Slot> padded = live.stream().filter(s -> s.bodyEnd() < s.offset + s.length).toList();
                    if (padded.isEmpty()) {
                        yield null;
                    }
                    Slot s = padded.get(Math.floorMod(pick, padded.size()));
                    yield new long[] {0, s.bodyEnd(), s.offset + s.length, 0};
                }
                case HOLE -> holes.isEmpty() ? null : slotRange(holes, pick, 0, -1);
                case ANY_DATA -> size <= Slots.DATA_START ? null : new long[] {0, Slots.DATA_START, size, 0};
                case HEADER_A -> new long[] {0, Header.COPY_A, Header.COPY_A + Header.SIZE, 0};
                case HEADER_B -> new long[] {0, Header.COPY_B, Header.COPY_B + Header.SIZE, 0};
                case INDEX -> Files.exists(index()) ? new long[] {1, 0, fileSize(index()), 0} : null;
                case REDO -> {
                    List<Path> segs = redoSegments();
                    if (segs.isEmpty()) {
                        yield null;
                    }
                    int which = Math.floorMod(pick, segs.size());
                    // the records and a few of the preallocated zeros after them, not mostly those zeros
                    Path seg = segs.get(which);
                    yield new long[] {2, 0, Math.min(fileSize(seg), written(seg) + 64), which};
                }
            };
        }

        private static long[] slotRange(List<Slot> from, int pick, int lo, int hi) {
            Slot s = from.get(Math.floorMod(pick, from.size()));
            return new long[] {0, s.offset + lo, hi < 0 ? s.offset + s.length : s.offset + hi, 0};
        }

        private static long[] within(Slot s, boolean key) {
            long from = s.offset + Slots.HEADER + (key ? 0 : s.keyLength);
            long to = key ? from + s.keyLength : s.bodyEnd();
            return from < to ? new long[] {0, from, to, 0} : null;
        }

        private Path target(Target t, int pick) {
            return switch (t) {
                case DATA -> file;
                case INDEX -> Files.exists(index()) ? index() : null;
                case REDO -> {
                    List<Path> segs = redoSegments();
                    yield segs.isEmpty() ? null : segs.get(Math.floorMod(pick, segs.size()));
                }
            };
        }

        /** @return the length of {@code f} up to its last byte that is not zero */
        private static long written(Path f) {
            byte[] bytes = readBytes(f);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] == 0) {
                end--;
            }
            return end;
        }

        private int length(LengthKind kind, int random, long at) {
            return switch (kind) {
                case RANDOM -> random;
                case ZERO -> 0;
                case NEGATIVE -> random | Integer.MIN_VALUE;
                case HUGE -> Integer.MAX_VALUE - (random & 0xFFFF);
                case OTHER_BITS -> random;
                case PAST_END -> (int) Math.min(Integer.MAX_VALUE, fileSize(file) - at + 8 + 8L * Math.floorMod(
                        random, 16));
                case WITHIN -> (int) Math.min(Integer.MAX_VALUE, Slots.HEADER + 8 * Math.floorMod((long) random,
                        Math.max(1, (fileSize(file) - at - Slots.HEADER) / 8 + 1)));
            };
        }
    }

    /**
     * A damaged store and the model's view of it.
     *
     * @param built the store
     * @param description what was done
     * @param changedFiles each pristine file and whether it changed (or is gone)
     * @param dataChanges the offsets of the data file whose byte changed (or is gone)
     * @param damagedKeys the keys whose record bytes changed (closed stores only)
     */
    record Damaged(Built built, String description, Map<Path, Boolean> changedFiles, List<Long> dataChanges,
            List<ByteBuffer> damagedKeys) {
        /**
         * @return true when the records, the header copy in use and the redo log are as built: nothing changed, or
         *     only {@code FILE.idx} (a copy of the index, checked by its CRC) or the older header copy did
         */
        boolean intact() {
            for (Map.Entry<Path, Boolean> e : changedFiles.entrySet()) {
                if (e.getValue() && !e.getKey().equals(built.file) && !e.getKey().equals(built.index())) {
                    return false;
                }
            }
            long older = built.olderHeaderCopy;
            for (long at : dataChanges) {
                if (older < 0 || at < older || at >= older + Header.SIZE) {
                    return false;
                }
            }
            return true;
        }

        /**
         * @return true when every change is one no check can see: the padding of live records or the bodies of
         *     holes (neither is covered by a CRC) in a closed store, or garbage past the data end
         */
        boolean onlyNotChecked() {
            for (Map.Entry<Path, Boolean> e : changedFiles.entrySet()) {
                if (e.getValue() && !e.getKey().equals(built.file)) {
                    return false;
                }
            }
            if (!built.spec.clean()) {
                return dataChanges.isEmpty();
            }
            long end = built.slots.isEmpty() ? Slots.DATA_START : built.slots.getLast().offset
                    + built.slots.getLast().length;
            for (long at : dataChanges) {
                boolean unchecked = at >= end;
                for (Slot s : built.slots) {
                    long checkedEnd = s.type == Slots.LIVE ? s.bodyEnd() : s.offset + Slots.HEADER;
                    unchecked |= at >= checkedEnd && at < s.offset + s.length;
                }
                if (!unchecked) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return description + " [" + built.spec + ", " + built.finalState.size() + " live keys]";
        }
    }

    /** What {@code verify} returned or threw. */
    record Reported(StoreReport report, Throwable error) {
    }

    /**
     * What an open, a get of every key, a scan and {@code size()} returned.
     *
     * @param openError what open threw (nothing else ran), or null
     * @param got the value each key's get returned (null: absent), for the gets that returned
     * @param getErrors what each other get threw
     * @param scanned what the scan returned, when it completed
     * @param scanError what the scan threw, or null
     * @param size {@code size()}
     * @param closeError what close threw, or null
     */
    record Reads(Throwable openError, Map<ByteBuffer, byte[]> got, Map<ByteBuffer, Throwable> getErrors,
            Map<ByteBuffer, byte[]> scanned, Throwable scanError, long size, Throwable closeError) {
        List<Throwable> errors() {
            List<Throwable> all = new ArrayList<>();
            if (openError != null) {
                all.add(openError);
            }
            all.addAll(getErrors.values());
            if (scanError != null) {
                all.add(scanError);
            }
            if (closeError != null) {
                all.add(closeError);
            }
            return all;
        }

        Throwable corruption() {
            return errors().stream().filter(StoreCorruptedException.class::isInstance).findFirst().orElse(null);
        }

        Throwable otherError() {
            return errors().stream().filter(t -> !(t instanceof StoreCorruptedException)).findFirst().orElse(null);
        }
    }

    // ------------------------------------------------------------------------------------------ checks

    private static Reported verify(Built b) {
        try {
            return new Reported(Store.verify(b.file), null);
        } catch (Throwable t) {
            return new Reported(null, t);
        }
    }

    private static Reads readAll(Built b, StoreOptions options) {
        Map<ByteBuffer, byte[]> got = new HashMap<>();
        Map<ByteBuffer, Throwable> getErrors = new HashMap<>();
        Store s;
        try {
            s = Store.open(b.file, options);
        } catch (Throwable t) {
            return new Reads(t, got, getErrors, null, null, -1, null);
        }
        Map<ByteBuffer, byte[]> scanned = null;
        Throwable scanError = null;
        long size = -1;
        Throwable closeError = null;
        try {
            for (ByteBuffer k : b.keys) {
                try {
                    got.put(k, s.get(k.array()));
                } catch (Throwable t) {
                    getErrors.put(k, t);
                }
            }
            try {
                Map<ByteBuffer, byte[]> out = new HashMap<>();
                s.scan((k, v) -> {
                    byte[] kb = new byte[k.remaining()];
                    k.get(kb);
                    byte[] vb = new byte[v.remaining()];
                    v.get(vb);
                    if (out.put(ByteBuffer.wrap(kb), vb) != null) {
                        throw new AssertionError("scan returned key " + hex(ByteBuffer.wrap(kb)) + " twice");
                    }
                });
                scanned = out;
            } catch (Throwable t) {
                scanError = t;
            }
            size = s.size();
        } finally {
            try {
                s.close();
            } catch (Throwable t) {
                closeError = t;
            }
        }
        return new Reads(null, got, getErrors, scanned, scanError, size, closeError);
    }

    /** Fails unless every error is a typed one and every value returned is one the oracle allows. */
    private static void checkReads(Damaged d, Reads r, String what) {
        Built b = d.built;
        for (Throwable t : r.errors()) {
            assertTypedError(d, what, t);
        }
        for (Map.Entry<ByteBuffer, byte[]> e : r.got.entrySet()) {
            checkValue(d, what + ": get", e.getKey(), e.getValue());
        }
        if (r.scanned != null) {
            for (Map.Entry<ByteBuffer, byte[]> e : r.scanned.entrySet()) {
                assertTrue(b.history.containsKey(e.getKey()), d + ": " + what + ": scan returned key "
                        + hex(e.getKey()) + ", never put");
                checkValue(d, what + ": scan", e.getKey(), e.getValue());
            }
        }
        if (d.intact()) {
            assertTrue(r.errors().isEmpty(), d + ": " + what + " of an undamaged store threw " + r.errors());
            assertTrue(b.finals.stream().anyMatch(f -> f.keySet().equals(r.scanned.keySet())), d + ": " + what
                    + ": the keys of an undamaged store: " + r.scanned.size() + ", expected " + b.finalState.size());
        }
    }

    /** A value (null: absent) returned for {@code key}: one it held; if closed, its final one. */
    private static void checkValue(Damaged d, String what, ByteBuffer key, byte[] value) {
        Built b = d.built;
        boolean strict = b.spec.clean() || d.intact();
        byte[] last = b.finalState.get(key);
        if (strict) {
            if (value == null && last != null && d.damagedKeys.contains(key) && !d.intact()) {
                return;
            }
            for (Map<ByteBuffer, byte[]> f : b.finals) {
                byte[] end = f.get(key);
                if (value == null ? end == null : Arrays.equals(value, end)) {
                    return;
                }
            }
            fail(d + ": " + what + " of key " + hex(key) + " returned " + describe(value) + ", its final value is "
                    + describe(last));
        }
        for (byte[] held : b.history.get(key)) {
            if (value == null ? held == null : Arrays.equals(value, held)) {
                return;
            }
        }
        fail(d + ": " + what + " of key " + hex(key) + " returned " + describe(value) + ", a value it never held ("
                + b.history.get(key).size() + " states)");
    }

    private static String describe(byte[] value) {
        return value == null ? "absent" : value.length + " bytes";
    }

    /**
     * Fails unless {@code t} is null or an {@link IolabException} with a one-line message; a
     * {@link StoreCorruptedException} must name a file of the store and its offset.
     */
    private static void assertTypedError(Damaged d, String what, Throwable t) {
        if (t == null) {
            return;
        }
        if (!(t instanceof IolabException)) {
            throw new AssertionError(d + ": " + what + " threw " + t + ", not an IolabException", t);
        }
        String m = t.getMessage();
        if (m == null || m.isBlank() || m.contains("\n")) {
            throw new AssertionError(d + ": " + what + " threw an exception without a one-line message: " + t, t);
        }
        if (t instanceof StoreCorruptedException e) {
            if (!m.contains(e.file().toString()) || !m.contains("offset " + e.offset()) || e.offset() < 0
                    || !e.file().startsWith(d.built.file.getParent())) {
                throw new AssertionError(d + ": " + what + ": the message does not name a file of the store and"
                        + " the offset: " + m, t);
            }
        }
    }

    /**
     * Puts a new key, deletes a surviving one and compacts, closes, reopens: both took; verify stays clean.
     */
    private static void writeAndReopen(Built b, Damaged d, Map<ByteBuffer, byte[]> survivors) {
        byte[] newKey = "after-repair".getBytes(StandardCharsets.UTF_8);
        byte[] newValue = new byte[300];
        new SplittableRandom(b.spec.seed).nextBytes(newValue);
        ByteBuffer gone = survivors.keySet().stream().findFirst().orElse(null);
        CorruptionCases.within("put + delete after repair of " + d, () -> {
            try (Store s = Store.open(b.file, b.options)) {
                s.put(newKey, newValue);
                if (gone != null) {
                    assertTrue(s.contains(gone.array()), d + ": contains of a key the scan returned");
                    assertTrue(s.delete(gone.array()) >= 0, d + ": delete of a key the scan returned");
                }
                // compaction reads every record the index holds: none may be damaged after a repair
                assertEquals(survivors.size() + 1 - (gone == null ? 0 : 1), s.compact().records(),
                        d + ": records compacted");
            }
            return null;
        });
        Reads again = CorruptionCases.within("reopen after put + delete of " + d, () -> readAll(b, b.options));
        assertTrue(again.errors().isEmpty(), d + ": reopen after repair, put and delete threw " + again.errors());
        try (Store s = CorruptionCases.within("reopen of " + d, () -> Store.open(b.file, b.options))) {
            assertArrayEquals(newValue, s.get(newKey), d + ": the put after repair");
            if (gone != null) {
                assertEquals(null, s.get(gone.array()), d + ": the delete after repair");
            }
            assertEquals(survivors.size() + 1 - (gone == null ? 0 : 1), s.size(), d + ": records after put + delete");
        }
        StoreReport report = CorruptionCases.within("verify after put + delete of " + d, () -> Store.verify(b.file));
        assertTrue(report.ok(), d + ": verify after repair, put and delete: " + report.problems());
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static byte[] le(int n, int value) {
        ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
        return Arrays.copyOf(b.array(), n);
    }

    /** @return the data file, FILE.idx and the redo segments that exist, in that order */
    private static List<Path> storeFiles(Path file) {
        List<Path> out = new ArrayList<>();
        out.add(file);
        if (Files.exists(IndexFile.of(file))) {
            out.add(IndexFile.of(file));
        }
        Path wal = file.resolveSibling(file.getFileName() + ".wal");
        if (Files.isDirectory(wal)) {
            try (Stream<Path> s = Files.list(wal)) {
                out.addAll(s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** Copies the files of a store that is open (and idle) to {@code to}: what a kill -9 would leave. */
    private static void copyStore(Path from, Path to) {
        try {
            for (Path f : storeFiles(from)) {
                // same file names: only the folder differs
                Path dest = to.getParent().resolve(from.getParent().relativize(f));
                Files.createDirectories(dest.getParent());
                Files.copy(f, dest);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
