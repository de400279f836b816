// The store's open after a collection (docs/RESULTS.md, session of 2026-11-25 15:51): the employee workload's store
// built once (100,000 puts, every second one deleted, 50,000 more), then ROUNDS rounds of [what comes before], Store.open
// and one get, timed; prints the median (p10, p90) of the last half of the rounds, in ms. Before each open:
// a System.gc() (the default, as in StoreBenchmark's setup), nothing (-Dnogc=true), a sleep (-Dnap=MS, after the
// collection or instead of it with -Dnogc=true), or a sweep over -Dmb=MiB of memory (-Dsweep=true).
//   javac -d /tmp/probes -cp iolab-core/target/classes scripts/probes/ReopenLoop.java scripts/probes/ReopenAfterGc.java
//   (the employees are ReopenLoop's)
//   java --enable-native-access=ALL-UNNAMED -cp iolab-core/target/classes:/tmp/probes ReopenAfterGc 300 DIR
//   (also with -Xint, -XX:+UseSerialGC, -XX:+UseParallelGC, -XX:+ExplicitGCInvokesConcurrent)
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.iolab.storage.Durability;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;

public class ReopenAfterGc {
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        Path f = Files.createTempDirectory(Path.of(a[1]), "reopen").resolve("s");
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        try (Store s = Store.open(f, o)) {
            for (int i = 0; i < 100_000; i++) {
                s.put(("Doe" + i).getBytes(), ReopenLoop.employee(i));
            }
            for (int i = 1; i < 100_000; i += 2) {
                s.delete(("Doe" + i).getBytes());
            }
            for (int i = 100_000; i < 150_000; i++) {
                s.put(("Doe" + i).getBytes(), ReopenLoop.employee(i));
            }
        }
        byte[] big = new byte[Integer.getInteger("mb", 64) << 20];
        double[] t = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            if (Boolean.getBoolean("sweep")) {
                for (int k = 0; k < big.length; k += 64) {
                    big[k]++;
                }
            } else if (!Boolean.getBoolean("nogc")) {
                System.gc();
            }
            Thread.sleep(Long.getLong("nap", 0));
            long t0 = System.nanoTime();
            try (Store s = Store.open(f, o)) {
                if (s.get("Doe0".getBytes()) == null) {
                    throw new IllegalStateException("Doe0 missing");
                }
                t[r] = (System.nanoTime() - t0) / 1e6;
            }
        }
        double[] h = Arrays.copyOfRange(t, rounds / 2, rounds);
        Arrays.sort(h);
        System.out.printf("median %.3f ms (p10 %.3f, p90 %.3f) of the last %d rounds%n", h[h.length / 2],
                h[h.length / 10], h[h.length * 9 / 10], h.length);
        Store.deleteFiles(f);
        Files.delete(f.getParent());
    }
}
