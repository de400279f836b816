package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.iolab.catalogue.Preallocation;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;

/**
 * Randomized, seeded stress of {@link Journal#repair}: build, close, damage (1-3 times), maybe append with ALWAYS,
 * repair (maybe twice, maybe with more damage between), then check the invariants. Runs about
 * {@code -Dprobe.seconds} (10) seconds; {@code -Dprobe.seed=HEX} reruns one round; {@code -Dprobe.runSeed=HEX} repeats
 * a run. Every failure prints its round seed.
 */
class JournalRepairStressTest {
    private static final int HEADER = 64;
    /** {@code -Dprobe.images=false}: no synthetic frame images of sequences near the record's own. */
    static final boolean IMAGES = !"false".equals(System.getProperty("probe.images"));
    private static final Backend[] BACKENDS = {Backend.SEGMENT, Backend.CHANNEL_HEAP, Backend.MAPPED};

    @Test
    void stress() throws Exception {
        String one = System.getProperty("probe.seed");
        if (one != null) {
            new Round(Long.parseUnsignedLong(one, 16), true).run();
            return;
        }
        long runSeed = System.getProperty("probe.runSeed") != null
                ? Long.parseUnsignedLong(System.getProperty("probe.runSeed"), 16) : System.nanoTime();
        long budget = Long.getLong("probe.seconds", 10) * 1_000_000_000L;
        long start = System.nanoTime();
        SplittableRandom seeds = new SplittableRandom(runSeed);
        int rounds = 0;
        int passed = 0;
        Map<String, List<String>> failures = new TreeMap<>();
        while (System.nanoTime() - start < budget) {
            long seed = seeds.nextLong();
            rounds++;
            try {
                new Round(seed, false).run();
                passed++;
            } catch (Throwable t) {
                Throwable c = t.getCause() != null ? t.getCause() : t;
                String kind = c.getMessage() == null ? c.getClass().getName()
                        : c.getClass().getSimpleName() + ": " + c.getMessage().replaceAll("[0-9]+", "#");
                kind = kind.length() > 90 ? kind.substring(0, 90) : kind;
                failures.computeIfAbsent(kind, k -> new ArrayList<>()).add(Long.toHexString(seed));
                System.out.println("FAILED seed " + Long.toHexString(seed) + ": " + c);
                if (!(t instanceof AssertionError)) {
                    t.printStackTrace(System.out);
                }
            }
        }
        System.out.println("JournalRepairStressTest: run seed " + Long.toHexString(runSeed) + ", " + rounds + " rounds, "
                + passed + " passed");
        failures.forEach((k, v) -> System.out.println("  " + v.size() + "x " + k + "  seeds " + v.subList(0,
                Math.min(8, v.size()))));
        assertEquals(rounds, passed, "failed rounds (see seeds above)");
    }

    /** One frame found by a chain walk: where, its sequence. */
    record Frame(long offset, long seq, int length) {
    }

    static final class Round {
        final long seed;
        final boolean verbose;
        final SplittableRandom rnd;
        final Path dir;
        JournalOptions options;
        /** Every acknowledged sequence and the payload it was last acknowledged with. */
        final Map<Long, byte[]> expected = new HashMap<>();
        /** Sequences whose file some damage touched (they may be lost). */
        final Set<Long> touched = new HashSet<>();
        long maxAcked = -1;
        /**
         * Whether a damage left the last two segments without the means to tell their synced records (the sequences
         * of those may come back, by design): one no longer than its header (an interrupted creation, as the open
         * sees it), one whose header words outside the header's CRC (markers, seal, synced mark) changed, or a last
         * one with no record whose header was damaged.
         */
        boolean shortLast;
        final StringBuilder log = new StringBuilder();

        Round(long seed, boolean verbose) throws IOException {
            this.seed = seed;
            this.verbose = verbose;
            this.rnd = new SplittableRandom(seed);
            this.dir = Files.createTempDirectory("repair-probe");
        }

        void note(String s) {
            log.append(s).append('\n');
            if (verbose) {
                System.out.println(s);
            }
        }

        void run() throws Exception {
            try {
                body();
            } catch (Throwable t) {
                throw new AssertionError("seed " + Long.toHexString(seed) + ": " + t.getMessage() + "\n--- log:\n"
                        + log, t);
            } finally {
                deleteTree(dir);
            }
        }

        void body() throws Exception {
            long segSize = 4096 + 8L * rnd.nextInt((32768 - 4096) / 8 + 1);
            Preallocation pre = Preallocation.values()[rnd.nextInt(3)];
            Backend backend = BACKENDS[rnd.nextInt(BACKENDS.length)];
            options = JournalOptions.defaults().withBackend(backend).withSegmentSize(segSize)
                    .withPreallocation(pre).withDurability(Durability.NONE);
            int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 160);
            note("segment " + segSize + " " + pre + " " + backend + ", " + n + " records");
            try (Journal j = Journal.open(dir, options)) {
                for (int i = 0; i < n; i++) {
                    long cur = j.nextSequence();
                    byte[] p = payload(cur);
                    long s = j.append(p);
                    acked(s, p);
                }
            }
            note("segments " + segmentNames());
            int damages = 1 + rnd.nextInt(3);
            for (int i = 0; i < damages; i++) {
                damage();
            }
            if (rnd.nextInt(2) == 0) {
                appendAfterDamage();
            }
            repair("repair 1");
            int more = rnd.nextInt(4);
            if (more == 1) {
                repair("repair 1b");
            } else if (more >= 2) {
                int k = 1 + rnd.nextInt(2);
                for (int i = 0; i < k; i++) {
                    damage();
                }
                if (rnd.nextInt(3) == 0) {
                    appendAfterDamage();
                }
                repair("repair 2");
            }
            check();
        }

        void acked(long s, byte[] p) {
            expected.put(s, p);
            maxAcked = Math.max(maxAcked, s);
        }

        // ------------------------------------------------------------------------------------------ payloads

        byte[] payload(long cur) throws IOException {
            int kind = rnd.nextInt(10);
            if (kind < 6) {
                byte[] b = new byte[rnd.nextInt(4) == 0 ? rnd.nextInt(33) : rnd.nextInt(2049)];
                rnd.nextBytes(b);
                return b;
            } else if (kind < 8) {
                if (!IMAGES) {
                    byte[] b = new byte[rnd.nextInt(2049)];
                    rnd.nextBytes(b);
                    return b;
                }
                return syntheticImage(cur);
            } else {
                byte[] b = ownImage();
                return b != null ? b : IMAGES ? syntheticImage(cur) : new byte[0];
            }
        }

        /** Frames of sequences near {@code cur} (its own and those after included), with valid CRCs. */
        byte[] syntheticImage(long cur) {
            long s = Math.max(0, cur - 4 + rnd.nextInt(9));
            int count = 1 + rnd.nextInt(6);
            ByteBuffer out = ByteBuffer.allocate(2048 + 64).order(ByteOrder.LITTLE_ENDIAN);
            int prefix = rnd.nextInt(3) == 0 ? 8 * rnd.nextInt(20) : 0;
            byte[] pre = new byte[prefix];
            rnd.nextBytes(pre);
            out.put(pre);
            for (int i = 0; i < count; i++) {
                byte[] p = new byte[rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(200)];
                rnd.nextBytes(p);
                byte[] f = Frames.frame(s + i, p);
                if (out.position() + f.length > 2048) {
                    break;
                }
                out.put(f);
            }
            if (rnd.nextInt(4) == 0) {
                // something after the image (so it does not end the payload)
                byte[] t = new byte[1 + rnd.nextInt(40)];
                rnd.nextBytes(t);
                if (out.position() + t.length <= 2048) {
                    out.put(t);
                }
            }
            return Arrays.copyOf(out.array(), out.position());
        }

        /** A copy of the journal's own frames (a whole-frame slice of an existing segment), or null. */
        byte[] ownImage() throws IOException {
            List<Path> segs = segments();
            if (segs.isEmpty()) {
                return null;
            }
            Path f = segs.get(rnd.nextInt(segs.size()));
            byte[] bytes = Files.readAllBytes(f);
            List<Frame> frames = chain(bytes, Format.parseName(f));
            if (frames.isEmpty()) {
                return null;
            }
            int a = rnd.nextInt(frames.size());
            long from = frames.get(a).offset();
            long to = from;
            for (int i = a; i < frames.size(); i++) {
                long end = frames.get(i).offset() + Format.align(frames.get(i).length());
                if (end - from > 2048) {
                    break;
                }
                to = end;
                if (rnd.nextInt(3) == 0) {
                    break;
                }
            }
            if (to == from) {
                return null;
            }
            return Arrays.copyOfRange(bytes, (int) from, (int) to);
        }

        // ------------------------------------------------------------------------------------------ damage

        void damage() throws IOException {
            List<Path> segs = segments();
            if (segs.isEmpty()) {
                return;
            }
            Map<Path, byte[]> before = new HashMap<>();
            for (Path p : segs) {
                before.put(p, Files.readAllBytes(p));
            }
            int type = rnd.nextInt(6);
            Path f = segs.get(rnd.nextInt(segs.size()));
            byte[] b = before.get(f);
            List<Frame> frames = chain(b, Format.parseName(f));
            long dataEnd = frames.isEmpty() ? HEADER : frames.getLast().offset() + Format.align(frames.getLast()
                    .length());
            switch (type) {
                case 0 -> { // flip bytes
                    long at = rnd.nextInt(10) < 8 && dataEnd > HEADER ? HEADER + rnd.nextLong(dataEnd - HEADER)
                            : rnd.nextLong(Math.max(1, b.length));
                    int k = 1 + rnd.nextInt(4);
                    for (int i = 0; i < k && at + i < b.length; i++) {
                        Frames.writeAt(f, at + i, new byte[] {(byte) (b[(int) (at + i)] ^ (1 + rnd.nextInt(255)))});
                    }
                    note("damage: flip " + k + " bytes at " + at + " of " + f.getFileName());
                    if (f.equals(segs.getLast()) && at < Format.HEADER_SIZE && frames.isEmpty()
                            && !(segs.size() >= 2 && sealed(segs.get(segs.size() - 2)))) {
                        // a damaged header over no record: read as a creation a crash interrupted, deleted by the open.
                        // After a sealed segment it was synced whole before the seal: the open writes it again (an
                        // empty segment a repair made to go on in, named past what it cut, keeps its sequence)
                        shortLast = true;
                    }
                    if (segs.indexOf(f) >= segs.size() - 2 && at < Format.HEADER_SIZE
                            && at + k > Format.START_OFFSET) {
                        // the header words outside its CRC (markers, seal, synced mark) of one of the last two segments:
                        // without the mark or the seal their records read as a torn tail, which the open cuts (and
                        // hands their sequences out again), as after a crash; this format cannot tell
                        shortLast = true;
                    }
                }
                case 1 -> { // zero a range
                    long at = HEADER + rnd.nextLong(Math.max(1, dataEnd - HEADER));
                    int len = 1 + rnd.nextInt(600);
                    len = (int) Math.min(len, Math.max(0, b.length - at));
                    Frames.writeAt(f, at, new byte[len]);
                    note("damage: zero " + len + " bytes at " + at + " of " + f.getFileName());
                }
                case 2 -> { // truncate
                    long to = rnd.nextInt(5) == 0 ? rnd.nextLong(Math.max(1, b.length))
                            : HEADER + rnd.nextLong(Math.max(1, dataEnd - HEADER + 8));
                    if (rnd.nextBoolean()) {
                        to &= -8L;
                    }
                    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                        ch.truncate(to);
                    }
                    note("damage: truncate " + f.getFileName() + " to " + to);
                    if (to <= HEADER && segs.indexOf(f) >= segs.size() - 2) {
                        // no record left, and no header (or one that a later damage may break): the open takes it for
                        // a creation a crash interrupted (no record in it was durable) and deletes it, so its
                        // sequences are handed out again; no format can tell
                        shortLast = true;
                    }
                }
                case 3 -> { // delete a middle segment
                    if (segs.size() >= 3) {
                        f = segs.get(1 + rnd.nextInt(segs.size() - 2));
                        Files.delete(f);
                        note("damage: delete " + f.getFileName());
                    } else {
                        note("damage: (no middle segment to delete)");
                    }
                }
                case 4 -> { // garbage length
                    if (frames.isEmpty()) {
                        note("damage: (no frame for a garbage length)");
                        break;
                    }
                    Frame fr = frames.get(rnd.nextInt(frames.size()));
                    int len = switch (rnd.nextInt(4)) {
                        case 0 -> rnd.nextInt();
                        case 1 -> rnd.nextInt(16);
                        case 2 -> 16 + rnd.nextInt(b.length);
                        default -> fr.length() + 8 * (1 + rnd.nextInt(8)) * (rnd.nextBoolean() ? 1 : -1);
                    };
                    Frames.writeAt(f, fr.offset(), ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, len)
                            .array());
                    note("damage: length " + len + " at " + fr.offset() + " (seq " + fr.seq() + ") of "
                            + f.getFileName());
                }
                default -> { // junk after the data
                    long at = dataEnd + 8L * rnd.nextInt(4) + (rnd.nextBoolean() ? 0 : rnd.nextInt(8));
                    byte[] junk = new byte[1 + rnd.nextInt(100)];
                    rnd.nextBytes(junk);
                    if (rnd.nextInt(3) == 0 && !frames.isEmpty()) {
                        // a frame-looking junk, valid CRC, of a sequence after the next one (a frame of the next
                        // sequence right at the data's end would be a record, not junk)
                        long next = frames.getLast().seq() + 1;
                        junk = Frames.frame(next + 1 + rnd.nextInt(3), Arrays.copyOf(junk, rnd.nextInt(30)));
                        at = dataEnd;
                    }
                    Frames.writeAt(f, at, junk);
                    note("damage: " + junk.length + " junk bytes at " + at + " (data end " + dataEnd + ") of "
                            + f.getFileName());
                }
            }
            // every file the damage changed: the records its chain held may be lost
            for (Path p : segs) {
                byte[] was = before.get(p);
                byte[] now = Files.exists(p) ? Files.readAllBytes(p) : null;
                if (now == null || !Arrays.equals(was, now)) {
                    for (Frame fr : chain(was, Format.parseName(p))) {
                        touched.add(fr.seq());
                    }
                    note("  touched " + p.getFileName());
                }
            }
        }

        // ------------------------------------------------------------------------------------------ steps

        void appendAfterDamage() {
            JournalOptions always = options.withDurability(Durability.ALWAYS);
            try (Journal j = Journal.open(dir, always)) {
                int k = 1 + rnd.nextInt(30);
                long first = j.nextSequence();
                for (int i = 0; i < k; i++) {
                    long cur = j.nextSequence();
                    byte[] p = payload(cur);
                    long s = j.append(p);
                    if (s != cur) {
                        throw new AssertionError("append returned " + s + ", nextSequence said " + cur);
                    }
                    acked(s, p);
                    touched.remove(s);
                }
                note("appended (ALWAYS) " + first + ".." + (j.nextSequence() - 1) + "; segments " + segmentNames());
            } catch (JournalCorruptedException e) {
                note("writable open refused: " + e.getMessage());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void repair(String what) {
            List<String> steps = new ArrayList<>();
            VerifyReport r = Journal.repair(dir, steps::add);
            note(what + ": found " + r.problems());
            steps.forEach(s -> note("  " + s));
            note("  segments now " + segmentNames());
        }

        void check() throws IOException {
            VerifyReport v = Journal.verify(dir);
            if (!v.ok()) {
                throw new AssertionError("verify after repair: " + v.problems());
            }
            List<Record> rw = new ArrayList<>();
            long next;
            long first;
            try (Journal j = Journal.open(dir, options)) {
                first = j.firstSequence();
                next = j.nextSequence();
                try (JournalReader r = j.reader(first)) {
                    while (r.hasNext()) {
                        rw.add(r.next());
                    }
                }
            }
            note("read " + rw.size() + " records from " + first + ", nextSequence " + next);
            long prev = -1;
            Set<Long> present = new HashSet<>();
            for (Record rec : rw) {
                if (rec.sequence() <= prev) {
                    throw new AssertionError("sequence " + rec.sequence() + " after " + prev);
                }
                prev = rec.sequence();
                byte[] want = expected.get(rec.sequence());
                if (want == null) {
                    throw new AssertionError("record " + rec.sequence() + " was never acknowledged (fake)");
                }
                if (!Arrays.equals(want, rec.payload())) {
                    throw new AssertionError("record " + rec.sequence() + " has another payload than the one"
                            + " acknowledged (" + rec.payload().length + " bytes, expected " + want.length + ")");
                }
                present.add(rec.sequence());
            }
            List<Long> missing = new ArrayList<>();
            for (long s : expected.keySet()) {
                if (!touched.contains(s) && !present.contains(s)) {
                    missing.add(s);
                }
            }
            if (!missing.isEmpty()) {
                missing.sort(null);
                throw new AssertionError("lost records the damage did not touch: " + missing);
            }
            if (next <= maxAcked && !shortLast) {
                throw new AssertionError("the next append takes sequence " + next + ", at or below the acknowledged "
                        + maxAcked + ": a repair handed out again sequences it cut");
            }
            List<Record> ro = new ArrayList<>();
            try (Journal j = Journal.openReadOnly(dir, options)) {
                if (j.firstSequence() != first) {
                    throw new AssertionError("read-only firstSequence " + j.firstSequence() + " != " + first);
                }
                try (JournalReader r = j.reader(first)) {
                    while (r.hasNext()) {
                        ro.add(r.next());
                    }
                }
            }
            if (!ro.equals(rw)) {
                throw new AssertionError("read-only read " + ro.size() + " records, writable " + rw.size());
            }
            Map<String, byte[]> snap = snapshot();
            VerifyReport again = Journal.repair(dir);
            Map<String, byte[]> after = snapshot();
            if (!sameFiles(snap, after)) {
                throw new AssertionError("a repair of a repaired journal changed files: " + snap.keySet() + " -> "
                        + after.keySet() + " (found " + again.problems() + ")");
            }
        }

        // ------------------------------------------------------------------------------------------ files

        List<Path> segments() throws IOException {
            try (Stream<Path> s = Files.list(dir)) {
                return s.filter(p -> Format.parseName(p) >= 0).sorted(Comparator.comparing(Path::toString))
                        .toList();
            }
        }

        String segmentNames() {
            try {
                StringBuilder b = new StringBuilder();
                for (Path p : segments()) {
                    b.append(Format.parseName(p)).append('(').append(Files.size(p)).append(") ");
                }
                return b.toString();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Map<String, byte[]> snapshot() throws IOException {
            Map<String, byte[]> m = new TreeMap<>();
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    if (!p.getFileName().toString().equals("journal.lock")) {
                        m.put(p.getFileName().toString(), Files.readAllBytes(p));
                    }
                }
            }
            return m;
        }

        static boolean sameFiles(Map<String, byte[]> a, Map<String, byte[]> b) {
            if (!a.keySet().equals(b.keySet())) {
                return false;
            }
            for (String k : a.keySet()) {
                if (!Arrays.equals(a.get(k), b.get(k))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The chain of intact frames from the header's end, with consecutive sequences from the name's. */
    static List<Frame> chain(byte[] bytes, long firstSeq) {
        List<Frame> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long p = HEADER;
        long expected = firstSeq;
        while (p + Format.FRAME_HEADER <= bytes.length) {
            int len = b.getInt((int) p);
            if (len < Format.FRAME_HEADER || p + len > bytes.length || b.getLong((int) p + 8) != expected) {
                break;
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes, (int) p + 8, len - 8);
            if ((int) crc.getValue() != b.getInt((int) p + 4)) {
                break;
            }
            out.add(new Frame(p, expected, len));
            p += Format.align(len);
            expected++;
        }
        return out;
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }

    /** @return whether segment {@code f} carries its seal marker (read before this round's damage) */
    private static boolean sealed(Path f) throws IOException {
        byte[] b = Files.readAllBytes(f);
        return b.length >= Format.HEADER_SIZE && Format.sealed(java.nio.ByteBuffer.wrap(b, 0, Format.HEADER_SIZE)
                .slice().order(java.nio.ByteOrder.LITTLE_ENDIAN), Format.parseName(f));
    }
}
