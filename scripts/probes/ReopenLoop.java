// The store's open in a loop, docs/RESULTS.md (session of 2026-11-24 22:24): ROUNDS times, build the employee
// workload's store (100,000 puts, every second one deleted, 50,000 more), close it, then time Store.open plus one
// get; with "gc", a System.gc() comes between the close and the open, as in StoreBenchmark's setup.
//   javac -d /tmp/probes -cp iolab-core/target/classes scripts/probes/ReopenLoop.java
//   java --enable-native-access=ALL-UNNAMED -cp iolab-core/target/classes:/tmp/probes ReopenLoop 14 [gc] DIR
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.iolab.storage.Durability;
import org.iolab.store.Store;
import org.iolab.store.StoreOptions;

public class ReopenLoop {
    /** Bruno's employee i, as the benchmarks' EmployeeCodec encodes it. */
    static byte[] employee(int i) {
        byte[] c = ("This is employee number " + i).getBytes();
        ByteBuffer b = ByteBuffer.allocate(16 + c.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(2000 + i).putInt(11900 + i).put((byte) 1).put((byte) 4).put("John".getBytes())
                .putShort((short) c.length).put(c);
        return b.array();
    }

    public static void main(String[] a) throws Exception {
        boolean gc = a.length > 2 && a[1].equals("gc");
        Path home = Path.of(a[a.length - 1]);
        StoreOptions o = StoreOptions.defaults().withDurability(Durability.NONE);
        for (int r = 0; r < Integer.parseInt(a[0]); r++) {
            Path f = Files.createTempDirectory(home, "reopen").resolve("s");
            try (Store s = Store.open(f, o)) {
                for (int i = 0; i < 100_000; i++) {
                    s.put(("Doe" + i).getBytes(), employee(i));
                }
                for (int i = 1; i < 100_000; i += 2) {
                    s.delete(("Doe" + i).getBytes());
                }
                for (int i = 100_000; i < 150_000; i++) {
                    s.put(("Doe" + i).getBytes(), employee(i));
                }
            }
            if (gc) {
                System.gc();
            }
            long t = System.nanoTime();
            byte[] v;
            try (Store s = Store.open(f, o)) {
                v = s.get("Doe0".getBytes());
                System.out.printf("open %d: %.3f ms%n", r, (System.nanoTime() - t) / 1e6);
            }
            if (v == null) {
                throw new IllegalStateException("Doe0 missing");
            }
            try (var w = Files.walk(f.getParent())) {
                w.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
            }
        }
    }
}
