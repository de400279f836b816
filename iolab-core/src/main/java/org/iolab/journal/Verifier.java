package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.storage.Bytes;
import org.iolab.storage.StorageFile;

/** {@link Journal#verify(Path)}: a read-only check of every segment and record. */
final class Verifier {
    private static final int CHUNK = 1 << 20;

    private Verifier() {
    }

    static VerifyReport verify(Path dir, StorageOpener opener) {
        if (!Files.isDirectory(dir)) {
            throw new IolabException("no journal directory " + dir + ": give the directory a journal was opened in");
        }
        List<Path> files = Journal.listSegments(dir);
        List<VerifyReport.Problem> problems = new ArrayList<>();
        // a failed sync's note: every record before its sequence was covered by a completed sync, like those below a
        // synced mark, so damage there is no torn tail (open refuses it; repair must cut it)
        long noted = FailedSync.read(dir);
        long records = 0;
        long bytes = 0;
        long lost = 0;
        long expectedNext = -1;
        Path previous = null;
        long previousEnd = 0;
        // a segment without its seal marker before the last one was being sealed at a crash: its torn tail, a
        // gap after it and the last segment are what open cuts away, not damage to durable records
        boolean previousUnsealed = false;
        // whether the segment before carries its seal marker: written only after its successor's header was synced
        boolean previousSealed = false;
        int start = startIndex(files, opener);
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            boolean last = i == files.size() - 1;
            long nameSeq = Format.parseName(file);
            if (i < start) {
                if (Files.exists(file)) {
                    problems.add(new VerifyReport.Problem(file, 0, "a segment before the journal's start (segment "
                            + files.get(start).getFileName() + " carries the start marker): left by a deleteBefore"
                            + " that a crash interrupted, or being deleted by one now; the next open deletes it (or,"
                            + " when it holds bytes no segment does, keeps them aside in a *.cut file)",
                            true));
                }
                continue;
            }
            StorageFile opened;
            try {
                opened = opener.open(file, false);
            } catch (IolabException e) {
                if (!Files.exists(file) && files.subList(0, i).stream().noneMatch(Files::exists)) {
                    // deleted by a writer's deleteBefore since the listing, with every segment before it (oldest
                    // first): the journal now starts after it, so no gap is reported before the next one
                    expectedNext = -1;
                    continue;
                }
                throw e;
            }
            try (StorageFile f = opened) {
                long size = f.size();
                ByteBuffer header = ByteBuffer.allocate(Format.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
                String bad;
                if (size < Format.HEADER_SIZE) {
                    bad = "the file is " + size + " bytes, shorter than a segment header";
                } else {
                    f.read(0, header);
                    bad = Format.checkHeader(header, nameSeq);
                }
                if (bad != null) {
                    boolean empty = holdsNothing(f);
                    // the first segment of a journal that does not start at 0 and has no other start: whatever is
                    // in it, open refuses the journal and repair rewrites the header
                    boolean trimmedFirst = start < 0 && i == 0 && nameSeq > 0;
                    boolean dropped = last && (empty || previousUnsealed) && !trimmedFirst;
                    if (dropped && empty && previousSealed && expectedNext >= 0 && nameSeq > expectedNext
                            && wholeAfter(previous, previousEnd, opener)) {
                        // the empty segment a repair made after a cut, named past the records it cut (as the open
                        // sees it: Journal.emptyTailAfterSeal)
                        problems.add(new VerifyReport.Problem(file, 0, bad + " (the last segment holds nothing, and the"
                                + " segment before it is sealed, so this header was synced, then damaged: the next open"
                                + " writes it again, and the journal goes on at sequence " + nameSeq + " after the gap"
                                + " from " + expectedNext + ")", true));
                        lost += nameSeq - expectedNext;
                        expectedNext = -1;
                        continue;
                    }
                    problems.add(new VerifyReport.Problem(file, 0, bad + (dropped
                            ? " (the last segment holds nothing durable: the next open deletes it" + (empty ? ")"
                                    : ", its bytes kept aside in a *.cut file)") : ""), dropped));
                    expectedNext = -1;
                    continue;
                }
                if (start < 0 && i == 0 && nameSeq > 0) {
                    problems.add(new VerifyReport.Problem(file, Format.START_OFFSET, Format.missingStart(nameSeq,
                            header), false));
                }
                if (expectedNext >= 0 && nameSeq > expectedNext
                        && Format.follows(header.getInt(Format.START_OFFSET), nameSeq, expectedNext)) {
                    lost += nameSeq - expectedNext; // a gap a repair cut, not damage
                } else if (expectedNext >= 0 && nameSeq != expectedNext) {
                    problems.add(new VerifyReport.Problem(previous, previousEnd, "the segment's records end before"
                            + " sequence " + expectedNext + " but the next segment starts at " + nameSeq,
                            last && previousUnsealed));
                }
                // a sealed last segment (its successor gone, or cut by a repair) had every record synced before
                // its seal: damage in it is not a torn tail (a seal word that is not the marker does not count)
                boolean tail = (last && !Format.sealed(header, nameSeq))
                        || (i == files.size() - 2 && !Format.sealStarted(header));
                long capacity = header.getLong(24);
                // below the synced mark every record was synced: damage there is not a torn tail either
                long mark = Format.syncedMark(header, nameSeq, capacity);
                long expected = nameSeq;
                int problemsBefore = problems.size();
                try (SegmentCursor c = new SegmentCursor(opener, file, capacity, opener.open(file, false))) {
                    for (;;) {
                        SegmentCursor.Status status = c.next(capacity, false);
                        // as open: a last segment's data that ends below its mark, sealed or not, lost synced records
                        if (status == SegmentCursor.Status.END && (tail || last) && c.recordStart() < mark) {
                            problems.add(new VerifyReport.Problem(file, c.recordStart(), Journal.damageBelowMark(
                                    c.recordStart(), mark, expected), false));
                            break;
                        }
                        if (status == SegmentCursor.Status.END && last && expected < noted) {
                            problems.add(new VerifyReport.Problem(file, c.recordStart(), "the records end at sequence "
                                    + (expected - 1) + ", before sequence " + noted + ", which a failed sync's note says"
                                    + " a completed sync covered: synced records are missing", false));
                            break;
                        }
                        if (status == SegmentCursor.Status.END) {
                            long garbage = tail ? firstNonZero(f, c.position(), Math.min(size, capacity)) : -1;
                            if (garbage >= 0) {
                                problems.add(new VerifyReport.Problem(file, garbage, "non-zero bytes after the end of"
                                        + " the data at " + c.position() + " (an unacknowledged, partly written tail)",
                                        true));
                            }
                            break;
                        }
                        if (status == SegmentCursor.Status.BAD || c.sequence() != expected) {
                            String what = status == SegmentCursor.Status.BAD ? c.problem()
                                    : "record has sequence " + c.sequence() + " where " + expected + " was expected";
                            boolean noteCovers = expected < noted;
                            boolean torn = tail && c.recordStart() >= mark && !noteCovers;
                            problems.add(new VerifyReport.Problem(file, c.recordStart(), tail && !torn ? what
                                    + (c.recordStart() < mark ? " (below the segment's synced mark at offset " + mark
                                    + ": a record that was synced)" : " (before sequence " + noted + ", which a failed"
                                    + " sync's note says a completed sync covered)") : what, torn));
                            break;
                        }
                        expected++;
                        records++;
                        bytes += c.position() - c.recordStart();
                    }
                    previousEnd = c.recordStart();
                }
                expectedNext = expected;
                previous = file;
                previousUnsealed = tail && !last;
                // sealed, and no problem found in it (wholeAfter asks the rest when it matters, as the open does)
                previousSealed = Format.sealed(header, nameSeq) && problems.size() == problemsBefore;
            }
        }
        if (noted < 0 && FailedSync.present(dir)) {
            // a review found such a file passed over in silence, while the next open moves it aside
            problems.add(new VerifyReport.Problem(FailedSync.of(dir), 0, "a file named as a failed sync's note that is"
                    + " none (an empty or damaged one: the write of a note a crash interrupted, or another file); the"
                    + " next writable open moves it aside to " + FailedSync.NAME + ".cut", true));
        }
        if (noted >= 0) {
            problems.add(new VerifyReport.Problem(FailedSync.of(dir), 0, "a sync of this journal failed (an I/O error):"
                    + " the records from sequence " + noted + " on were never reported durable and may not be on the"
                    + " device although they read back now; the next open cuts them", true));
        }
        return new VerifyReport(dir, files.size(), records, bytes, lost, problems);
    }

    /**
     * @return the index in {@code files} of the segment the journal begins at ({@link Journal#startIndex}), -1 when
     *     none is a start; a file that cannot be read, or is gone, is not
     */
    private static int startIndex(List<Path> files, StorageOpener opener) {
        SegmentRef[] refs = new SegmentRef[files.size()];
        for (int i = 0; i < refs.length; i++) {
            Path file = files.get(i);
            long nameSeq = Format.parseName(file);
            try (StorageFile f = opener.open(file, false)) {
                ByteBuffer header = Format.readHeader(f);
                if (header != null && Format.checkHeader(header, nameSeq) == null) {
                    refs[i] = new SegmentRef(nameSeq, file, header.getLong(24));
                    refs[i].start = Format.isStart(header, nameSeq);
                }
            } catch (IolabException e) {
                // deleted since the listing (by a writer's deleteBefore), or unreadable: not a start
            }
        }
        return Journal.startIndex(refs);
    }

    /**
     * @return whether sealed segment {@code file}'s bytes after its records, from {@code end} to its capacity, are all
     *     zeros: its records end where its data does (Journal.emptyTailAfterSeal asks the same)
     */
    private static boolean wholeAfter(Path file, long end, StorageOpener opener) {
        try (StorageFile f = opener.open(file, false)) {
            ByteBuffer header = Format.readHeader(f);
            long capacity = header == null ? f.size() : header.getLong(24);
            return firstNonZero(f, end, Math.min(f.size(), capacity)) < 0;
        }
    }

    /**
     * @return the offset of the first non-zero byte in {@code [from, to)} of {@code f}, or -1; read as the file
     *         holds it now ({@link StorageFile#readPresent}), as a writer may be cutting a zero tail meanwhile
     */
    static long firstNonZero(StorageFile f, long from, long to) {
        long end = Math.min(to, f.size());
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        for (long p = from; p < end; ) {
            chunk.clear().limit((int) Math.min(CHUNK, end - p));
            int n = f.readPresent(p, chunk);
            if (n == 0) {
                return -1;
            }
            chunk.flip();
            for (int i = 0; i < n; i++) {
                if (chunk.get(i) != 0) {
                    return p + i;
                }
            }
            p += n;
        }
        return -1;
    }

    /** @return the offset of the last non-zero byte of {@code f} in {@code [from, to)}, or -1 when they are all zeros */
    static long lastNonZero(StorageFile f, long from, long to) {
        long start = Math.max(0, from);
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        for (long q = Math.min(to, f.size()); q > start; ) {
            int n = (int) Math.min(CHUNK, q - start);
            f.read(q - n, chunk.clear().limit(n));
            for (int i = n - 1; i >= 0; i--) {
                if (chunk.get(i) != 0) {
                    return q - n + i;
                }
            }
            q -= n;
        }
        return -1;
    }

    /**
     * @return whether a segment file whose header is not valid holds nothing a crash could not leave: zeros after
     *     where the header goes, and, in a file shorter than a header, zeros or the start of its header (a creation
     *     interrupted while writing it). Bytes that are neither are kept aside rather than deleted: they may be a
     *     file that only has a segment's name
     */
    static boolean holdsNothing(StorageFile f) {
        long size = f.size();
        if (size >= Format.HEADER_SIZE) {
            return firstNonZero(f, Format.HEADER_SIZE, size) < 0;
        }
        ByteBuffer b = ByteBuffer.allocate((int) size);
        f.read(0, b);
        if (!Bytes.nonZero(b.flip())) {
            return true;
        }
        // the start of the header a creation writes: magic, version, header size, first sequence (then capacity and
        // CRC, which any bytes may be)
        ByteBuffer expected = Format.header(Format.parseName(f.path()), 0);
        for (int i = 0; i < size && i < 24; i++) {
            if (b.get(i) != expected.get(i)) {
                return false;
            }
        }
        return true;
    }
}
