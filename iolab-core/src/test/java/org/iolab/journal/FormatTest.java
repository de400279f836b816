package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FormatTest {
    @Test
    void segmentNamesAreTwentyZeroPaddedDigitsAndParseBack() {
        long[] seqs = {0, 1, 9, 10, 123_456_789, 99_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE};
        for (long seq : seqs) {
            String name = Format.fileName(seq);
            assertEquals(String.format("%020d.seg", seq), name);
            assertEquals(seq, Format.parseName(Path.of("/x", name)));
        }
        assertEquals("00000000000000000042.seg", Format.fileName(42));
    }
}
