package org.iolab.bench.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives StoreReopenBenchmark's state by hand: the store it builds, the checks of its pass, the clean-up. */
class StoreReopenBenchmarkTest {
    @TempDir
    Path dir;

    private StoreReopenBenchmark bench(String records, String holes) {
        StoreReopenBenchmark b = new StoreReopenBenchmark();
        b.records = records;
        b.holes = holes;
        b.dir = dir.toString();
        return b;
    }

    @Test
    void buildsAStoreWithTheAskedLiveRecordsAndHolesAndDeletesItAfterwards() throws Exception {
        StoreReopenBenchmark b = bench("1000", "400");
        b.setupTrial();
        Path folder = b.folder();
        assertTrue(b.reopen() >= 40);
        assertTrue(b.reopen() >= 40); // a reopen leaves the store as it found it
        try (Store s = Store.open(folder.resolve("store.iolab"), StoreOptions.defaults()
                .withDurability(Durability.NONE))) {
            assertEquals(1000, s.stats().liveRecords());
            assertEquals(400, s.stats().holes());
        }
        b.tearDownTrial();
        assertFalse(Files.exists(folder));
    }

    @Test
    void aPassFailsWhenTheStoreLostARecord() {
        StoreReopenBenchmark b = bench("100", "0");
        b.setupTrial();
        try (Store s = Store.open(b.folder().resolve("store.iolab"), StoreOptions.defaults()
                .withDurability(Durability.NONE))) {
            s.delete("employee-99".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        assertThrows(IllegalStateException.class, b::reopen);
        b.tearDownTrial();
    }

    @Test
    void rejectsMoreHolesThanRecords() {
        IolabException e = assertThrows(IolabException.class, () -> bench("100", "101").setupTrial());
        assertTrue(e.getMessage().contains("holes=101"), e.getMessage());
    }
}
