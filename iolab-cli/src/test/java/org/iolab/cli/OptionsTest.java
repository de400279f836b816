package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.iolab.IolabException;
import org.iolab.catalogue.Catalogue;
import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void sizesParseUnitsAndKeepOrder() {
        assertEquals(List.of(1L, 8192L, 1L << 20), Options.sizes("1, 8k,1m", "--buffers", 1L << 30));
        assertEquals(List.of(8192L), Options.sizes("8k,8KiB", "--buffers", 1L << 30));
    }

    @Test
    void badSizesNameTheValue() {
        for (String bad : List.of("0", "-1", "-8k", "12q", "", "8k,,1m", "2g")) {
            IolabException e = assertThrows(IolabException.class, () -> Options.sizes(bad, "--buffers", 1L << 30),
                    bad);
            assertTrue(e.getMessage().contains("--buffers"), e.getMessage());
        }
        IolabException e = assertThrows(IolabException.class, () -> Options.sizes("12q", "--sizes", 1L << 40));
        assertTrue(e.getMessage().contains("'12q'"), e.getMessage());
    }

    @Test
    void aLimitJustUnderTheSizeAskedIsGivenInBytes() {
        // "at most 256.0 MiB" for 256m contradicted itself: the journal's limit is 80 bytes under it
        long max = (256L << 20) - 80;
        IolabException e = assertThrows(IolabException.class, () -> Options.sizes("256m", "--record-sizes", max));
        assertTrue(e.getMessage().contains("(" + max + " bytes; this is " + (256L << 20) + ")"), e.getMessage());
        e = assertThrows(IolabException.class, () -> Options.sizes("2g", "--buffers", 1L << 30));
        assertTrue(e.getMessage().endsWith("at most 1 GiB"), e.getMessage());
    }

    @Test
    void methodsAreCheckedAgainstTheCatalogue() {
        String id = Catalogue.infos().getFirst().id();
        assertEquals(List.of(id), Options.methods(" " + id.toUpperCase(java.util.Locale.ROOT) + " "));
        IolabException e = assertThrows(IolabException.class, () -> Options.methods(id + ",nope"));
        assertTrue(e.getMessage().contains("'nope'") && e.getMessage().contains(id), e.getMessage());
    }

    @Test
    void benchOptionsAreChecked() {
        BenchCommand c = new BenchCommand();
        c.forks = -1;
        assertThrows(IolabException.class, c::request);
        c.forks = null;
        c.runs = 0;
        assertThrows(IolabException.class, c::request);
        c.runs = null;
        c.budget = 0.0;
        assertThrows(IolabException.class, c::request);
        c.budget = null;
        c.prealloc = "sometimes";
        assertThrows(IolabException.class, c::request);
    }
}
