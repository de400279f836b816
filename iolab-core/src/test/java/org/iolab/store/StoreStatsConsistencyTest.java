package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Store#stats()} beside a writer: every snapshot adds up (the data end is the header page, slots and holes). */
class StoreStatsConsistencyTest {
    @TempDir
    Path tmp;

    @Test
    void statsTakenWhileAWriterReusesHolesAlwaysAddUp() throws Exception {
        try (Store s = Store.open(tmp.resolve("s"), StoreOptions.defaults().withDurability(Durability.NONE))) {
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = Thread.ofPlatform().start(() -> {
                Random r = new Random(7);
                while (!stop.get()) {
                    byte[] key = ("k" + r.nextInt(300)).getBytes(StandardCharsets.UTF_8);
                    if (r.nextInt(3) == 0) {
                        s.delete(key);
                    } else {
                        s.put(key, new byte[r.nextInt(400)]);
                    }
                }
            });
            List<String> torn = new ArrayList<>();
            try {
                long until = System.nanoTime() + 1_500_000_000L;
                while (System.nanoTime() < until && torn.size() < 5) {
                    StoreStats st = s.stats();
                    if (st.dataEnd() != Slots.DATA_START + st.storedBytes() + st.freeBytes()) {
                        torn.add(st.toString());
                    }
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            assertEquals(List.of(), torn, "snapshots whose data end is not the header page plus slots plus holes");
        }
    }
}
