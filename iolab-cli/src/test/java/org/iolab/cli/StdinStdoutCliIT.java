package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard input and output that go wrong, as a review of the command line found them: standard input closed
 * ({@code <&-}) made {@code journal append} store the JDK's modules file (the JVM's first file took descriptor 0) and
 * acknowledge it; standard input from a folder ended in an internal error with a stack trace and left a new store's
 * files behind; {@code journal tail | head -2} never ended once {@code head} had gone.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StdinStdoutCliIT {
    @TempDir
    Path tmp;

    private static String java() {
        return System.getProperty("java.home") + "/bin/java";
    }

    private static String jar() {
        String jar = System.getProperty("iolab.jar");
        assertTrue(jar != null && Files.isRegularFile(Path.of(jar)), "system property iolab.jar: " + jar);
        return jar;
    }

    /** What a shell command did: its exit code and its output, standard error included. */
    private record Sh(int exit, String out) {
    }

    /** Runs {@code sh -c script} with $J set to the java command and the jar. */
    private static Sh sh(String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true);
        pb.environment().put("J", java() + " -jar " + jar());
        Process p = pb.start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "timed out: " + script);
        return new Sh(p.exitValue(), out);
    }

    @Test
    void aClosedStandardInputIsRefusedWithNothingMade() throws Exception {
        Path dir = tmp.resolve("j");
        Sh r = sh("$J journal append " + dir + " <&-");
        assertEquals(2, r.exit(), r.out());
        assertTrue((r.out()).contains("standard input is closed"), r.out());
        assertFalse(Files.exists(dir), "nothing was made");
        Path store = tmp.resolve("a").resolve("b").resolve("s");
        r = sh("$J store load " + store + " <&-");
        assertEquals(2, r.exit(), r.out());
        assertTrue((r.out()).contains("standard input is closed"), r.out());
        assertFalse(Files.exists(tmp.resolve("a")), "no folder was made");
    }

    @Test
    void aFolderAsStandardInputIsAUserErrorAndLeavesNothing() throws Exception {
        Path dir = tmp.resolve("j");
        Sh r = sh("$J journal append " + dir + " < " + tmp);
        assertEquals(2, r.exit(), r.out());
        assertTrue((r.out()).startsWith("iolab: cannot read standard input (Is a directory)"), r.out());
        assertFalse((r.out()).contains("internal error") || (r.out()).contains("\tat "), r.out());
        assertFalse(Files.exists(dir), "the journal made for it is removed");
        Path store = tmp.resolve("x").resolve("s");
        r = sh("$J store load " + store + " < " + tmp);
        assertEquals(2, r.exit(), r.out());
        assertTrue((r.out()).startsWith("iolab: cannot read standard input (Is a directory)"), r.out());
        assertFalse(Files.exists(tmp.resolve("x")), "the store and the folder made for it are removed");
    }

    /**
     * A store's redo log is refused by the journal commands that write: a review's {@code journal append FILE.wal}
     * left a record the store could not read, and every store command refused the store.
     */
    @Test
    void journalCommandsThatWriteRefuseAStoresRedoLog() throws Exception {
        Path store = tmp.resolve("s");
        try (org.iolab.store.Store s = org.iolab.store.Store.open(store, org.iolab.store.StoreOptions.defaults()
                .withDurability(org.iolab.storage.Durability.BATCH))) {
            s.put(new byte[] {1}, new byte[] {2});
        }
        Path wal = store.resolveSibling("s.wal");
        Files.createDirectories(wal);
        for (String command : List.of("echo oops | $J journal append " + wal, "$J journal repair " + wal,
                "$J journal delete-before " + wal + " 1")) {
            Sh r = sh(command);
            assertEquals(2, r.exit(), command + ": " + r.out());
            assertTrue((r.out()).contains(wal + " is the redo log of store " + store), r.out());
        }
        try (var left = Files.list(wal)) {
            assertEquals(List.of(), left.filter(f -> f.toString().endsWith(".seg")).toList(),
                    "no segment was written into the redo log's folder");
        }
        try (org.iolab.store.Store s = org.iolab.store.Store.open(store, org.iolab.store.StoreOptions.defaults())) {
            assertEquals(1, s.size());
        }
    }

    /** @return the {@code journal tail} processes started by the shell {@code p} */
    private static List<ProcessHandle> tails(Process p) {
        return p.descendants().filter(h -> h.isAlive() && h.info().commandLine()
                .map(c -> c.contains(" journal tail ")).orElse(false)).toList();
    }

    @Test
    void tailEndsOnceTheReaderOfItsPipeHasGone() throws Exception {
        Path dir = tmp.resolve("j");
        try (Journal j = Journal.open(dir, JournalOptions.defaults())) {
            for (int i = 0; i < 5; i++) {
                j.append(("r" + i).getBytes(StandardCharsets.US_ASCII));
            }
        }
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "$J journal tail " + dir + " | head -2; sleep 30"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("J", java() + " -jar " + jar());
        Process p = pb.start();
        try {
            // head has its two lines and is gone; the next records make tail write into the broken pipe
            Thread.sleep(3000);
            try (Journal j = Journal.open(dir, JournalOptions.defaults())) {
                for (int i = 0; i < 2000; i++) {
                    j.append(new byte[100]);
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            boolean gone = false;
            while (!gone && System.nanoTime() < deadline) {
                gone = tails(p).isEmpty();
                Thread.sleep(200);
            }
            assertTrue(gone, "tail still runs after its reader left");
        } finally {
            tails(p).forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
