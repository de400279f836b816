package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Pathological keys (empty, 64 KiB, differing only in their last byte) through the index and its checkpoint. */
@Timeout(300)
class StoreKeysTest {
    @TempDir
    Path tmp;

    @Test
    void pathologicalKeysSurviveReloadsAndDeletes() {
        List<byte[]> keys = new ArrayList<>();
        keys.add(new byte[0]);
        byte[] longKey = new byte[65535];
        Arrays.fill(longKey, (byte) 7);
        keys.add(longKey);
        byte[] longKey2 = longKey.clone();
        longKey2[65534] = 8;
        keys.add(longKey2);
        for (int n = 1; n <= 24; n++) {
            keys.add(new byte[n]); // zeros of every length
        }
        for (int i = 0; i < 256; i++) {
            byte[] k = new byte[17];
            k[0] = 1;
            k[16] = (byte) i; // differ only in the last byte
            keys.add(k);
            byte[] k2 = new byte[16];
            k2[0] = 1;
            k2[15] = (byte) i;
            keys.add(k2);
        }
        for (int i = 0; i < 60_000; i++) {
            keys.add(("key-" + i).getBytes());
        }
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        Path f = tmp.resolve("p.store");
        try (Store s = Store.open(f, o)) {
            for (int i = 0; i < keys.size(); i++) {
                s.put(keys.get(i), ("v" + i).getBytes());
            }
        }
        for (int round = 0; round < 3; round++) {
            try (Store s = Store.open(f, o)) {
                long live = 0;
                for (int i = 0; i < keys.size(); i++) {
                    byte[] want = (i % 3 < round) ? null : ("v" + i).getBytes();
                    assertArrayEquals(want, s.get(keys.get(i)), "round " + round + " key " + i);
                    if (want != null) {
                        live++;
                    }
                }
                assertEquals(live, s.size());
                for (int i = 0; i < keys.size(); i++) {
                    if (i % 3 == round) {
                        assertEquals(true, s.delete(keys.get(i)) > 0);
                    }
                }
                if (round == 1) {
                    s.compact();
                }
            }
        }
    }
}
