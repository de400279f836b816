package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iolab.cli.JournalCliIT.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 'iolab store compact' refuses what is not a store, reports the file's own sizes before and after, and compresses
 * with --compress (kept by a plain compact, undone by --decompress).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StoreCompactCliIT {
    @Test
    void anEmptyFileIsRefusedAndLeftAsItWas(@TempDir Path tmp) throws Exception {
        Path empty = Files.createFile(tmp.resolve("empty"));
        Run stats = JournalCliIT.iolab("", "store", "stats", empty.toString());
        assertEquals(2, stats.exit(), stats.out() + stats.err()); // stats refuses it
        Run r = JournalCliIT.iolab("", "store", "compact", empty.toString());
        assertNotEquals(0, r.exit(), "compact of an empty file succeeded: " + r.out() + r.err());
        assertEquals(0, Files.size(empty), "compact turned an empty file into a store");
    }

    @Test
    void aShortFileIsToldToLoadOnlyWhenALoadWouldTakeIt(@TempDir Path tmp) throws Exception {
        Path empty = Files.createFile(tmp.resolve("empty"));
        Path text = Files.writeString(tmp.resolve("text"), "hello");
        Run e = JournalCliIT.iolab("", "store", "stats", empty.toString());
        assertTrue(e.err().contains("makes it a store"), e.err());
        Run t = JournalCliIT.iolab("", "store", "stats", text.toString());
        assertEquals(2, t.exit(), t.err());
        // a load refuses a file that holds other data: the advice must not send the user there
        assertTrue(!t.err().contains("load") && t.err().contains("Give the path of a store"), t.err());
        assertEquals("hello", Files.readString(text));
    }

    @Test
    void aFileOfZerosIsNotReportedAsFourKiBBefore(@TempDir Path tmp) throws Exception {
        Path zeros = tmp.resolve("zeros");
        Files.write(zeros, new byte[1 << 20]);
        Run r = JournalCliIT.iolab("", "store", "compact", zeros.toString());
        assertTrue(r.exit() != 0 || r.out().contains((1 << 20) + " ->"),
                "exit " + r.exit() + ", file now " + Files.size(zeros) + " bytes: " + r.out() + r.err());
    }

    @Test
    void theSizeBeforeIsTheFilesSize(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("s");
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            in.append("key-").append(i).append("\tvalue-").append(i).append('\n');
        }
        assertEquals(0, JournalCliIT.iolab(in.toString(), "store", "load", file.toString()).exit());
        // the zero tail a crash leaves behind a store on a mapped backend (growth in steps)
        Files.write(file, new byte[1 << 20], StandardOpenOption.APPEND);
        long before = Files.size(file);
        Run r = JournalCliIT.iolab("", "store", "compact", file.toString());
        assertEquals(0, r.exit(), r.err());
        Matcher m = Pattern.compile("(\\d+) -> (\\d+) bytes").matcher(r.out());
        assertTrue(m.find(), r.out());
        assertEquals(before, Long.parseLong(m.group(1)), r.out());
        assertEquals(Files.size(file), Long.parseLong(m.group(2)), r.out());
    }

    @Test
    void compressKeepsTheValuesAndAPlainCompactKeepsTheCompression(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("s");
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            in.append("employee-").append(i).append("\tThis is employee number ").append(i).append(", John\n");
        }
        assertEquals(0, JournalCliIT.iolab(in.toString(), "store", "load", file.toString()).exit());
        String dump = JournalCliIT.iolab("", "store", "dump", file.toString()).out();
        Run both = JournalCliIT.iolab("", "store", "compact", "--compress", "--decompress", file.toString());
        assertEquals(2, both.exit(), both.out() + both.err());
        assertTrue(both.err().contains("not both"), both.err());

        Run plain = JournalCliIT.iolab("", "store", "compact", file.toString());
        assertEquals(0, plain.exit(), plain.err());
        long plainSize = Files.size(file);
        // an empty store has nothing to train a table on: said, not left to stats to show (exit 0 all the same)
        Path empty = tmp.resolve("empty.store");
        assertEquals(0, JournalCliIT.iolab("", "store", "load", empty.toString()).exit());
        Run none = JournalCliIT.iolab("", "store", "compact", "--compress", empty.toString());
        assertEquals(0, none.exit(), none.err());
        assertTrue(none.out().contains("not compressed: no symbol table could be trained"), none.out());
        Run packed = JournalCliIT.iolab("", "store", "compact", "--compress", file.toString());
        assertEquals(0, packed.exit(), packed.err());
        assertTrue(packed.out().contains("values compressed with"), packed.out());
        assertTrue(Files.size(file) < 0.8 * plainSize, Files.size(file) + " against " + plainSize);
        Run stats = JournalCliIT.iolab("", "store", "stats", file.toString());
        assertTrue(stats.out().contains("compression:    values compressed"), stats.out());
        assertEquals(dump, JournalCliIT.iolab("", "store", "dump", file.toString()).out());
        Run get = JournalCliIT.iolab("", "store", "get", file.toString(), "employee-1234");
        assertEquals("This is employee number 1234, John\n", get.out());
        assertEquals(0, JournalCliIT.iolab("", "store", "verify", file.toString()).exit());

        // a compact without an option keeps the compression; --decompress undoes it
        Run again = JournalCliIT.iolab("", "store", "compact", file.toString());
        assertTrue(again.out().contains("values compressed with"), again.out());
        Run undone = JournalCliIT.iolab("", "store", "compact", "--decompress", file.toString());
        assertEquals(0, undone.exit(), undone.err());
        assertTrue(!undone.out().contains("compressed"), undone.out());
        assertEquals(plainSize, Files.size(file));
        assertEquals(dump, JournalCliIT.iolab("", "store", "dump", file.toString()).out());
        assertTrue(JournalCliIT.iolab("", "store", "stats", file.toString()).out().contains("compression:    none"));
    }
}
