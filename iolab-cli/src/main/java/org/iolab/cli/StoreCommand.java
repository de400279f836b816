package org.iolab.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.iolab.IolabException;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.iolab.store.CompactResult;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;
import org.iolab.store.StoreRecoveryNeededException;
import org.iolab.store.StoreReport;
import org.iolab.store.StoreStats;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code iolab store}: load, get, dump, verify, repair, compact and describe a keyed record store file. Keys and
 * values are bytes; on the command line they are the bytes of a line: {@code load} reads {@code KEY<TAB>VALUE}
 * lines (a line {@code -KEY} deletes KEY), {@code dump} prints them back the same way.
 */
@Command(name = "store", mixinStandardHelpOptions = true,
        description = "Crash-safe keyed record store: load, get, dump, verify, repair, compact, stats.",
        subcommands = {StoreCommand.Load.class, StoreCommand.Get.class, StoreCommand.Dump.class,
                StoreCommand.Verify.class, StoreCommand.Repair.class, StoreCommand.Compact.class,
                StoreCommand.Stats.class})
public final class StoreCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command (picocli instantiates it). */
    public StoreCommand() {
    }

    @Override
    public Integer call() {
        return Main.missingCommand(spec);
    }

    private static Path existing(Path file) {
        if (Files.isDirectory(file)) {
            throw new IolabException("store file " + file + " is a directory: give the store's file");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new IolabException("store file " + file + " is not a regular file (a device, FIFO or socket):"
                    + " give the store's file");
        }
        if (!Files.isRegularFile(file)) {
            throw new IolabException("no store file " + file + ": create it with 'iolab store load " + file + "'");
        }
        return file;
    }

    private static Store open(Path file, String backend, Durability durability) {
        return Store.open(file, options(backend, durability));
    }

    private static StoreOptions options(String backend, Durability durability) {
        StoreOptions o = StoreOptions.defaults().withDurability(durability);
        if (backend != null) {
            o = o.withBackend(Backend.parse(backend));
        }
        return o;
    }

    /**
     * Opens an existing store to read it, writing nothing (a shared lock: other readers may read too, writers wait
     * for it). A store that an unclean stop left needing recovery is opened for writing instead, which recovers
     * it; standard error says so. A file of zeros is refused, unchanged.
     */
    private static Store openToRead(Path file, String backend) {
        StoreOptions o = StoreOptions.defaults();
        if (backend != null) {
            o = o.withBackend(Backend.parse(backend));
        }
        refuseShorterThanAHeader(file);
        try {
            return Store.openReadOnly(file, o);
        } catch (StoreRecoveryNeededException e) {
            if (e.blank()) {
                // nothing to read, and its recovery would make it a store cut to one page: a reading command must
                // not write what it was not asked to (a zeroed disk image is not a store)
                throw new IolabException("store file " + file + " holds only zeros: no store was ever written to it"
                        + " (or its creation stopped before its header); nothing to read, and the file is unchanged."
                        + " 'iolab store load " + file + "' makes it an empty store (cut to 4096 bytes)");
            }
            System.err.println("iolab: " + file + " was not closed cleanly; recovering it first (this writes to it)");
            return open(file, backend, Durability.NONE);
        }
    }

    private static void write(OutputStream out, ByteBuffer b) throws IOException {
        if (b.hasArray()) {
            out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
        } else {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            out.write(bytes);
        }
    }

    private static void writeEscaped(OutputStream out, ByteBuffer b) throws IOException {
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        Lines.escape(out, bytes, 0, bytes.length);
    }

    /**
     * Refuses a file shorter than a store's header page, untouched: an empty file (a mistaken '> FILE', or a creation
     * that never wrote its header) or some other small file. Opening it would make it a store (recovery), and a
     * reading command must not write what it was not asked to; verify would call it damaged, and repair refuse it.
     */
    private static void refuseShorterThanAHeader(Path file) {
        long size = sizeOf(existing(file));
        if (size < Store.HEADER_PAGE) {
            throw new IolabException("store file " + file + " is " + size + " bytes, shorter than a store's"
                    + " 4096-byte header: not a store (or a creation that never finished); the file is unchanged."
                    + (zeroPage(file) ? " 'iolab store load " + file + "' makes it a store" : " Give the path of a"
                    + " store, or a new path to create one"));
        }
    }

    /**
     * @return whether the file's first 4096 bytes (all of a shorter one, none of an empty one) are zeros: an interrupted
     *     creation's, which a load completes, or a store that lost its header page
     */
    private static boolean zeroPage(Path file) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
            ByteBuffer page = ByteBuffer.allocate(Store.HEADER_PAGE);
            while (page.hasRemaining() && ch.read(page, page.position()) > 0) {
                // reads the page
            }
            for (int i = 0; i < page.position(); i++) {
                if (page.get(i) != 0) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException io) {
            throw IolabException.io("read the size of", file, io);
        }
    }

    private static boolean holds(ByteBuffer b, byte x) {
        for (int i = b.position(); i < b.limit(); i++) {
            if (b.get(i) == x) {
                return true;
            }
        }
        return false;
    }

    /** The options every command that opens a store shares. */
    static final class Target {
        @Parameters(index = "0", paramLabel = "FILE", description = "the store file")
        Path file;

        @Option(names = "--backend", paramLabel = "NAME",
                description = "raf, channel-heap, channel-direct, mapped or segment (default: segment)")
        String backend;
    }

    /** {@code iolab store load}. */
    @Command(name = "load", mixinStandardHelpOptions = true,
            description = "Reads KEY<TAB>VALUE lines from standard input (a line -KEY deletes KEY) and prints"
                    + " 'ok KEY' for each once it is durable at the chosen level.")
    static final class Load implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "the store file (created when missing)")
        Path file;

        @Option(names = "--backend", paramLabel = "NAME",
                description = "raf, channel-heap, channel-direct, mapped or segment (default: segment)")
        String backend;

        @Option(names = "--durability", paramLabel = "LEVEL", defaultValue = "batch",
                description = "none, batch or always (default: ${DEFAULT-VALUE})")
        String durability;

        @Option(names = "--escape", description = "read keys and values as 'store dump --escape' writes them: \\\\,"
                + " \\n, \\r and \\t stand for a backslash, newline, carriage return and tab")
        boolean escape;

        /** One acknowledged line: the key to print and the sequence that must be durable first (-1: none). */
        private record Ack(byte[] key, long seq) {
        }

        private static final Ack END = new Ack(new byte[0], -1);

        @Override
        public Integer call() throws Exception {
            Durability level = Durability.parse(durability);
            if (backend != null) {
                Backend.parse(backend); // refused before any folder is made
            }
            if (Files.isDirectory(file)) {
                throw new IolabException("store file " + file + " is a directory: give a file name");
            }
            // before any folder is made: a closed standard input is refused with nothing created
            InputStream in = Stdin.open("KEY<TAB>VALUE and -KEY lines");
            Path parent = file.toAbsolutePath().getParent();
            // the outermost folder this command makes, removed again with a store it leaves empty
            Path made = null;
            for (Path p = parent; p != null && !Files.exists(p); p = p.getParent()) {
                made = p;
            }
            if (parent != null && !Files.isDirectory(parent)) {
                if (Files.exists(parent)) {
                    throw new IolabException("cannot create store file " + file + ": " + parent
                            + " is not a folder; give a path in a folder");
                }
                // as 'journal append' does for its folder
                try {
                    Files.createDirectories(parent);
                } catch (java.io.IOException e) {
                    throw new IolabException("cannot create the folder " + parent + " for store file " + file
                            + ": " + e.getMessage() + "; create it, or give a path in a folder you can write", e);
                }
            }
            // acknowledgments: whole lines only, so a kill never leaves part of one
            OutputStream out = new LineOut(System.out);
            boolean created = !Files.exists(file);
            // [0]: 1 once this command holds the store open; [1]: operations applied
            long[] progress = {0, 0};
            try {
                load(in, level, out, progress);
            } catch (RuntimeException | Error e) {
                if (created && progress[0] == 1 && progress[1] == 0) {
                    // a store this command made (and held) and wrote nothing into: not left behind, nor the
                    // folders made for it
                    try {
                        Store.deleteFiles(file);
                        for (Path d = parent; made != null && d != null && d.startsWith(made); d = d.getParent()) {
                            try (java.util.stream.Stream<Path> left = Files.list(d)) {
                                if (left.findAny().isPresent()) {
                                    break;
                                }
                            }
                            Files.delete(d);
                        }
                    } catch (IolabException | java.io.IOException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e;
            }
            return 0;
        }

        private void load(InputStream in, Durability level, OutputStream out, long[] progress) throws Exception {
            long lineNo = 0;
            try (Store store = open(file, backend, level)) {
                progress[0] = 1;
                BlockingQueue<Ack> acks = new ArrayBlockingQueue<>(1 << 16);
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread printer = Thread.ofPlatform().name("store-ack").start(() -> {
                    try {
                        printAcks(store, level, acks, out, escape);
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                });
                IolabException bad = null;
                try {
                    // a line is at most a key, a tab and a value (each escaped: twice as long)
                    Lines.Reader lines = new Lines.Reader(in,
                            (escape ? 2L : 1L) * (Store.MAX_KEY + Store.MAX_VALUE) + 1, "the longest line a store"
                                    + " takes (a " + Store.MAX_KEY + "-byte key, a tab and a " + Store.MAX_VALUE
                                    + "-byte value)");
                    for (byte[] line; failure.get() == null && (line = lines.next()) != null; ) {
                        lineNo++;
                        int tab = indexOf(line, (byte) '\t');
                        Ack ack;
                        if (tab >= 0 || line.length > 0 && line[0] == '-') { // '-' alone: the empty key, which '\tVALUE' puts
                            byte[] key;
                            byte[] value;
                            try {
                                key = tab >= 0 ? field(line, 0, tab, lineNo) : field(line, 1, line.length, lineNo);
                                value = tab >= 0 ? field(line, tab + 1, line.length, lineNo) : null;
                            } catch (IolabException e) {
                                bad = e; // names the line
                                break;
                            }
                            try {
                                ack = new Ack(key, value != null ? store.put(key, value) : store.delete(key));
                            } catch (IolabException e) {
                                bad = new IolabException("line " + lineNo + " of standard input: " + e.getMessage()
                                        + (lineNo > 1 ? " (the lines before it were applied)" : ""), e);
                                break;
                            }
                            progress[1]++;
                        } else {
                            bad = new IolabException("line " + lineNo + " of standard input is neither KEY<TAB>VALUE"
                                    + " nor -KEY: " + preview(line) + (lineNo > 1 ? "; the lines before it were applied"
                                    : ""));
                            break;
                        }
                        // the printer may have stopped (a failed sync, a closed standard output): never wait on it then
                        while (!acks.offer(ack, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                            if (failure.get() != null) {
                                break;
                            }
                        }
                    }
                    store.sync();
                } finally {
                    while (printer.isAlive() && !acks.offer(END, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                        // the printer drains the queue, or has stopped
                    }
                    printer.join();
                }
                Throwable t = failure.get();
                if (t instanceof RuntimeException e) {
                    throw e;
                } else if (t != null) {
                    throw new IllegalStateException(t);
                }
                if (bad != null) {
                    throw bad;
                }
            } finally {
                out.flush();
            }
        }

        /** Prints each ack once its operation is durable; with BATCH it waits for the group commits. */
        private static void printAcks(Store store, Durability level, BlockingQueue<Ack> acks, OutputStream out,
                boolean escape) throws Exception {
            byte[] ok = "ok ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            for (;;) {
                Ack a = acks.take();
                if (a == END) {
                    out.flush();
                    return;
                }
                if (a.seq() >= 0 && level != Durability.NONE) {
                    if (a.seq() > store.durableSequence()) {
                        out.flush();
                        store.awaitDurable(a.seq());
                    }
                }
                out.write(ok);
                if (escape) {
                    // one line per acknowledgment, whatever the key holds
                    Lines.escape(out, a.key(), 0, a.key().length);
                } else {
                    out.write(a.key());
                }
                out.write('\n');
                if (acks.isEmpty()) {
                    out.flush();
                }
            }
        }

        /** @return {@code line[from, to)}, unescaped with {@code --escape} */
        private byte[] field(byte[] line, int from, int to, long lineNo) {
            return escape ? Lines.unescape(line, from, to, lineNo) : java.util.Arrays.copyOfRange(line, from, to);
        }

        private static int indexOf(byte[] b, byte x) {
            for (int i = 0; i < b.length; i++) {
                if (b[i] == x) {
                    return i;
                }
            }
            return -1;
        }

        private static String preview(byte[] line) {
            String s = new String(line, 0, Math.min(line.length, 60), java.nio.charset.StandardCharsets.UTF_8);
            return "'" + s + (line.length > 60 ? "...'" : "'");
        }
    }

    /** {@code iolab store get}. */
    @Command(name = "get", mixinStandardHelpOptions = true,
            description = "Prints the value of KEY; exit 1 when the store has no such key, 2 when it cannot be read"
                    + " (a damaged store included: the message names file and offset).")
    static final class Get implements Callable<Integer> {
        @CommandLine.Mixin
        Target target;

        @Parameters(index = "1", arity = "0..1", paramLabel = "KEY", description = "the key (its bytes as this"
                + " locale encodes them)")
        String key;

        @Option(names = "--key-hex", paramLabel = "HEX", description = "the key's bytes in hexadecimal, e.g."
                + " 636166c3a9 for 'café' in UTF-8: any key, whatever the locale")
        String keyHex;

        @Override
        public Integer call() throws IOException {
            byte[] k = keyBytes();
            byte[] value;
            try (Store store = openToRead(target.file, target.backend)) {
                value = store.get(k);
            } catch (RuntimeException e) {
                if (!Main.damaged(e)) {
                    throw e;
                }
                // exit 1 says the key is absent: a damaged store is the error a script must tell from it (grep's 2)
                System.err.println("iolab: " + Main.oneLine(e.getMessage()));
                return Main.USER_ERROR;
            }
            if (value == null) {
                System.err.println("iolab: no key " + (keyHex != null ? "0x" + keyHex : "'" + key + "'") + " in "
                        + target.file);
                return Main.FAILED;
            }
            System.out.write(value);
            System.out.write('\n');
            System.out.flush();
            if (System.out.checkError()) {
                throw new IolabException("cannot write the value to standard output (closed, or its reader ended)");
            }
            return 0;
        }

        /** @return the key's bytes: from --key-hex, else the argument as the locale encoded it */
        private byte[] keyBytes() {
            if ((key == null) == (keyHex == null)) {
                throw new IolabException("give the key either as KEY or with --key-hex HEX (one of them)");
            }
            if (keyHex != null) {
                try {
                    return java.util.HexFormat.of().parseHex(keyHex);
                } catch (IllegalArgumentException e) {
                    throw new IolabException("bad --key-hex '" + keyHex + "': give an even number of hexadecimal"
                            + " digits, e.g. 636166c3a9");
                }
            }
            // the JVM decoded the argument with the locale's charset: encoding it back the same way gives its bytes
            java.nio.charset.Charset native_ = nativeCharset();
            if (key.indexOf('\uFFFD') >= 0 || !native_.newEncoder().canEncode(key)) {
                throw new IolabException("the key argument is not valid text in this locale's charset (" + native_
                        + "), so its bytes are lost: give it with --key-hex (e.g. --key-hex "
                        + java.util.HexFormat.of().formatHex("café".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        + " for 'café' in UTF-8), or run in a UTF-8 locale (LC_ALL=C.UTF-8)");
            }
            return key.getBytes(native_);
        }

        private static java.nio.charset.Charset nativeCharset() {
            try {
                return java.nio.charset.Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
            } catch (IllegalArgumentException e) {
                return java.nio.charset.StandardCharsets.UTF_8;
            }
        }
    }

    /** {@code iolab store dump}. */
    @Command(name = "dump", mixinStandardHelpOptions = true,
            description = "Prints KEY<TAB>VALUE for every live record, in file order.")
    static final class Dump implements Callable<Integer> {
        @CommandLine.Mixin
        Target target;

        @Option(names = "--escape", description = "write a backslash, newline, carriage return and tab in a key or"
                + " value as \\\\, \\n, \\r and \\t, so that each record is one KEY<TAB>VALUE line ('store"
                + " load --escape' reads it back)")
        boolean escape;

        @Override
        public Integer call() throws IOException {
            OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
            boolean[] warned = {false};
            try (Store store = openToRead(target.file, target.backend)) {
                IOException[] failed = {null};
                store.scan((k, v) -> {
                    if (failed[0] == null) {
                        try {
                            if (escape) {
                                writeEscaped(out, k);
                                out.write('\t');
                                writeEscaped(out, v);
                            } else {
                                // a value ending in a carriage return reads back as a line with a CRLF ending
                                if (!warned[0] && (holds(k, (byte) '\t') || holds(k, (byte) '\n')
                                        || holds(v, (byte) '\n') || v.limit() > v.position()
                                        && v.get(v.limit() - 1) == '\r')) {
                                    warned[0] = true;
                                    System.err.println("iolab: a key holds a tab or newline, or a value a newline or"
                                            + " a final carriage return, so its line cannot be told apart; use"
                                            + " --escape for output that 'store load --escape' reads back as it was");
                                }
                                write(out, k);
                                out.write('\t');
                                write(out, v);
                            }
                            out.write('\n');
                        } catch (IOException e) {
                            failed[0] = e;
                        }
                    }
                });
                if (failed[0] != null) {
                    throw failed[0];
                }
            } finally {
                // the records before a damaged one are printed before the error
                out.flush();
            }
            return 0;
        }
    }

    /** {@code iolab store verify}. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Checks every record; exit 0 when all is well, 1 with a report when not.")
    static final class Verify implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "the store file")
        Path file;

        @Override
        public Integer call() {
            refuseShorterThanAHeader(file);
            StoreReport report = Store.verify(existing(file));
            String counts = report.liveRecords() + " live records, " + report.holes() + " holes";
            long bad = report.problems().stream().filter(p -> !p.recoverable()).count();
            // a file that does not begin as a store: repair refuses it without --force, so the advice says so
            String advice = Store.beginsAsStore(file) ? "run 'iolab store repair' to drop the damaged records"
                    : "the file does not begin as a store (its header page is damaged, or it is not one): if it is a"
                            + " store, 'iolab store repair --force " + file + "' gives it a new header and keeps the"
                            + " records a scan finds";
            return VerifyOutput.print(report.ok(), counts, report.problems(), bad, advice);
        }
    }

    /** {@code iolab store repair}. */
    @Command(name = "repair", mixinStandardHelpOptions = true,
            description = "Repairs the store so it opens again: drops the damaged records, keeps the records a"
                    + " damaged redo log lost but the data file holds, and prints each repair. Refused while a writer"
                    + " has it open.")
    static final class Repair implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "the store file")
        Path file;

        @Option(names = "--force", description = "repair a file that does not begin as a store (no header magic,"
                + " data in its header page): it gets a new header and keeps only the records a scan finds")
        boolean force;

        @Override
        public Integer call() {
            if (!Store.beginsAsStore(existing(file)) && !force) {
                // a zero page is refused only with data after it in which no record checks out: it said "its
                // header page holds other data" of that page too
                throw new IolabException("store file " + file + " does not begin as a store: " + (zeroPage(file)
                        ? "its header page (the first 4096 bytes) is zeros, and no record checks out in the data"
                                + " after it" : "neither header copy (offsets 0 and 512) has the store's magic and its"
                                + " header page holds other data") + ". It may be another kind of file, which a repair"
                        + " would cut to its first 4096 bytes; the file is unchanged. If it is a store whose header was"
                        + " overwritten, run again with --force");
            }
            StoreReport report = Store.repair(file);
            long dropped = report.problems().stream().filter(p -> !p.recoverable()).count();
            if (dropped == 0) {
                System.out.println("nothing to repair: " + report.liveRecords() + " live records");
                return 0;
            }
            for (StoreReport.Problem p : report.problems()) {
                if (!p.recoverable()) {
                    System.out.println("repaired: " + p);
                }
            }
            StoreReport now = Store.verify(file);
            System.out.println("kept " + now.liveRecords() + " live records");
            return 0;
        }
    }

    /** {@code iolab store compact}. */
    @Command(name = "compact", mixinStandardHelpOptions = true,
            description = "Rewrites the live records without holes; prints the sizes before and after.")
    static final class Compact implements Callable<Integer> {
        @CommandLine.Mixin
        Target target;

        @Option(names = "--compress", description = "compress the values with a symbol table trained on them (the"
                + " file becomes format version 3; later puts compress too)")
        boolean compress;

        @Option(names = "--decompress", description = "write every value plain and drop the symbol table. With"
                + " neither option, a compressed store stays compressed and a plain one plain")
        boolean decompress;

        @Override
        public Integer call() {
            // an empty or tiny file is not a store to compact: the open would make it one
            refuseShorterThanAHeader(target.file);
            // the sizes of the file itself: the open's recovery may already cut a tail a crash left, which the
            // store's own figure (taken after the open) would not show
            if (compress && decompress) {
                throw new IolabException("give --compress or --decompress, not both");
            }
            long before = sizeOf(target.file);
            boolean packed = compress;
            if (!compress && !decompress) {
                try (Store store = open(target.file, target.backend, Durability.BATCH)) {
                    packed = store.stats().symbols() > 0;
                }
            }
            CompactResult r;
            int symbols;
            try (Store store = Store.open(target.file, options(target.backend, Durability.BATCH)
                    .withCompression(packed))) {
                r = store.compact();
                symbols = store.stats().symbols();
            }
            System.out.printf(Locale.ROOT, "compacted %s: %d records, %d -> %d bytes (%.1f ms)%s%n", target.file,
                    r.records(), before, sizeOf(target.file), r.nanos() / 1e6,
                    symbols > 0 ? ", values compressed with " + symbols + " symbols"
                            : packed ? "; not compressed: no symbol table could be trained on its values (none, or"
                                    + " too few to pay); a later compact with --compress tries again" : "");
            return 0;
        }
    }

    /** {@code iolab store stats}. */
    @Command(name = "stats", mixinStandardHelpOptions = true,
            description = "Live records, free bytes, holes, file size and fragmentation of a store.")
    static final class Stats implements Callable<Integer> {
        @CommandLine.Mixin
        Target target;

        @Override
        public Integer call() {
            StoreStats s;
            try (Store store = openToRead(target.file, target.backend)) {
                s = store.stats();
            }
            System.out.println("file:           " + target.file);
            System.out.println("live records:   " + s.liveRecords());
            System.out.println("live bytes:     " + s.liveBytes() + " (keys and values)");
            System.out.println("stored bytes:   " + s.storedBytes() + " (live records with their headers)");
            System.out.println("free bytes:     " + s.freeBytes());
            System.out.println("holes:          " + s.holes());
            System.out.println("file size:      " + s.fileSize());
            System.out.printf(Locale.ROOT, "fragmentation:  %.1f%% of the file is free%n", 100 * s.fragmentation());
            System.out.println("last sequence:  " + s.lastSequence());
            System.out.println("compression:    " + (s.symbols() > 0 ? "values compressed with a symbol table of "
                    + s.symbols() + " symbols" : "none"));
            return 0;
        }
    }
}
