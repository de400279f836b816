// A store on a device that starts failing writes, for scripts/eio-rig.sh with PROBE=store (docs/RESULTS.md, 2026-11-25
// 03:04).
//   write FILE DURABILITY N: puts keyI -> 4000 bytes of 'a' + i % 26 until N or the first failure (not ALWAYS: a sync
//     every 64 puts); prints the last key acknowledged
//   read FILE DURABILITY [M]: opens the store (its recovery), gets and checks every key, then puts M more (key20000..)
//     and syncs; prints verify's problems
// System property: backend (a backend label, default segment).
import java.nio.file.Path;
import org.iolab.store.*;
import org.iolab.storage.Durability;
import org.iolab.storage.Backend;

public class StoreEioProbe {
    static byte[] value(long i) { byte[] v = new byte[4000]; java.util.Arrays.fill(v, (byte) ('a' + i % 26)); return v; }
    static byte[] key(long i) { return ("key" + i).getBytes(); }
    public static void main(String[] a) throws Exception {
        Path file = Path.of(a[1]);
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.valueOf(a[2]))
                .withBackend(Backend.parse(System.getProperty("backend", "segment")));
        if (a[0].equals("write")) {
            Store s = Store.open(file, o);
            long i = 0;
            long acked = -1;
            try {
                for (; i < Long.parseLong(a[3]); i++) {
                    long seq = s.put(key(i), value(i));
                    if (a[2].equals("ALWAYS")) acked = i;
                    if (!a[2].equals("ALWAYS") && i % 64 == 63) { s.sync(); acked = i; }
                }
                System.out.println("no failure");
            } catch (RuntimeException e) {
                System.out.println("failed at put " + i + ": " + e.getMessage());
            }
            System.out.println("acknowledged up to key" + acked);
            try { s.close(); } catch (RuntimeException e) { System.out.println("close: " + e.getMessage()); }
        } else {
            try (Store s = Store.open(file, o)) {
                long n = 0, bad = 0, firstMissing = -1;
                for (long i = 0; i < 30000; i++) {
                    byte[] v = s.get(key(i));
                    if (v == null) { if (firstMissing < 0) firstMissing = i; continue; }
                    n++;
                    if (!java.util.Arrays.equals(v, value(i))) bad++;
                }
                System.out.println("reopened: " + s.size() + " records, " + n + " found, wrong " + bad + ", first missing key" + firstMissing);
                if (a.length > 3) {
                    long from = 20000;
                    for (long i = from; i < from + Long.parseLong(a[3]); i++) s.put(key(i), value(i));
                    s.sync();
                    System.out.println("put and synced key" + from + ".." + (from + Long.parseLong(a[3]) - 1));
                }
            } catch (RuntimeException e) {
                System.out.println("open: " + e);
            }
            try { System.out.println("verify: " + Store.verify(file).problems()); } catch (RuntimeException e) { System.out.println("verify: " + e.getMessage()); }
        }
    }
}
