package org.iolab.catalogue;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.iolab.IolabException;
import org.junit.jupiter.api.Test;

/** Method ids are looked up the same way everywhere: {@code find} ignored case, {@code read} and the rest did not. */
class CatalogueLookupTest {
    @Test
    void everyLookupIgnoresCaseAndSurroundingSpaceLikeFind() {
        assertTrue(Catalogue.find("FIS-ARRAY").isPresent());
        assertSame(Catalogue.read("fis-array"), Catalogue.read("FIS-ARRAY"));
        assertSame(Catalogue.write("raf-write"), Catalogue.write(" Raf-Write "));
        assertSame(Catalogue.randomAccess("raf-seek"), Catalogue.randomAccess("RAF-SEEK"));
        IolabException e = assertThrows(IolabException.class, () -> Catalogue.read("no-such-method"));
        assertTrue(e.getMessage().contains("no-such-method") && e.getMessage().contains("fis-array"), e.getMessage());
    }
}
