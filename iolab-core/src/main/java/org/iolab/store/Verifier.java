package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.iolab.journal.VerifyReport;
import org.iolab.storage.Backend;
import org.iolab.storage.FileLocks;
import org.iolab.storage.StorageFile;
import org.iolab.storage.SyncFailureNote;

/** {@link Store#verify(Path)}: reads everything, changes nothing. */
final class Verifier {
    private Verifier() {
    }

    static StoreReport verify(Path file) {
        Store.checkRegular(file);
        if (!Files.isRegularFile(file)) {
            throw new IolabException("no store file " + file + ": give the data file a store was opened with");
        }
        // readers' shared lock: a writer changing the files under the check would make it report damage that is
        // not there; a file that turns out not to be a store keeps no lock file beside it
        FileLocks.Shared hold = Store.acquireShared(file);
        boolean foreign = false;
        try {
            StoreReport report = check(file);
            foreign = !report.ok() && !Store.beginsAsStore(file);
            return report;
        } finally {
            hold.release(foreign);
        }
    }

    private static StoreReport check(Path file) {
        List<StoreReport.Problem> problems = new ArrayList<>();
        Path note = Store.failedOf(file);
        if (SyncFailureNote.read(note) < 0 && SyncFailureNote.present(note)) {
            problems.add(new StoreReport.Problem(note, 0, "a file named as a failed sync's note that is none (an empty"
                    + " or damaged one: the write of a note a crash interrupted, or another file); the next writable"
                    + " open moves it aside to " + note.getFileName() + ".cut", true));
        }
        Path compact = Store.compactOf(org.iolab.storage.FileModes.target(file));
        if (Files.exists(compact, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // a review found a compaction stopped by a signal leaving tens of MB that verify did not mention
            problems.add(new StoreReport.Problem(compact, 0, "a compaction that did not finish left this copy; the"
                    + " store is whole without it, and the next writable open deletes it", true));
        }
        if (SyncFailureNote.read(note) >= 0) {
            problems.add(new StoreReport.Problem(note, 0, "a sync of the store's files failed (an I/O error): what"
                    + " it wrote may not be on the device although it reads back now; the next open rewrites the data"
                    + " file into new blocks", true));
        }
        try (StorageFile f = Backend.DEFAULT.open(file, false)) {
            long size = f.size();
            if (size < Header.COPY_B + Header.SIZE && Store.isBlank(f, file)) {
                problems.add(new StoreReport.Problem(file, 0, "the file is only " + size + " bytes long and holds no"
                        + " record: a creation that did not complete; the next open creates the store", true));
                return new StoreReport(file, 0, 0, 0, 0, problems);
            }
            if (size < Header.COPY_B + Header.SIZE) {
                problems.add(new StoreReport.Problem(file, 0, "the file is only " + size
                        + " bytes long, too short for the header page", false));
                return new StoreReport(file, 0, 0, 0, 0, problems);
            }
            ByteBuffer page = ByteBuffer.allocate(Header.COPY_B + Header.SIZE).order(ByteOrder.LITTLE_ENDIAN);
            f.read(0, page);
            Header.checkVersion(page, file);
            Header a = Header.decode(page, Header.COPY_A);
            Header b = Header.decode(page, Header.COPY_B);
            if (a == null && b == null && Store.isBlank(f, file)) {
                problems.add(new StoreReport.Problem(file, 0, "neither header copy (offsets 0 and 512) is valid and no"
                        + " record was written: a creation that did not complete; the next open creates the store",
                        true));
                return new StoreReport(file, 0, 0, 0, 0, problems);
            }
            if (a == null && b == null) {
                problems.add(new StoreReport.Problem(file, 0, "neither header copy (offsets 0 and 512) is valid",
                        false));
                return new StoreReport(file, 0, 0, 0, 0, problems);
            }
            for (int at : new int[] {Header.COPY_A, Header.COPY_B}) {
                if ((at == 0 ? a : b) == null && !zero(page, at)) {
                    problems.add(new StoreReport.Problem(file, at, "header copy at " + at
                            + " is invalid (a torn header write?); the other copy is used", true));
                }
            }
            Header h = a == null || (b != null && b.generation() > a.generation()) ? b : a;
            SymbolTable table = h.packed() ? SymbolTable.read(Store.tablePage(f), 0) : null;
            if (h.packed() && table == null) {
                problems.add(new StoreReport.Problem(file, Header.TABLE, "the symbol table of this compressed store is"
                        + " damaged: its compressed values cannot be decoded (repair cannot rebuild it)", false));
            }
            List<ByteBuffer> records = redoRecords(file, h.checkpointSeq(), problems);
            long redo = records == null ? 0 : records.size();
            boolean clean = h.clean() && redo == 0;
            RedoReplay replayed = null;
            IndexFile.Loaded checkpoint = null;
            if (!clean) {
                problems.add(new StoreReport.Problem(file, 0, "not closed cleanly (" + redo
                        + " operations in the redo log); the next open recovers", true));
                if (records != null && (redo > 0 || h.redoFlag() && Store.hasSegments(Store.walOf(file)))) {
                    replayed = checkReplay(file, f, h, records, problems);
                }
            } else {
                String[] why = new String[1];
                checkpoint = IndexFile.load(file, h, why);
                if (checkpoint == null) {
                    problems.add(new StoreReport.Problem(IndexFile.of(file), 0, why[0]
                            + "; the next open rebuilds the index by a scan", true));
                }
            }
            if (size < h.dataEnd()) {
                // clean or not: no crash leaves a file shorter than its last checkpoint's data end
                problems.add(new StoreReport.Problem(file, size, "the file ends before its data end " + h.dataEnd()
                        + " (truncated)", false));
            }
            long end = clean ? Math.min(h.dataEnd(), size) : size;
            long[] counts = new long[2];
            RedoReplay model = replayed;
            // what the walk finds, in file order, compared with the checkpoint an open would trust
            CheckpointCheck compare = checkpoint == null ? null : new CheckpointCheck(file, checkpoint);
            long found = new Scanner(f).walk(Slots.DATA_START, end,
                    new Scanner.Policy(clean ? Long.MAX_VALUE : h.dataEnd(), !clean, h.checkpointSeq(),
                            Long.MAX_VALUE, true), new Scanner.Sink() {
                        @Override
                        public void live(long offset, int slotLength, long seq, ByteBuffer buf, int at, int k,
                                int v) {
                            counts[0]++;
                            if (compare != null) {
                                compare.live(offset, Slots.hash(buf, at + Slots.HEADER, k) >>> KeyIndex.FINGERPRINT_SHIFT);
                            }
                            if (Slots.packed(buf.getLong(at)) && (table != null || !h.packed())) {
                                // a damaged table is reported once, above
                                String wrong = Store.undecodable(table, buf, at + Slots.HEADER + k, v);
                                if (wrong != null) {
                                    problems.add(new StoreReport.Problem(file, offset, wrong, false));
                                }
                            }
                        }

                        @Override
                        public void free(long offset, int slotLength, long seq) {
                            counts[1]++;
                            if (compare != null) {
                                compare.free(offset, slotLength);
                            }
                        }

                        @Override
                        public boolean damaged(long offset, long length, String what) {
                            // a hole after the replay, or a slot the replay writes: the open rewrites it (a torn
                            // free-header or slot write that was never synced)
                            problems.add(new StoreReport.Problem(file, offset, what, model != null
                                    && (model.holes().contains(offset) || model.writes(offset))));
                            return true;
                        }
                    });
            if (compare != null && problems.stream().allMatch(StoreReport.Problem::recoverable)) {
                StoreReport.Problem wrong = compare.finish();
                if (wrong != null) {
                    problems.add(wrong);
                }
            }
            return new StoreReport(file, counts[0], counts[1], found, redo, problems);
        }
    }

    /**
     * Compares the index checkpoint a clean open would trust with the slots a walk finds, in file order: every entry
     * must point at a live record of a key with its fingerprint, every live record must have one entry, and every hole
     * must be free slots from its start to its end. A checkpoint that passes its own checks (incarnation, data end,
     * CRC) but not these was written wrong or edited: an open would lose keys, overwrite records with puts into its
     * holes, or read a value from inside another record. Memory: the entries, sorted (8 bytes a record), and the holes.
     */
    private static final class CheckpointCheck {
        private final Path file;
        /** The entries as {@code offset / 8 << 27 | fingerprint}, sign bit flipped, ascending: by offset. */
        private final long[] entries;
        private final long[] holes;
        private int next;
        private int hole;
        /** Inside a hole: where the next free slot must start; else -1. */
        private long covered = -1;
        private StoreReport.Problem first;

        CheckpointCheck(Path file, IndexFile.Loaded checkpoint) {
            this.file = file;
            long[] e = new long[checkpoint.index().size()];
            int[] n = {0};
            checkpoint.index().forEachEntry(entry -> {
                if (n[0] < e.length) {
                    e[n[0]] = (KeyIndex.offsetOf(entry) >>> 3 << (64 - KeyIndex.FINGERPRINT_SHIFT)
                            | entry >>> KeyIndex.FINGERPRINT_SHIFT) ^ Long.MIN_VALUE;
                }
                n[0]++;
            });
            Arrays.sort(e);
            entries = e;
            // by offset, without boxing: the starts sorted, each one's length found again through an offset map
            long[] h = checkpoint.holes();
            long[] starts = new long[h.length / 2];
            FreeSpace.OffsetMap lengths = new FreeSpace.OffsetMap();
            lengths.reserve(starts.length);
            for (int i = 0; i < starts.length; i++) {
                starts[i] = h[2 * i];
                lengths.put(h[2 * i], h[2 * i + 1]);
            }
            Arrays.sort(starts);
            holes = new long[h.length];
            for (int i = 0; i < starts.length; i++) {
                holes[2 * i] = starts[i];
                holes[2 * i + 1] = lengths.get(starts[i]);
            }
        }

        private long offset(int i) {
            return ((entries[i] ^ Long.MIN_VALUE) >>> (64 - KeyIndex.FINGERPRINT_SHIFT)) << 3;
        }

        private long fingerprint(int i) {
            return (entries[i] ^ Long.MIN_VALUE) & ((1L << (64 - KeyIndex.FINGERPRINT_SHIFT)) - 1);
        }

        void live(long offset, long fingerprint) {
            if (first != null) {
                return;
            }
            if (next < entries.length && offset(next) < offset) {
                wrong("has an entry for offset " + offset(next) + " of the data file, but no record starts there");
            } else if (next >= entries.length || offset(next) > offset) {
                wrong("does not have the record at offset " + offset + " of the data file (its key would read as"
                        + " absent)");
            } else if (fingerprint(next) != fingerprint) {
                wrong("has an entry for offset " + offset + " of the data file, but the record there is another key's");
            } else if (++next < entries.length && offset(next) == offset) {
                wrong("has two entries for offset " + offset + " of the data file");
            } else if (covered >= 0 || hole < holes.length && holes[hole] <= offset) {
                wrongHole();
            }
        }

        void free(long offset, int length) {
            if (first != null) {
                return;
            }
            if (next < entries.length && offset(next) <= offset) {
                wrong("has an entry for offset " + offset(next) + " of the data file, but no record starts there");
            } else if (covered >= 0 && covered != offset || covered < 0 && hole < holes.length
                    && holes[hole] < offset) {
                wrongHole();
            } else if (covered >= 0 || hole < holes.length && holes[hole] == offset) {
                covered = offset + length;
                long end = holes[hole] + holes[hole + 1];
                if (covered == end) {
                    covered = -1;
                    hole += 2;
                } else if (covered > end) {
                    wrongHole();
                }
            }
            // a free slot no hole names is space the store does not reuse: no harm
        }

        StoreReport.Problem finish() {
            if (first == null && next < entries.length) {
                wrong("has an entry for offset " + offset(next) + " of the data file, but no record starts there");
            }
            if (first == null && (covered >= 0 || hole < holes.length)) {
                wrongHole();
            }
            return first;
        }

        private void wrongHole() {
            wrong("has a hole of " + holes[hole + 1] + " bytes at offset " + holes[hole] + " of the data file, which"
                    + " is not free space there (a put into it would overwrite records)");
        }

        private void wrong(String what) {
            Path idx = IndexFile.of(file);
            first = new StoreReport.Problem(idx, 0, "the index checkpoint " + what + "; an open would trust it:"
                    + " 'iolab store repair " + file + "' rebuilds the index from the data file (or delete " + idx
                    + " and open the store)", false);
        }
    }

    private static boolean zero(ByteBuffer page, int at) {
        for (int i = at; i < at + Header.SIZE; i++) {
            if (page.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * What an open does after an unclean stop when the redo log was in use and the index checkpoint is valid: the
     * replay's effect on the index ({@link RedoReplay}), then the check of every entry; reports what they find.
     */
    private static RedoReplay checkReplay(Path file, StorageFile f, Header h, List<ByteBuffer> records,
            List<StoreReport.Problem> problems) {
        IndexFile.Loaded c = IndexFile.load(file, h, new String[1]);
        if (c == null) {
            // the open rebuilds the index by a scan, which the walk below models
            return null;
        }
        FreeSpace free = new FreeSpace();
        c.addHoles(free);
        RedoReplay model = new RedoReplay(file, c.index(), free, c.liveBytes(), c.storedBytes(), h.dataEnd(),
                h.checkpointSeq());
        try {
            for (ByteBuffer r : records) {
                model.apply(Redo.Op.decode(r, Store.walOf(file)));
            }
        } catch (StoreCorruptedException e) {
            problems.add(new StoreReport.Problem(e.file(), e.offset(), e.what(), false));
            return null;
        }
        RedoReplay.Found found = model.check(f, null);
        if (found.lost() != null) {
            problems.add(new StoreReport.Problem(file, found.lost().offset(), found.lost().what()
                    + "; repair rebuilds the index from the data file, which keeps those operations", false));
        }
        if (found.damaged() != null) {
            problems.add(new StoreReport.Problem(file, found.damaged().offset(), found.damaged().what(), false));
        }
        return model;
    }

    /**
     * @return the redo records after {@code cpSeq} as an open reads them (none when there is no log), or null when
     *         the log cannot be read (reported)
     */
    private static List<ByteBuffer> redoRecords(Path file, long cpSeq, List<StoreReport.Problem> problems) {
        Path wal = Store.walOf(file);
        List<ByteBuffer> out = new ArrayList<>();
        if (!Store.hasSegments(wal)) {
            return out;
        }
        VerifyReport report = Journal.verify(wal);
        for (VerifyReport.Problem p : report.problems()) {
            problems.add(new StoreReport.Problem(p.file(), p.offset(), "redo log: " + p.what(), p.recoverable()));
        }
        if (!report.ok()) {
            return null;
        }
        if (report.records() == 0) {
            // nothing at all (a segment whose creation a crash cut: the next open deletes it, and a read-only open
            // would find no journal)
            return out;
        }
        try (Journal j = Journal.openReadOnly(wal, JournalOptions.defaults())) {
            Redo.read(j, cpSeq, wal, out);
        } catch (StoreCorruptedException e) {
            problems.add(new StoreReport.Problem(e.file(), e.offset(), "redo log: " + e.what(), false));
            return null;
        } catch (IolabException e) {
            problems.add(new StoreReport.Problem(wal, 0, "redo log unreadable: " + e.getMessage(), false));
            return null;
        }
        return out;
    }
}
