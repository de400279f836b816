package org.iolab.journal;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import org.iolab.IolabException;
import org.iolab.storage.StorageFile;

/** Reads records in sequence order across segments, up to the writer's published tip. */
final class Cursor implements AutoCloseable {
    private final Journal journal;
    private long next;
    private SegmentRef ref;
    private SegmentCursor seg;
    private long expectedInSegment;
    private long sequence = -1;
    private boolean closed;
    /**
     * The {@link Journal#epoch()} this cursor's segments belong to: a read-only journal that read the files again
     * (a writer replaced the one being followed) makes it reopen its segment, or fail when records it returned were
     * cut.
     */
    private long epochSeen;
    private final boolean readOnly;

    Cursor(Journal journal, long from) {
        this.journal = journal;
        this.next = from;
        this.readOnly = journal.isReadOnly();
        this.epochSeen = journal.epoch();
    }

    /**
     * The journal's view of the files was replaced since this cursor chose its segment: fails when a cut took a
     * record this cursor returned; otherwise drops the segment, to be chosen again from the new view.
     */
    private void resynced() {
        long now = journal.epoch();
        IolabException cut = journal.cutSince(epochSeen, sequence);
        if (cut != null) {
            throw cut;
        }
        epochSeen = now;
        if (seg != null) {
            seg.close();
            seg = null;
        }
    }

    /** @return the sequence the next {@link #advance()} returns */
    long next() {
        return next;
    }

    long sequence() {
        return sequence;
    }

    ByteBuffer payload() {
        return seg.payload();
    }

    /**
     * @return true when positioned on the next record ({@link #sequence()}, {@link #payload()}), false when
     *         every record appended so far has been read
     * @throws JournalCorruptedException on a damaged record or a gap between segments
     */
    boolean advance() {
        if (closed) {
            throw new IolabException("this reader of journal " + journal.directory() + " was closed: open"
                    + " another one (from sequence " + next + ")");
        }
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        try {
            return advanceNow();
        } finally {
            Journal.restoreInterrupt(interrupted);
        }
    }

    /** @return whether a read-only journal's view changed since this cursor chose its segment */
    private boolean stale() {
        return readOnly && journal.epoch() != epochSeen;
    }

    private boolean advanceNow() {
        for (;;) {
            if (stale()) {
                resynced();
            }
            if (seg == null) {
                ref = journal.segmentFor(next);
                if (stale()) {
                    continue; // chosen from a view that changed meanwhile
                }
                if (ref.firstSeq > next) {
                    throw journal.deleted(next);
                }
                StorageFile file;
                try {
                    file = journal.openForRead(ref.path);
                } catch (IolabException e) {
                    if (readOnly && !Files.exists(ref.path) && journal.firstSequence() <= next) {
                        // gone, and not by a deleteBefore (the journal would start after it): a writer's cut may
                        // have deleted it, so the view is read again
                        try {
                            journal.fileReplaced();
                        } catch (RuntimeException x) {
                            x.addSuppressed(e);
                            throw x;
                        }
                        if (stale()) {
                            continue;
                        }
                    }
                    if (journal.firstSequence() > next) {
                        // deleted between the choice and the open (another process's writer, for a read-only one)
                        IolabException deleted = journal.deleted(next);
                        deleted.addSuppressed(e);
                        throw deleted;
                    }
                    throw e;
                }
                if (readOnly && Journal.replacedByAnother(ref)) {
                    // its path names another file than the view's (a writer's cut replaced it): the view goes first
                    file.close();
                    journal.fileReplaced();
                    if (stale()) {
                        continue;
                    }
                    return false; // the view could not be read again yet: no record for now
                }
                seg = new SegmentCursor(journal.opener(), ref.path, ref.capacity, file, Format.HEADER_SIZE,
                        readOnly ? null : ref);
                expectedInSegment = ref.firstSeq;
            }
            // read after the segment is chosen: a roll adds the new segment before it publishes the tip in it
            Tip tip = journal.tip();
            boolean active = ref == tip.segment();
            long sealedEnd = ref.sealedEnd;
            if (unpublished(ref, tip)) {
                // a segment a roll has just made, no record of it published yet: reading it now would buffer
                // bytes the appender has not written (zeros), which the next read must not take for its records
                if (journal.refresh()) {
                    continue;
                }
                return false;
            }
            SegmentCursor.Status status;
            if (active) {
                status = seg.next(tip.end(), true);
            } else if (sealedEnd >= 0) {
                status = seg.next(sealedEnd, true);
            } else {
                status = seg.next(ref.capacity, false);
            }
            switch (status) {
                case RECORD -> {
                    long s = seg.sequence();
                    if (s != expectedInSegment) {
                        throw new JournalCorruptedException(seg.path(), seg.recordStart(),
                                "record has sequence " + s + " where " + expectedInSegment + " was expected");
                    }
                    expectedInSegment++;
                    if (s >= next && stale()) {
                        // the view changed while this was read (the segment may be one a writer replaced since)
                        resynced();
                        continue;
                    }
                    if (s >= next) {
                        sequence = s;
                        next = s + 1;
                        return true;
                    }
                }
                case END -> {
                    if (active) {
                        if (journal.refresh() || journal.tip() != tip) {
                            continue; // moved, by this refresh or by another thread's while this one waited for it
                        }
                        // the records end at damage: said, not taken for the journal's end
                        journal.damageAfter(ref, seg.position());
                        return false;
                    }
                    SegmentRef following = journal.segmentAfter(ref);
                    if (stale()) {
                        continue; // the view changed: its segments are not this one's successors
                    }
                    if (following == null) {
                        return false;
                    }
                    if (following.firstSeq > expectedInSegment && !following.follows(expectedInSegment)
                            && journal.firstSequence() > expectedInSegment) {
                        // the segments after this one were deleted while it was read
                        throw journal.deleted(expectedInSegment);
                    }
                    if (!following.follows(expectedInSegment)) {
                        throw new JournalCorruptedException(seg.path(), seg.position(),
                                "the segment's records end before sequence " + expectedInSegment
                                        + " but the next segment " + following.path.getFileName() + " starts at "
                                        + following.firstSeq);
                    }
                    // past a gap a repair cut (the records between were damaged), at its first record
                    seg.close();
                    seg = null;
                    next = Math.max(next, following.firstSeq);
                }
                case BAD -> throw new JournalCorruptedException(seg.path(), seg.recordStart(), seg.problem());
                default -> throw new AssertionError(status);
            }
        }
    }

    /**
     * Hands {@code visitor} every record from {@link #next()} on up to the tip, in order, until it says stop: runs of
     * records already in the read buffer in one loop ({@link SegmentCursor#visitBuffered}), the rest through
     * {@link #advance()}.
     *
     * @return the number of records handed out
     * @throws JournalCorruptedException on a damaged record or a gap between segments
     */
    long forEach(RecordVisitor visitor) {
        long n = 0;
        for (;;) {
            Tip tip = journal.tip();
            // the epoch after the tip: a tip of a new view comes with its epoch (Journal.resync)
            if (seg != null && next == expectedInSegment && !stale() && !unpublished(ref, tip)) {
                boolean known = ref == tip.segment() || ref.sealedEnd >= 0;
                long limit = ref == tip.segment() ? tip.end() : known ? ref.sealedEnd : ref.capacity;
                long run = seg.visitBuffered(limit, known, expectedInSegment, visitor);
                long visited = run < 0 ? -1 - run : run;
                if (visited > 0) {
                    expectedInSegment += visited;
                    next = expectedInSegment;
                    sequence = seg.sequence();
                    n += visited;
                }
                if (run < 0) {
                    return n;
                }
            }
            if (!advance()) {
                return n;
            }
            n++;
            if (!visitor.visit(sequence, seg.payload())) {
                return n;
            }
        }
    }

    /** @return whether {@code ref} is a segment past {@code tip}'s, with none of its records published */
    private static boolean unpublished(SegmentRef ref, Tip tip) {
        return ref != tip.segment() && ref.sealedEnd < 0 && ref.firstSeq >= tip.nextSeq();
    }

    @Override
    public void close() {
        closed = true;
        if (seg != null) {
            seg.close();
            seg = null;
        }
    }
}
