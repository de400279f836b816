package org.iolab.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.catalogue.Preallocation;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalCorruptedException;
import org.iolab.journal.JournalOptions;
import org.iolab.journal.JournalReader;
import org.iolab.journal.Record;
import org.iolab.journal.Tailer;
import org.iolab.journal.VerifyReport;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code iolab journal}: append to, read, tail, verify, repair and describe a journal directory. Records are
 * lines: {@code append} stores each line of standard input (without its newline) as one record, and
 * {@code read} / {@code tail} print each record followed by a newline.
 */
@Command(name = "journal", mixinStandardHelpOptions = true,
        description = "Crash-safe append-only journal: append lines, read, tail, verify, repair, stats, delete-before.",
        subcommands = {JournalCommand.Append.class, JournalCommand.Read.class, JournalCommand.Tail.class,
                JournalCommand.Verify.class, JournalCommand.Repair.class, JournalCommand.Stats.class,
                JournalCommand.DeleteBefore.class})
public final class JournalCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command (picocli instantiates it). */
    public JournalCommand() {
    }

    @Override
    public Integer call() {
        return Main.missingCommand(spec);
    }

    private static Backend backend(String label) {
        return label == null ? Backend.DEFAULT : Backend.parse(label);
    }

    private static Path existing(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IolabException("no journal directory " + dir
                    + (Files.exists(dir) ? " (it is a file)" : " (it does not exist)"));
        }
        return dir;
    }

    /**
     * Refuses a command that writes ({@code append}, {@code repair}, {@code delete-before}) on a store's redo log
     * ({@code FILE.wal} beside a store {@code FILE}): a review's {@code journal append FILE.wal} added a record the
     * store could not read as an operation, and every store command then refused the store. Reading it is allowed.
     */
    private static void notARedoLog(Path dir, String command) {
        Path store = storeOfRedoLog(dir);
        if (store != null) {
            throw new IolabException(dir + " is the redo log of store " + store + ": 'iolab journal " + command
                    + "' would change operations the store needs; use the store's commands ('iolab store verify "
                    + store + "', 'iolab store repair " + store + "')");
        }
    }

    /** @return the store whose redo log {@code dir} is ({@code FILE.wal} beside a store {@code FILE}), or null */
    private static Path storeOfRedoLog(Path dir) {
        Path d = dir.toAbsolutePath().normalize();
        String name = d.getFileName() == null ? "" : d.getFileName().toString();
        if (name.endsWith(".wal") && name.length() > 4) {
            Path store = d.resolveSibling(name.substring(0, name.length() - 4));
            if (Files.isRegularFile(store) && org.iolab.store.Store.beginsAsStore(store)) {
                return store;
            }
        }
        return null;
    }

    private static Journal openForReading(Path dir, String backend) {
        try {
            return Journal.openReadOnly(existing(dir), JournalOptions.defaults().withBackend(backend(backend)));
        } catch (JournalCorruptedException e) {
            throw e;
        } catch (IolabException e) {
            Path store = e.getMessage().contains("no journal segments") ? storeOfRedoLog(dir) : null;
            if (store == null) {
                throw e;
            }
            // "open it for writing first" pointed at the commands that refuse a redo log
            throw new IolabException(dir + " is the redo log of store " + store + " and holds no segment to read (the"
                    + " store's checkpoint holds every operation); 'iolab store dump " + store + "' prints the store's"
                    + " records", e);
        }
    }

    private static long checkFrom(Journal journal, Long from) {
        long first = journal.firstSequence();
        if (from == null) {
            return first;
        }
        long next = journal.nextSequence();
        if (from < first || from > next) {
            throw new IolabException("bad --from " + from + ": use a sequence from " + first + " to " + next
                    + " (the first and the next sequence of " + journal.directory() + ")");
        }
        return from;
    }

    /**
     * Writes a record as a line: escaped with {@code --escape}, else as it is, with a warning on standard error (once)
     * when it holds a newline (it reads as two lines) or ends in a carriage return (read back, it loses it).
     */
    private static void writeLine(OutputStream out, Record r, ReadOptions o) throws IOException {
        if (o.expected >= 0 && r.sequence() > o.expected) {
            out.flush(); // the note lands between the lines it is about
            boolean one = r.sequence() - 1 == o.expected;
            // a gap a repair left: damaged records (their bytes in *.cut files), a segment that was missing (no
            // copy), or sequences past the damage that no record had (a repair's bound): it said "its *.cut files
            // keep the bytes" of them all
            System.err.println("iolab: no record" + (one ? " " + o.expected : "s " + o.expected + " to "
                    + (r.sequence() - 1)) + " in " + o.dir + ": a repair left a gap there (damaged or lost records;"
                    + " the bytes it cut, if any, are in the *.cut files beside the segments)");
        }
        o.expected = r.sequence() + 1;
        byte[] payload = r.payload();
        if (o.escape) {
            Lines.escape(out, payload, 0, payload.length);
        } else {
            out.write(payload);
            boolean cr = payload.length > 0 && payload[payload.length - 1] == '\r';
            if (!o.warned && (cr || Lines.contains(payload, 0, payload.length, (byte) '\n'))) {
                o.warned = true;
                System.err.println("iolab: record " + r.sequence() + (cr ? " ends in a carriage return, so its line"
                        + " reads back as one with a CRLF ending, without it" : " holds a newline, so it prints as"
                        + " more than one line") + "; use --escape for output that reads back record for record");
            }
        }
        out.write('\n');
    }

    /** @return "1 record", "2 records" */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static List<Path> segmentFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
        } catch (IOException e) {
            throw IolabException.io("list the journal directory", dir, e);
        }
    }

    /** {@code iolab journal append}. */
    @Command(name = "append", mixinStandardHelpOptions = true,
            description = "Appends each line of standard input as a record; prints each record's sequence,"
                    + " one per line, once it is durable at the chosen level.")
    static final class Append implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory (created when missing)")
        Path dir;

        @Option(names = "--durability", paramLabel = "LEVEL", defaultValue = "batch",
                description = "none, batch or always (default: ${DEFAULT-VALUE})")
        String durability;

        @Option(names = "--backend", paramLabel = "NAME",
                description = "raf, channel-heap, channel-direct, mapped or segment (default: segment)")
        String backend;

        @Option(names = "--segment-size", paramLabel = "SIZE",
                description = "size of new segment files, e.g. 64k, 256m (default: 256m)")
        String segmentSize;

        @Option(names = "--preallocation", paramLabel = "HOW",
                description = "how new segment files are prepared: fallocate (default), zero-fill (every block written"
                        + " and synced when the segment is made: for thin-provisioned volumes that can run out of"
                        + " space) or none")
        String preallocation;

        @Option(names = "--escape", description = "read each line as 'journal read --escape' writes it: \\\\, \\n,"
                + " \\r and \\t stand for a backslash, newline, carriage return and tab")
        boolean escape;

        private volatile long appended = -1;
        private Lines.Reader lines;
        private long maxRecord;
        private volatile boolean done;

        @Override
        public Integer call() throws Exception {
            notARedoLog(dir, "append");
            JournalOptions options = JournalOptions.defaults().withDurability(Durability.parse(durability))
                    .withBackend(backend(backend));
            if (segmentSize != null) {
                long bytes = Sizes.parse(segmentSize, "--segment-size");
                try {
                    options = options.withSegmentSize(bytes);
                } catch (IolabException e) {
                    // the library's message names the bytes only: name the flag and what was typed too
                    throw new IolabException("bad --segment-size '" + segmentSize + "' (" + e.getMessage() + ")", e);
                }
            }
            if (preallocation != null) {
                options = options.withPreallocation(Preallocation.parse(preallocation));
            }
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                throw new IolabException("journal directory " + dir + " is a file");
            }
            // before any folder is made: a closed standard input is refused with nothing created
            InputStream in = Stdin.open("the records to append, one per line");
            boolean created = !Files.exists(dir);
            Path made = firstMissing(dir);
            long[] first = {-1};
            try {
                append(in, options, first);
            } catch (Exception | Error e) {
                if (created && (first[0] < 0 || first[0] == nextSequence(dir, options))) {
                    // a journal this command made and appended nothing to, or whose open failed (its first segment
                    // did not fit: only journal.lock was left): not left behind
                    deleteEmpty(dir, made, e);
                }
                throw e;
            }
            return 0;
        }

        private static long nextSequence(Path dir, JournalOptions options) {
            try (Journal j = Journal.openReadOnly(dir, options)) {
                return j.nextSequence();
            } catch (IolabException e) {
                return -1;
            }
        }

        /** Deletes the journal in {@code dir}, then {@code dir} and its parents up to {@code made} while empty. */
        private static void deleteEmpty(Path dir, Path made, Throwable e) {
            try {
                for (Path p : segmentFiles(dir)) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(dir.resolve("journal.lock"));
                for (Path d = dir.toAbsolutePath(); d != null && d.startsWith(made); d = d.getParent()) {
                    try (Stream<Path> in = Files.list(d)) {
                        if (in.findAny().isPresent()) {
                            break;
                        }
                    }
                    Files.delete(d);
                }
            } catch (IOException | IolabException suppressed) {
                e.addSuppressed(suppressed);
            }
        }

        /** @return the outermost folder of {@code dir}'s path that does not exist yet (the one the open makes first) */
        private static Path firstMissing(Path dir) {
            Path d = dir.toAbsolutePath();
            Path missing = d;
            for (Path p = d; p != null && !Files.exists(p); p = p.getParent()) {
                missing = p;
            }
            return missing;
        }

        private void append(InputStream in, JournalOptions options, long[] first) throws Exception {
            // acknowledgments: whole lines only, so a kill never leaves part of one
            OutputStream out = new LineOut(System.out);
            try (Journal journal = Journal.open(dir, options)) {
                first[0] = journal.nextSequence();
                maxRecord = options.maxRecordSize();
                // an escaped line is up to twice its record; the record's own length is checked once unescaped
                lines = new Lines.Reader(in, (escape ? 2 : 1) * maxRecord, "the largest record of journal " + dir
                        + " (its segment size minus 80; records are never split: give a larger --segment-size)");
                if (options.durability() == Durability.BATCH) {
                    appendBatch(journal, out);
                } else {
                    for (byte[] line; (line = nextRecord()) != null; ) {
                        long seq = journal.append(line);
                        out.write(Long.toString(seq).getBytes(StandardCharsets.US_ASCII));
                        out.write('\n');
                        out.flush();
                    }
                    journal.sync();
                }
            }
            out.flush();
        }

        /** @return the next record of standard input (unescaped with {@code --escape}), or null at its end */
        private byte[] nextRecord() throws IOException {
            byte[] line = lines.next();
            if (line == null || !escape) {
                return line;
            }
            byte[] record = Lines.unescape(line, 0, line.length, lines.lineNumber());
            if (record.length > maxRecord) {
                throw new IolabException("line " + lines.lineNumber() + " of standard input is a record of "
                        + record.length + " bytes once unescaped, longer than " + maxRecord + " bytes, the largest"
                        + " record of journal " + dir + " (give a larger --segment-size)"
                        + (lines.lineNumber() > 1 ? "; the lines before it were applied" : ""));
            }
            return record;
        }

        /** Appends in this thread; another prints sequences as the durable sequence passes them. */
        private void appendBatch(Journal journal, OutputStream out) throws Exception {
            long first = journal.nextSequence();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread printer = Thread.ofPlatform().name("journal-ack").start(() -> {
                try {
                    printDurable(journal, first, out);
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            try {
                for (byte[] line; failure.get() == null && (line = nextRecord()) != null; ) {
                    appended = journal.append(line);
                    LockSupport.unpark(printer);
                }
                journal.sync();
            } finally {
                done = true;
                LockSupport.unpark(printer);
                printer.join();
            }
            Throwable t = failure.get();
            if (t instanceof RuntimeException e) {
                throw e;
            } else if (t instanceof IOException e) {
                throw e;
            } else if (t != null) {
                throw new IllegalStateException(t);
            }
        }

        private void printDurable(Journal journal, long first, OutputStream out) throws IOException {
            long next = first;
            while (true) {
                long last = appended;
                if (next <= last) {
                    journal.awaitDurable(next);
                    long upTo = Math.min(journal.durableSequence(), last);
                    for (; next <= upTo; next++) {
                        out.write(Long.toString(next).getBytes(StandardCharsets.US_ASCII));
                        out.write('\n');
                    }
                    out.flush();
                } else if (done && next > appended) {
                    return;
                } else {
                    LockSupport.park(this);
                }
            }
        }
    }

    /** What {@code read} and {@code tail} share: the journal, where to start, which backend reads it. */
    static final class ReadOptions {
        @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
        Path dir;

        @Option(names = "--from", paramLabel = "SEQ",
                description = "the first sequence to print (default: the journal's first)")
        Long from;

        @Option(names = "--backend", paramLabel = "NAME", description = "the backend to read with (default: segment)")
        String backend;

        @Option(names = "--escape", description = "write a backslash, newline, carriage return and tab in a record as"
                + " \\\\, \\n, \\r and \\t, so that each record is one line ('journal append --escape' reads it"
                + " back)")
        boolean escape;

        /** Whether the warning about a record holding a newline was printed. */
        boolean warned;
        /** The sequence the next record printed should have: a later one follows a gap a repair cut. */
        long expected = -1;

        Journal open() {
            return openForReading(dir, backend);
        }

        long first(Journal journal) {
            expected = checkFrom(journal, from);
            return expected;
        }
    }

    /** {@code iolab journal read}. */
    @Command(name = "read", mixinStandardHelpOptions = true,
            description = "Prints every record, one per line, in order.")
    static final class Read implements Callable<Integer> {
        @CommandLine.Mixin
        ReadOptions source;

        @Override
        public Integer call() throws IOException {
            OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
            try (Journal journal = source.open();
                    JournalReader reader = journal.reader(source.first(journal))) {
                while (reader.hasNext()) {
                    writeLine(out, reader.next(), source);
                }
            } finally {
                // the records before a damaged one are printed before the error
                out.flush();
            }
            return 0;
        }
    }

    /** {@code iolab journal tail}. */
    @Command(name = "tail", mixinStandardHelpOptions = true,
            description = "Prints the records, then follows new ones appended by any process, until interrupted.")
    static final class Tail implements Callable<Integer> {
        @CommandLine.Mixin
        ReadOptions source;

        @Override
        public Integer call() throws IOException {
            OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
            try (Journal journal = source.open();
                    Tailer tailer = journal.tailer(source.first(journal))) {
                while (!Thread.currentThread().isInterrupted()) {
                    Record r = tailer.poll(Duration.ofMillis(200));
                    boolean wrote = false;
                    try {
                        while (r != null) {
                            writeLine(out, r, source);
                            wrote = true;
                            r = tailer.poll(Duration.ZERO);
                        }
                    } catch (RuntimeException e) {
                        // damage: the records before it go out first (they were lost in the buffer)
                        try {
                            out.flush();
                        } catch (IOException suppressed) {
                            e.addSuppressed(suppressed);
                        }
                        throw e;
                    }
                    if (wrote) {
                        out.flush();
                        if (System.out.checkError()) {
                            // its reader left (| head) or the disk is full: stop, and the exit says which
                            break;
                        }
                    }
                }
            }
            return 0;
        }
    }

    /** {@code iolab journal verify}. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Checks every segment and record; exit 0 when all is well, 1 with a report when not.")
    static final class Verify implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
        Path dir;

        @Override
        public Integer call() {
            VerifyReport report = Journal.verify(existing(dir));
            if (report.segments() == 0) {
                throw new IolabException("no journal segments (*.seg files) in " + dir);
            }
            String counts = count(report.records(), "record") + " in " + count(report.segments(), "segment")
                    + (report.cut() == 0 ? "" : " (and " + count(report.cut(), "sequence") + " a repair cut)");
            long bad = report.problems().stream().filter(p -> !p.recoverable()).count();
            boolean missing = report.problems().stream().anyMatch(VerifyReport.Problem::missingSegmentsBefore);
            String advice = !missing ? "run 'iolab journal repair': it writes damaged headers again over intact"
                    + " records and cuts other damage out of the journal (the records of later segments stay), keeping"
                    + " what it cuts in *.cut files"
                    : bad == 1 ? "run 'iolab journal repair' to start the journal at its first segment left (the"
                            + " missing records are gone; nothing else is cut)"
                    : "run 'iolab journal repair' to start the journal at its first segment left and cut it at the"
                            + " first damage after that";
            return VerifyOutput.print(report.ok(), counts, report.problems(), bad, advice);
        }
    }

    /** {@code iolab journal repair}. */
    @Command(name = "repair", mixinStandardHelpOptions = true,
            description = "Mends the journal so it opens again, deleting nothing: starts it at its first segment left"
                    + " when the first ones are missing, writes a damaged header again over intact records, else cuts the"
                    + " damaged records out (the later segments stay, after a gap) and keeps what it cut in *.cut"
                    + " files; refused while a writer has it open.")
    static final class Repair implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
        Path dir;

        @Option(names = "--force", description = "repair a folder none of whose segment files begins with the journal's"
                + " magic: they are moved aside as *.cut files and a journal starts there")
        boolean force;

        @Override
        public Integer call() {
            existing(dir);
            notARedoLog(dir, "repair");
            if (!force && !Journal.beginsAsJournal(dir)) {
                // it turned a folder holding one file of random bytes named like a segment into a journal
                throw new IolabException("journal directory " + dir + " does not look like a journal: no file in it"
                        + " named like a segment begins with the journal's magic. A repair would move them aside as"
                        + " *.cut files and start a journal there; nothing was changed. If it is a journal whose every"
                        + " segment header was overwritten, run again with --force");
            }
            List<String> done = new ArrayList<>();
            VerifyReport report = Journal.repair(dir, done::add);
            if (done.isEmpty()) {
                System.out.println("nothing to repair: " + count(report.records(), "record") + " in "
                        + count(report.segments(), "segment"));
                return 0;
            }
            done.forEach(System.out::println);
            if (done.stream().anyMatch(d -> d.contains(".cut"))) {
                System.out.println("what was cut is kept in the *.cut files above: no journal reads them; delete them"
                        + " once you have what you need");
            }
            VerifyReport now = Journal.verify(dir);
            System.out.println("kept " + count(now.records(), "record") + " in " + count(now.segments(), "segment")
                    + (now.cut() == 0 ? "" : "; readers pass over the " + count(now.cut(), "sequence") + " cut"));
            return 0;
        }
    }

    /** {@code iolab journal delete-before}. */
    @Command(name = "delete-before", mixinStandardHelpOptions = true,
            description = "Deletes the oldest segments, those whose records all come before SEQ (whole segments only:"
                    + " records before SEQ that share its segment stay); refused while a writer has the journal open.")
    static final class DeleteBefore implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
        Path dir;

        @Parameters(index = "1", paramLabel = "SEQ", description = "the first sequence to keep")
        long seq;

        @Override
        public Integer call() {
            existing(dir);
            notARedoLog(dir, "delete-before");
            if (segmentFiles(dir).isEmpty()) {
                throw new IolabException("no journal segments in " + dir + ": give the directory a journal was"
                        + " opened in");
            }
            long first;
            long now;
            int before;
            int after;
            try (Journal journal = Journal.open(dir, JournalOptions.defaults())) {
                first = journal.firstSequence();
                before = journal.segmentCount();
                now = journal.deleteBefore(seq);
                after = journal.segmentCount();
            }
            if (now == first) {
                System.out.println("nothing to delete: the journal starts at sequence " + first + ", and sequence "
                        + seq + " is in its first segment or before it (only whole segments are deleted, never the"
                        + " last one)");
            } else {
                System.out.println("deleted " + (before - after) + " segments (sequences " + first + ".." + (now - 1)
                        + "); the journal now starts at sequence " + now);
            }
            return 0;
        }
    }

    /** {@code iolab journal stats}. */
    @Command(name = "stats", mixinStandardHelpOptions = true,
            description = "Records, segments, bytes, backend, durability and sequences of a journal.")
    static final class Stats implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
        Path dir;

        @Override
        public Integer call() {
            long firstSeq;
            long nextSeq;
            int segments;
            try (Journal journal = openForReading(dir, null)) {
                nextSeq = journal.nextSequence();
                segments = journal.segmentCount();
                firstSeq = Math.min(journal.firstSequence(), nextSeq);
            }
            VerifyReport report = Journal.verify(dir);
            long onDisk = 0;
            List<Path> files = segmentFiles(dir);
            for (Path f : files) {
                try {
                    onDisk += Files.size(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            System.out.println("directory:      " + dir);
            // on a damaged journal verify counts only what it reads intact: a damaged record and the rest of its
            // segment are in the records (the open counts sequences) but not in the bytes, which says so
            System.out.println("records:        " + (nextSeq - firstSeq - report.cut()) + (report.ok() ? "" : " ("
                    + report.records() + " read intact by verify: a damaged record and the records after it in its"
                    + " segment are not)") + (report.cut() == 0 ? "" : " (" + count(report.cut(), "sequence")
                    + " between them a repair cut)"));
            System.out.println("segments:       " + segments);
            System.out.println("bytes:          " + report.bytes() + " of framed records" + (report.ok() ? ""
                    : " read intact") + ", " + onDisk + " in segment files");
            System.out.println("first sequence: " + firstSeq);
            System.out.println("next sequence:  " + nextSeq);
            System.out.println("backend:        not recorded in the journal (any backend reads it; default "
                    + Backend.DEFAULT.label() + ")");
            System.out.println("durability:     not recorded in the journal (chosen by each writer; default "
                    + JournalOptions.defaults().durability().name().toLowerCase(java.util.Locale.ROOT) + ")");
            System.out.println("health:         " + (report.ok() ? "ok" : "damaged (see 'iolab journal verify')"));
            return 0;
        }
    }
}
