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

/** 'iolab store compact' refuses what is not a store, and reports the file's own sizes before and after. */
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
}
