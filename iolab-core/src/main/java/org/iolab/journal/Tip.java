package org.iolab.journal;

/**
 * The writer's published position, replaced as a whole after each append so readers see a consistent triple.
 *
 * @param segment the segment being appended to
 * @param end the offset after its last complete record
 * @param nextSeq the sequence the next append gets
 */
record Tip(SegmentRef segment, long end, long nextSeq) {
}
