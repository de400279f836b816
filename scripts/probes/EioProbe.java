// A journal on a device that starts failing writes, for scripts/eio-rig.sh (docs/RESULTS.md, 2026-11-25 03:04).
//   write DIR DURABILITY N: appends 4 KiB records (record i is filled with 'a' + i % 26) until N or the first failure
//     (NONE: a sync every 64 records); prints the durable sequence
//   read DIR DURABILITY [M]: opens the journal (its recovery), reads and checks every record; then appends M more
//     and syncs them
// System properties: prealloc (FALLOCATE, ZERO_FILL, NONE), backend (a backend label), noprefault (true/false).
import java.nio.file.Path;
import org.iolab.journal.*;
import org.iolab.storage.Durability;
import org.iolab.catalogue.Preallocation;

public class EioProbe {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[1]);
        JournalOptions o = JournalOptions.defaults().withDurability(Durability.valueOf(a[2]))
                .withSegmentSize(8 << 20).withPrefault(!Boolean.getBoolean("noprefault")).withBackend(org.iolab.storage.Backend.parse(System.getProperty("backend", "segment"))).withPreallocation(Preallocation.valueOf(System.getProperty("prealloc", "FALLOCATE")));
        byte[] rec = new byte[4096];
        if (a[0].equals("write")) {
            Journal j = Journal.open(dir, o);
            long i = j.nextSequence();
            try {
                for (; i < Long.parseLong(a[3]); i++) {
                    java.util.Arrays.fill(rec, (byte) ('a' + i % 26));
                    j.append(rec);
                    if (a[2].equals("NONE") && i % 64 == 63) j.sync();
                }
                System.out.println("no failure; next " + j.nextSequence());
            } catch (RuntimeException e) {
                System.out.println("failed at append " + i + ": " + e.getMessage());
            }
            System.out.println("durable " + j.durableSequence() + " next " + j.nextSequence());
            try { j.close(); } catch (RuntimeException e) { System.out.println("close: " + e.getMessage()); }
        } else {
            try (Journal j = Journal.open(dir, o)) {
                long[] bad = {0};
                long n = j.read(0, (seq, p) -> {
                    byte want = (byte) ('a' + seq % 26);
                    for (int k = p.position(); k < p.limit(); k++) if (p.get(k) != want) { bad[0]++; break; }
                    return true;
                });
                System.out.println("reopened: next " + j.nextSequence() + ", read " + n + ", wrong " + bad[0]);
                if (a.length > 3) {
                    long from = j.nextSequence();
                    for (long i = from; i < from + Long.parseLong(a[3]); i++) {
                        java.util.Arrays.fill(rec, (byte) ('a' + i % 26));
                        j.append(rec);
                    }
                    j.sync();
                    System.out.println("appended and synced to " + (j.nextSequence() - 1));
                }
            } catch (RuntimeException e) {
                System.out.println("open: " + e);
            }
        }
    }
}
