package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactedSizeTest {
    @TempDir
    Path tmp;

    @Test
    void compactionShrinksTheStoreToItsLiveRecordsAndTheFiguresAddUp() {
        CompactedSize.Sizes s = CompactedSize.measure(2000, tmp);
        long live = new EmployeeWorkload(2000).liveBytes(Phase.REOPEN);
        assertEquals(live, s.liveBytes());
        // every live record takes at least its key and value; the workload leaves holes a compaction drops
        assertTrue(s.after() > live && s.after() <= s.before(), s.toString());
        assertEquals((double) s.after() / live, s.afterRatio(), 1e-12);
        // the employees' repeated text compresses: the symbol table makes the file smaller than the plain compaction
        assertTrue(s.symbols() > 0 && s.compressed() < s.after(), s.toString());
        assertEquals((double) s.compressed() / live, s.compressedRatio(), 1e-12);
    }

    @Test
    void badArgumentsGetAClearMessageAndANonZeroExit() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CompactedSize.run(new String[] {"lots"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("records must be a whole number"), err.toString());
        code = CompactedSize.run(new String[] {"1"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, code);
    }
}
