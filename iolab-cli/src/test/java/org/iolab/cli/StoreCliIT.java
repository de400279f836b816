package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.iolab.cli.JournalCliIT.Child;
import org.iolab.cli.JournalCliIT.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code iolab store ...} from target/iolab.jar as child processes, SIGKILL included. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StoreCliIT {
    private static Run iolab(String stdin, String... args) throws Exception {
        return JournalCliIT.iolab(stdin, args);
    }

    private static void assertUserError(Run r, String offending) {
        String all = r.out() + r.err();
        assertEquals(2, r.exit(), all);
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.getFirst().startsWith("iolab: "), lines.getFirst());
        assertTrue(lines.getFirst().contains(offending), "names '" + offending + "': " + lines.getFirst());
        assertFalse(all.contains("Exception"), all);
        assertFalse(all.contains("\tat "), all);
    }

    private static String puts(int from, int to, String suffix) {
        return IntStream.range(from, to).mapToObj(i -> "key-" + i + "\tvalue-" + i + suffix + "\n")
                .collect(Collectors.joining());
    }

    private static String oks(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "ok key-" + i + "\n").collect(Collectors.joining());
    }

    @Test
    void aFileThatIsNotAStoreIsRefusedAndLeftAsItWas(@TempDir Path tmp) throws Exception {
        // get, dump, stats and compact recreated a short file as an empty store, and repair cut a long one to 4 KiB
        Path text = tmp.resolve("passwd");
        byte[] content = "root:x:0:0:root:/root:/bin/bash\n".repeat(20).getBytes(StandardCharsets.US_ASCII);
        Files.write(text, content);
        for (List<String> args : List.of(List.of("get", text.toString(), "root"), List.of("dump", text.toString()),
                List.of("stats", text.toString()), List.of("compact", text.toString()),
                List.of("repair", text.toString()))) {
            List<String> all = new ArrayList<>(List.of("store"));
            all.addAll(args);
            Run r = iolab("", all.toArray(String[]::new));
            assertUserError(r, text.toString());
            assertTrue(r.err().contains("the file is unchanged"), r.err());
            assertEquals(new String(content, StandardCharsets.US_ASCII),
                    Files.readString(text, StandardCharsets.US_ASCII), "store " + args.getFirst() + " changed it");
        }
        // verify's advice names what repair needs for such a file (it said "run 'iolab store repair'", which refuses)
        Path longer = Files.write(tmp.resolve("passwd-long"), (new String(content, StandardCharsets.US_ASCII)
                .repeat(10)).getBytes(StandardCharsets.US_ASCII)); // past a header page: verify reads it
        Run verify = iolab("", "store", "verify", longer.toString());
        assertEquals(1, verify.exit(), verify.out() + verify.err());
        assertTrue(verify.out().contains("does not begin as a store") && verify.out().contains(
                "'iolab store repair --force " + longer + "'"), verify.out());
        Run forced = iolab("", "store", "repair", text.toString(), "--force");
        assertEquals(0, forced.exit(), forced.err());
        assertTrue(forced.out().contains("kept 0 live records"), forced.out());
    }

    @Test
    void aFileOfZerosIsNotMadeAStoreByAReadingCommand(@TempDir Path tmp) throws Exception {
        // get recovered it as an interrupted creation: "not closed cleanly", then the file was a 4 KiB store
        Path image = Files.write(tmp.resolve("disk.img"), new byte[1 << 20]);
        for (List<String> args : List.of(List.of("get", image.toString(), "k"), List.of("dump", image.toString()),
                List.of("stats", image.toString()))) {
            List<String> all = new ArrayList<>(List.of("store"));
            all.addAll(args);
            Run r = iolab("", all.toArray(String[]::new));
            assertUserError(r, image.toString());
            assertTrue(r.err().contains("holds only zeros") && r.err().contains("the file is unchanged"), r.err());
            assertFalse(r.err().contains("not closed cleanly"), r.err());
            assertEquals(1 << 20, Files.size(image), "store " + args.getFirst() + " changed its size");
            assertArrayEquals(new byte[1 << 20], Files.readAllBytes(image), "store " + args.getFirst() + " wrote it");
            assertFalse(Files.exists(tmp.resolve("disk.img.lock")), "store " + args.getFirst() + " left its lock");
        }
        // repair refuses a zero page followed by data with no record in it, and says that (it said the header page
        // "holds other data")
        byte[] noise = new byte[8192];
        new Random(7).nextBytes(noise);
        Path zeroThenNoise = Files.write(tmp.resolve("zero-then-noise"), java.nio.ByteBuffer.allocate(4096 + 8192)
                .put(4096, noise).array());
        Run refused = iolab("", "store", "repair", zeroThenNoise.toString());
        assertUserError(refused, zeroThenNoise.toString());
        assertTrue(refused.err().contains("its header page (the first 4096 bytes) is zeros, and no record checks out")
                && refused.err().contains("the file is unchanged"), refused.err());
        assertEquals(4096 + 8192, Files.size(zeroThenNoise));
        // a load makes it a store, as the message says
        Run load = iolab("k\tv\n", "store", "load", image.toString());
        assertEquals("ok k\n", load.out(), load.err());
        assertEquals("v\n", iolab("", "store", "get", image.toString(), "k").out());
    }

    /** 'journal read' of a store's empty redo log said "open it for writing first", which the journal refuses. */
    @Test
    void readingAStoresEmptyRedoLogPointsAtTheStore(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("s.store");
        assertEquals(0, iolab(puts(0, 10, ""), "store", "load", file.toString(), "--durability", "batch").exit());
        Path wal = tmp.resolve("s.store.wal");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(wal), "the close left the log's folder");
        Run read = iolab("", "journal", "read", wal.toString());
        assertUserError(read, wal.toString());
        assertTrue(read.err().contains("is the redo log of store " + file) && read.err().contains(
                "'iolab store dump " + file + "'") && !read.err().contains("open it for writing"), read.err());
    }

    @Test
    void theEmptyKeyIsPutAndDeletedLikeAnyOther(@TempDir Path tmp) throws Exception {
        // a line '\tVALUE' put it, and '-' alone was refused: the empty key could not be deleted
        Path file = tmp.resolve("s.store");
        Run put = iolab("\tempty\nk\tv\n", "store", "load", file.toString());
        assertEquals("ok \nok k\n", put.out(), put.err());
        assertEquals("empty\n", iolab("", "store", "dump", file.toString()).out().lines()
                .filter(l -> l.startsWith("\t")).map(l -> l.substring(1) + "\n").findFirst().orElse(""));
        Run delete = iolab("-\n", "store", "load", file.toString());
        assertEquals(0, delete.exit(), delete.err());
        assertEquals("ok \n", delete.out());
        assertEquals("k\tv\n", iolab("", "store", "dump", file.toString()).out());
    }

    @Test
    void aLoadThatFailsBeforeItsFirstLineLeavesNoStoreAndLaterFailuresNameTheirLine(@TempDir Path tmp)
            throws Exception {
        Path file = tmp.resolve("new/sub/fresh.store"); // missing folders are created, as for journal append
        Run bad = iolab("notab\n", "store", "load", file.toString());
        assertUserError(bad, "line 1");
        // nor the folders made for it (as journal append removes its own)
        assertFalse(Files.exists(tmp.resolve("new")), "a failed load left files or folders behind");
        String longKey = "k".repeat(70_000);
        Run late = iolab("a\t1\n" + longKey + "\tv\n", "store", "load", file.toString());
        assertUserError(late, "line 2");
        assertTrue(late.err().contains("too long"), late.err());
        assertEquals("ok a\n", late.out());
        Run get = iolab("", "store", "get", file.toString(), "a");
        assertEquals("1\n", get.out(), get.err());
    }

    @Test
    void loadGetDumpDeleteAtEveryDurability(@TempDir Path tmp) throws Exception {
        for (String level : List.of("none", "batch", "always")) {
            Path file = tmp.resolve(level + ".store");
            Run load = iolab(puts(0, 50, ""), "store", "load", file.toString(), "--durability", level);
            assertEquals(0, load.exit(), load.err());
            assertEquals(oks(0, 50), load.out());
            Run update = iolab("key-3\tnew\n-key-4\n-absent\n", "store", "load", file.toString(),
                    "--durability", level);
            assertEquals(0, update.exit(), update.err());
            assertEquals("ok key-3\nok key-4\nok absent\n", update.out());
            Run get = iolab("", "store", "get", file.toString(), "key-3");
            assertEquals(0, get.exit(), get.err());
            assertEquals("new\n", get.out());
            Run missing = iolab("", "store", "get", file.toString(), "key-4");
            assertEquals(1, missing.exit());
            assertEquals("", missing.out());
            Run dump = iolab("", "store", "dump", file.toString());
            assertEquals(0, dump.exit(), dump.err());
            List<String> lines = dump.out().lines().sorted().toList();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                if (i != 4) {
                    expected.add("key-" + i + "\t" + (i == 3 ? "new" : "value-" + i));
                }
            }
            assertEquals(expected.stream().sorted().toList(), lines);
            Run stats = iolab("", "store", "stats", file.toString());
            assertEquals(0, stats.exit(), stats.err());
            assertTrue(stats.out().contains("live records:   49"), stats.out());
            assertEquals(0, iolab("", "store", "verify", file.toString()).exit());
        }
    }

    /** get, dump and stats open the store read-only: they leave every byte of its files as it was. */
    @Test
    void readingCommandsWriteNothing(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("s.store");
        assertEquals(0, iolab(puts(0, 300, "") + "-key-7\n", "store", "load", file.toString()).exit());
        java.util.function.Supplier<Map<String, String>> files = () -> {
            Map<String, String> all = new java.util.TreeMap<>();
            try (java.util.stream.Stream<Path> walk = Files.walk(tmp)) {
                for (Path p : walk.filter(Files::isRegularFile).toList()) {
                    all.put(tmp.relativize(p).toString(), java.util.HexFormat.of().formatHex(Files.readAllBytes(p))
                            + " " + Files.getLastModifiedTime(p));
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return all;
        };
        Map<String, String> before = files.get();
        Run get = iolab("", "store", "get", file.toString(), "key-8");
        assertEquals("value-8\n", get.out(), get.err());
        assertEquals("", get.err());
        Run dump = iolab("", "store", "dump", file.toString());
        assertEquals(299, dump.out().lines().count(), dump.err());
        Run stats = iolab("", "store", "stats", file.toString());
        assertTrue(stats.out().contains("live records:   299"), stats.out());
        assertEquals(before, files.get(), "a reading command changed the store's files");
        // they share the lock with other readers (this JVM's, here), and a writer waits for them all
        try (org.iolab.store.Store reader = org.iolab.store.Store.openReadOnly(file,
                org.iolab.store.StoreOptions.defaults())) {
            Run whileRead = iolab("", "store", "get", file.toString(), "key-9");
            assertEquals("value-9\n", whileRead.out(), whileRead.err());
            Run writer = iolab("key-9\tchanged\n", "store", "load", file.toString());
            assertUserError(writer, file.toString());
            assertTrue(writer.err().contains("already open"), writer.err());
            assertArrayEquals("value-9".getBytes(StandardCharsets.UTF_8), reader.get("key-9".getBytes(
                    StandardCharsets.UTF_8)));
        }
    }

    @Test
    void deletingHalfAndReloadingReusesTheSpace(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("s");
        assertEquals(0, iolab(puts(0, 2000, "-xxxxxxxx"), "store", "load", file.toString()).exit());
        long size = Files.size(file);
        String deletes = IntStream.range(0, 2000).filter(i -> i % 2 == 0).mapToObj(i -> "-key-" + i + "\n")
                .collect(Collectors.joining());
        assertEquals(0, iolab(deletes, "store", "load", file.toString()).exit());
        String holes = iolab("", "store", "stats", file.toString()).out().lines()
                .filter(l -> l.startsWith("holes:")).findFirst().orElseThrow().substring("holes:".length()).trim();
        assertTrue(Long.parseLong(holes) > 0, "the deletes left holes: " + holes);
        String reinsert = IntStream.range(0, 2000).filter(i -> i % 2 == 0)
                .mapToObj(i -> "key-" + i + "\tvalue-" + i + "-yyyyyyyy\n").collect(Collectors.joining());
        assertEquals(0, iolab(reinsert, "store", "load", file.toString()).exit());
        assertEquals(size, Files.size(file), "the reinserted records reuse the freed space");
        Run compact = iolab("", "store", "compact", file.toString());
        assertEquals(0, compact.exit(), compact.err());
        assertEquals(2000, iolab("", "store", "dump", file.toString()).out().lines().count());
    }

    @Test
    void badInputIsOneLineAndExitTwo(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("s");
        Run bad = iolab("a\t1\nnot a command\nb\t2\n", "store", "load", file.toString());
        assertUserError(bad, "line 2");
        assertEquals("ok a\n", bad.out(), "the line before the bad one was applied and acknowledged");
        assertEquals("1\n", iolab("", "store", "get", file.toString(), "a").out());
        assertUserError(iolab("", "store", "get", tmp.resolve("missing").toString(), "a"), "missing");
        assertUserError(iolab("", "store", "dump", tmp.toString()), "directory");
        assertUserError(iolab("", "store", "load", file.toString(), "--durability", "sometimes"), "sometimes");
        Files.write(tmp.resolve("garbage"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
        Run garbage = iolab("", "store", "get", tmp.resolve("garbage").toString(), "a");
        assertFalse(garbage.exit() == 0, garbage.out());
        assertFalse((garbage.out() + garbage.err()).contains("\tat "), garbage.err());
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, Files.readAllBytes(tmp.resolve("garbage")));
        // a command without its subcommand: the usage on standard error, and a usage error's exit code
        for (String[] args : new String[][] {{}, {"store"}, {"journal"}}) {
            Run bare = iolab("", args);
            assertEquals(2, bare.exit(), String.join(" ", args));
            assertEquals("", bare.out());
            assertTrue(bare.err().startsWith("Usage: iolab"), bare.err());
        }
    }

    @Test
    void verifyFindsAFlippedByte(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("s");
        assertEquals(0, iolab(puts(0, 300, ""), "store", "load", file.toString()).exit());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long at = 4096 + 3000;
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, at);
            ch.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ 0x20)}), at);
        }
        // dump prints the records before the damaged one, then the error (the buffered lines were lost with it)
        Run dump = iolab("", "store", "dump", file.toString());
        assertEquals(1, dump.exit(), "damaged data, not a bad argument: " + dump.err());
        assertTrue(dump.err().contains("offset"), dump.err());
        long before = dump.out().lines().count();
        assertTrue(before > 0 && before < 300, before + " records printed");
        assertTrue(dump.out().lines().allMatch(l -> l.matches("key-(\\d+)\tvalue-\\1")), dump.out());
        // get tells a damaged record from an absent key: 2 (an error) against 1
        Run damaged = iolab("", "store", "get", file.toString(), "key-" + before);
        assertEquals(2, damaged.exit(), damaged.out() + damaged.err());
        assertTrue(damaged.err().contains(file.toString()) && damaged.err().contains("offset"), damaged.err());
        assertEquals(1, iolab("", "store", "get", file.toString(), "no-such-key").exit());
        Run verify = iolab("", "store", "verify", file.toString());
        assertEquals(1, verify.exit(), verify.out());
        assertTrue(verify.out().contains(file.toString()) && verify.out().contains("offset"), verify.out());
        Run repair = iolab("", "store", "repair", file.toString());
        assertEquals(0, repair.exit(), repair.err());
        assertTrue(repair.out().contains("dropped"), repair.out());
        assertEquals(0, iolab("", "store", "verify", file.toString()).exit());
        long kept = iolab("", "store", "dump", file.toString()).out().lines().count();
        assertTrue(kept >= 290 && kept < 300, "only the damaged records are dropped: " + kept);
    }

    /** @return the store's contents, read through the library (the open recovers, as the CLI's would) */
    private static Map<String, String> contents(Path file) {
        Map<String, String> out = new HashMap<>();
        try (org.iolab.store.Store s = org.iolab.store.Store.open(file, org.iolab.store.StoreOptions.defaults())) {
            s.scan((k, v) -> out.put(StandardCharsets.UTF_8.decode(k).toString(),
                    StandardCharsets.UTF_8.decode(v).toString()));
        }
        return out;
    }

    /**
     * SIGKILLs {@code store load} after a random number of acknowledgments: the store holds every acknowledged
     * operation and is the acknowledged state or a later prefix of the input. One JVM per round: the recovery is
     * the library's open; the last round of each level recovers through {@code store dump} and checks
     * {@code store verify}, so the CLI's own path stays covered.
     */
    @Test
    void killedLoadersLoseNoAcknowledgedOperation(@TempDir Path tmp) throws Exception {
        Random random = new Random(20261123L);
        int rounds = 0;
        int unacknowledgedApplied = 0; // rounds whose kill came after an operation was written, before its ack
        final int perLevel = 8;
        for (String level : List.of("always", "batch")) {
            // a time bound per level: on a loaded machine the first level must not leave the second no round
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Path file = tmp.resolve(level + ".store");
            Map<String, String> model = new HashMap<>();
            int next = 0;
            for (int round = 0; round < perLevel && System.nanoTime() < deadline; round++, rounds++) {
                final int start = next;
                List<String> inputs = new ArrayList<>();
                for (int i = start; i < start + 200_000; i++) {
                    int k = random.nextInt(5000);
                    inputs.add(i % 7 == 3 ? "-k" + k : "k" + k + "\tv" + i);
                }
                List<String> acked;
                try (Child child = new Child("store", "load", file.toString(), "--durability", level)) {
                    Thread feeder = Thread.ofPlatform().daemon().start(() -> {
                        try (OutputStream in = child.process.getOutputStream()) {
                            for (int i = 0; i < inputs.size(); i++) {
                                in.write((inputs.get(i) + "\n").getBytes(StandardCharsets.UTF_8));
                                if (i % 64 == 0) {
                                    in.flush();
                                }
                            }
                        } catch (IOException e) {
                            // killed
                        }
                    });
                    // kill after a random number of acknowledgments (the loader is busy then), or after 2 s
                    acked = child.killAfter(1 + random.nextInt(level.equals("always") ? 60 : 4000),
                            level + " round " + round, feeder);
                }
                // acks come in input order: the first acked.size() operations are durable
                for (int i = 0; i < acked.size(); i++) {
                    String op = inputs.get(i);
                    String key = op.startsWith("-") ? op.substring(1) : op.substring(0, op.indexOf('\t'));
                    assertEquals("ok " + key, acked.get(i), level + " round " + round + ": ack " + i);
                    if (op.startsWith("-")) {
                        model.remove(key);
                    } else {
                        model.put(key, op.substring(op.indexOf('\t') + 1));
                    }
                }
                boolean last = round == perLevel - 1 || System.nanoTime() > deadline - TimeUnit.SECONDS.toNanos(8);
                Map<String, String> found;
                if (last) {
                    Run dump = iolab("", "store", "dump", file.toString());
                    assertEquals(0, dump.exit(), dump.err());
                    found = new HashMap<>();
                    for (String l : dump.out().lines().toList()) {
                        found.put(l.substring(0, l.indexOf('\t')), l.substring(l.indexOf('\t') + 1));
                    }
                } else {
                    found = contents(file);
                }
                // operations after the last ack may or may not have survived: replay the rest of the input
                // prefix that explains the store, if any, else the acked model must match exactly
                Map<String, String> expect = new HashMap<>(model);
                boolean matched = expect.equals(found);
                int extra = 0;
                for (int i = acked.size(); !matched && i < Math.min(inputs.size(), acked.size() + 20_000); i++) {
                    String op = inputs.get(i);
                    if (op.startsWith("-")) {
                        expect.remove(op.substring(1));
                    } else {
                        expect.put(op.substring(0, op.indexOf('\t')), op.substring(op.indexOf('\t') + 1));
                    }
                    matched = expect.equals(found);
                    extra = i + 1 - acked.size();
                }
                assertTrue(matched, level + " round " + round + ": the store (" + found.size()
                        + " keys) is not the acknowledged state or a later prefix of the input");
                if (extra > 0) {
                    unacknowledgedApplied++;
                }
                model = found;
                if (last) {
                    assertEquals(0, iolab("", "store", "verify", file.toString()).exit());
                    break;
                }
                assertTrue(org.iolab.store.Store.verify(file).ok(), level + " round " + round);
                next = start + inputs.size();
            }
        }
        assertTrue(rounds >= 8, "rounds within the time bound: " + rounds);
        assertTrue(unacknowledgedApplied >= rounds / 4, "a kill came between a write and its acknowledgment in"
                + " only " + unacknowledgedApplied + " of " + rounds + " rounds");
    }
}
