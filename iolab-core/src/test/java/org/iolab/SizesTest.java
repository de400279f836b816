package org.iolab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizesTest {
    @ParameterizedTest
    @CsvSource({"1,1", "512,512", "8k,8192", "8KiB,8192", "8 kb,8192", "64m,67108864", "1g,1073741824",
            "2GiB,2147483648", "1t,1099511627776", "0,0"})
    void parsesBinaryUnits(String text, long bytes) {
        assertEquals(bytes, Sizes.parse(text, "--sizes"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"12q", "", "-1", "1.5m", "k", "99999999999999999999", "9999999999t"})
    void rejectsWithTheParameterAndTheValue(String text) {
        IolabException e = assertThrows(IolabException.class, () -> Sizes.parse(text, "--buffers"));
        assertTrue(e.getMessage().contains("--buffers") && e.getMessage().contains("'" + text + "'"),
                e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"1,1 B", "8192,8 KiB", "1536,1.5 KiB", "134217728,128 MiB", "1073741824,1 GiB"})
    void formats(long bytes, String text) {
        assertEquals(text, Sizes.format(bytes));
    }
}
