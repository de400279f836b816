package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.iolab.cli.JournalCliIT.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records as lines in the journal and store commands (found by a review): {@code --escape} round trips of records
 * holding newlines, tabs, carriage returns and backslashes; a warning when output without it is ambiguous; lines
 * longer than any record; reading commands given an empty file; a reader of the acknowledgments that goes away.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CliLinesIT {
    private static Run iolab(String stdin, String... args) throws Exception {
        return JournalCliIT.iolab(stdin, args);
    }

    private static void assertOneLineError(Run r, int exit, String names) {
        assertEquals(exit, r.exit(), r.out() + r.err());
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.getFirst().startsWith("iolab: ") && lines.getFirst().contains(names), lines.getFirst());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    @Test
    void escapedDumpAndReadLoadBackExactlyAndPlainOutputWarnsWhenAmbiguous(@TempDir Path tmp) throws Exception {
        // keys and values with a tab, a newline, a carriage return and a backslash, written escaped
        String input = "a\\tb\t1\nk\tline1\\nline2\nr\tcr\\r\nback\\\\slash\tv\\\\\n";
        Path s1 = tmp.resolve("s1.store");
        Run load = iolab(input, "store", "load", s1.toString(), "--escape", "--durability", "none");
        assertEquals(0, load.exit(), load.err());
        assertEquals("ok a\\tb\nok k\nok r\nok back\\\\slash\n", load.out(), "keys escaped as read");
        Run dump = iolab("", "store", "dump", s1.toString(), "--escape");
        assertEquals(input, dump.out(), dump.err());
        Path s2 = tmp.resolve("s2.store");
        assertEquals(0, iolab(dump.out(), "store", "load", s2.toString(), "--escape", "--durability", "none").exit());
        assertEquals(input, iolab("", "store", "dump", s2.toString(), "--escape").out(), "the round trip");
        Run plain = iolab("", "store", "dump", s1.toString());
        assertEquals(0, plain.exit(), plain.err());
        assertTrue(plain.err().contains("use --escape"), plain.err());

        Path j = tmp.resolve("j");
        String records = "one\\ntwo\nthree\\\\\n";
        assertEquals("0\n1\n", iolab(records, "journal", "append", j.toString(), "--escape", "--durability", "none")
                .out());
        assertEquals(records, iolab("", "journal", "read", j.toString(), "--escape").out());
        Run raw = iolab("", "journal", "read", j.toString());
        assertEquals("one\ntwo\nthree\\\n", raw.out());
        assertTrue(raw.err().contains("record 0 holds a newline") && raw.err().contains("--escape"), raw.err());
        assertOneLineError(iolab("x\\q\n", "journal", "append", tmp.resolve("j2").toString(), "--escape"), 2,
                "line 1");
    }

    @Test
    void plainOutputWarnsOfAFinalCarriageReturnThatReadingBackWouldTakeForALineEnding(@TempDir Path tmp)
            throws Exception {
        Path s = tmp.resolve("cr.store");
        assertEquals(0, iolab("k\tcr\\r\n", "store", "load", s.toString(), "--escape", "--durability", "none")
                .exit());
        Run dump = iolab("", "store", "dump", s.toString());
        assertEquals("k\tcr\r\n", dump.out());
        assertTrue(dump.err().contains("carriage return") && dump.err().contains("--escape"), dump.err());
        Path j = tmp.resolve("crj");
        assertEquals("0\n", iolab("cr\\r\n", "journal", "append", j.toString(), "--escape", "--durability",
                "none").out());
        Run read = iolab("", "journal", "read", j.toString());
        assertEquals("cr\r\n", read.out());
        assertTrue(read.err().contains("record 0 ends in a carriage return"), read.err());
    }

    @Test
    void aLineLongerThanAnyRecordIsRefusedByNumberAndAFreshJournalIsNotLeftBehind(@TempDir Path tmp)
            throws Exception {
        Path j = tmp.resolve("newj");
        Run r = iolab("a".repeat(70_000) + "\n", "journal", "append", j.toString(), "--segment-size", "64k");
        assertOneLineError(r, 2, "line 1");
        assertTrue(r.err().contains("--segment-size"), r.err());
        assertFalse(Files.exists(j), "the journal this command made for nothing is gone");
        Run later = iolab("ok\n" + "b".repeat(70_000) + "\n", "journal", "append", j.toString(), "--segment-size",
                "64k", "--durability", "none");
        assertOneLineError(later, 2, "line 2");
        assertEquals("0\n", later.out());
        assertEquals("ok\n", iolab("", "journal", "read", j.toString()).out(), "the record before it stays");
        Path deep = tmp.resolve("deep/er/x.store");
        assertOneLineError(iolab("a\t1\n", "store", "load", deep.toString(), "--backend", "foo"), 2, "foo");
        assertFalse(Files.exists(tmp.resolve("deep")), "a refused backend made folders");
    }

    @Test
    void readingCommandsRefuseAnEmptyFileAndLeaveItAsItWas(@TempDir Path tmp) throws Exception {
        Path empty = Files.createFile(tmp.resolve("empty.txt"));
        for (List<String> args : List.of(List.of("get", empty.toString(), "k"), List.of("dump", empty.toString()),
                List.of("stats", empty.toString()), List.of("verify", empty.toString()))) {
            List<String> all = new ArrayList<>(List.of("store"));
            all.addAll(args);
            assertOneLineError(iolab("", all.toArray(String[]::new)), 2, "not a store");
            assertEquals(0, Files.size(empty), "store " + args.getFirst() + " wrote into it");
            try (var left = Files.list(tmp)) {
                assertEquals(List.of(empty), left.toList(), "store " + args.getFirst() + " left files");
            }
        }
    }

    @Test
    void aKeyGivenInHexIsFoundWhateverTheLocale(@TempDir Path tmp) throws Exception {
        Path s = tmp.resolve("k.store");
        assertEquals(0, iolab("caf\u00e9\tutf8\n", "store", "load", s.toString(), "--durability", "none").exit());
        Run hex = iolab("", "store", "get", s.toString(), "--key-hex", "636166c3a9");
        assertEquals("utf8\n", hex.out(), hex.err());
        assertOneLineError(iolab("", "store", "get", s.toString(), "--key-hex", "6x"), 2, "--key-hex");
        assertOneLineError(iolab("", "store", "get", s.toString()), 2, "--key-hex");
    }

    @Test
    void aReaderOfTheAcknowledgmentsThatGoesAwayStopsTheCommandWithAnError(@TempDir Path tmp) throws Exception {
        String lines = IntStream.range(0, 200_000).mapToObj(i -> "k" + i + "\tv\n").collect(Collectors.joining());
        Path in = Files.writeString(tmp.resolve("in"), lines);
        for (List<String> args : List.of(List.of("journal", "append", tmp.resolve("j").toString(), "--durability",
                "none"), List.of("store", "load", tmp.resolve("s.store").toString(), "--durability", "batch"))) {
            List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-jar",
                    System.getProperty("iolab.jar")));
            cmd.addAll(args);
            Path err = tmp.resolve("err");
            Process p = new ProcessBuilder(cmd).redirectInput(in.toFile()).redirectError(err.toFile()).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                assertTrue(out.readLine() != null, "a first acknowledgment");
            } // the reader goes away: the next acknowledgments meet a closed pipe
            assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the command stops");
            String e = Files.readString(err);
            assertNotEquals(0, p.exitValue(), e);
            assertTrue(e.contains("cannot write to standard output"), args + ": " + e);
        }
    }

    @Test
    void aRecordOfTheLargestSizeSurvivesEscapingAndACrlfEnding(@TempDir Path tmp) throws Exception {
        int max = 65_456; // a 64 KiB segment's largest record
        String rec = "\\" + "a".repeat(max - 1);
        String j1 = tmp.resolve("j1").toString();
        assertEquals(0, iolab(rec + "\n", "journal", "append", j1, "--segment-size", "64k").exit());
        Run read = iolab("", "journal", "read", j1, "--escape");
        String j2 = tmp.resolve("j2").toString();
        Run back = iolab(read.out(), "journal", "append", j2, "--segment-size", "64k", "--escape");
        assertEquals(0, back.exit(), "an escaped line is longer than its record: " + back.err());
        assertEquals(rec + "\n", iolab("", "journal", "read", j2).out());
        Run crlf = iolab("b".repeat(max) + "\r\n", "journal", "append", tmp.resolve("j3").toString(),
                "--segment-size", "64k");
        assertEquals(0, crlf.exit(), "the carriage return is not the record's: " + crlf.err());
        assertOneLineError(iolab("\\\\" + "c".repeat(max) + "\n", "journal", "append", tmp.resolve("j4").toString(),
                "--segment-size", "64k", "--escape"), 2, "once unescaped");
        Path nested = tmp.resolve("p/q/j5");
        assertOneLineError(iolab("x\\q\n", "journal", "append", nested.toString(), "--escape"), 2, "line 1");
        assertFalse(Files.exists(tmp.resolve("p")), "the folders this command made are gone");
    }

    @Test
    void loadingIntoADamagedStoreExitsOneAsDumpingItDoes(@TempDir Path tmp) throws Exception {
        Path s = tmp.resolve("d.store");
        assertEquals(0, iolab("key1\tvalue1\n", "store", "load", s.toString(), "--durability", "none").exit());
        byte[] bytes = Files.readAllBytes(s);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("value1");
        assertTrue(at > 0, "the value is in the file");
        bytes[at] ^= 0x20;
        Files.write(s, bytes);
        assertEquals(1, iolab("", "store", "dump", s.toString()).exit());
        // get's 1 says the key is absent: damage is its 2, an error
        assertEquals(2, iolab("", "store", "get", s.toString(), "key1").exit());
        Run load = iolab("key1\tw\n", "store", "load", s.toString());
        assertEquals(1, load.exit(), "damaged data, not a bad argument: " + load.err());
    }
}
