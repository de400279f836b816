package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.iolab.IolabException;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * When FILE.idx is trusted: never the checkpoint of a copy of the store that diverged (a backup restored beside a newer
 * FILE.idx), and a leftover FILE.idx beside a missing data file is refused without creating anything.
 */
@Timeout(120)
class StoreIndexTrustTest {
    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int n, char c) {
        byte[] v = new byte[n];
        java.util.Arrays.fill(v, (byte) c);
        return v;
    }

    /**
     * Two copies of one store (same incarnation) diverge by the same number of operations to the same data end.
     * The FILE.idx of one, put beside the other (a restore from backup, a copy moved over the other), names the
     * same incarnation, checkpoint sequence and data end, and is trusted: live records vanish, and the copy's hole
     * covers them, so a later put overwrites them.
     */
    @Test
    void aCheckpointOfADivergedCopyIsTrustedOverAnotherDataFile() throws Exception {
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        Path a = tmp.resolve("a.store");
        try (Store s = Store.open(a, o)) {
            s.put(b("base"), value(40, 'z'));
        }
        Path bFile = tmp.resolve("b.store");
        Files.copy(a, bFile);
        Files.copy(IndexFile.of(a), IndexFile.of(bFile));
        // a: a 144-byte slot, a 72-byte slot, then the first one deleted: a hole of 144 bytes
        try (Store s = Store.open(a, o)) {
            s.put(b("k1"), value(110, '1'));
            s.put(b("k2"), value(40, '2'));
            s.delete(b("k1"));
        }
        // b: three 72-byte slots in the same 216 bytes
        Map<String, byte[]> model = new LinkedHashMap<>();
        model.put("base", value(40, 'z'));
        model.put("k3", value(40, '3'));
        model.put("k4", value(40, '4'));
        model.put("k5", value(40, '5'));
        try (Store s = Store.open(bFile, o)) {
            s.put(b("k3"), model.get("k3"));
            s.put(b("k4"), model.get("k4"));
            s.put(b("k5"), model.get("k5"));
            assertEquals(4, s.size());
        }
        // a.store's checkpoint restored beside b.store (e.g. the whole folder of a copied from a backup, then b's
        // data file copied over a's)
        Files.copy(IndexFile.of(a), IndexFile.of(bFile), StandardCopyOption.REPLACE_EXISTING);
        StringBuilder wrong = new StringBuilder();
        try (Store s = Store.open(bFile, o)) {
            for (Map.Entry<String, byte[]> e : model.entrySet()) {
                if (!java.util.Arrays.equals(e.getValue(), s.get(b(e.getKey())))) {
                    wrong.append("with the foreign FILE.idx, get(" + e.getKey() + ") is wrong; ");
                }
            }
            s.put(b("new"), value(40, 'n')); // takes a.store's hole: b.store's k3 lives there
        }
        // without any FILE.idx the open scans b.store: the records the put overwrote are gone for good
        Files.delete(IndexFile.of(bFile));
        try (Store s = Store.open(bFile, o)) {
            for (Map.Entry<String, byte[]> e : model.entrySet()) {
                if (!java.util.Arrays.equals(e.getValue(), s.get(b(e.getKey())))) {
                    wrong.append("after a rebuild by scan, get(" + e.getKey() + ") is "
                            + (s.get(b(e.getKey())) == null ? "null" : "wrong") + "; ");
                }
            }
        }
        assertEquals("", wrong.toString());
    }

    /**
     * The user deletes the data file (FILE.idx, which they never made, is left behind). Refusing the open is
     * deliberate (4d5e4bd: a checkpoint shows the store held records), but the refusal creates the missing data file
     * (0 bytes) and then calls it "not an iolab store ... the file is unchanged", never naming FILE.idx: the user is
     * told their path holds a foreign file that the open itself made.
     */
    @Test
    void aLeftoverCheckpointBesideAMissingDataFile() throws Exception {
        Path f = tmp.resolve("c.store");
        try (Store s = Store.open(f, StoreOptions.defaults())) {
            s.put(b("k"), b("v"));
        }
        Files.delete(f);
        assertFalse(Files.exists(f));
        try {
            Store.open(f, StoreOptions.defaults()).close(); // creating a fresh store would be fine too
        } catch (IolabException e) {
            String m = e.getMessage();
            StringBuilder wrong = new StringBuilder();
            if (Files.exists(f)) {
                wrong.append("the failed open created " + f + " (" + Files.size(f) + " bytes); ");
            }
            if (!m.contains(IndexFile.of(f).getFileName().toString())) {
                wrong.append("the message does not name the leftover checkpoint; ");
            }
            if (m.contains("not an iolab store") || m.contains("the file is unchanged")) {
                wrong.append("the message is false: " + m);
            }
            assertEquals("", wrong.toString());
        }
    }
}
