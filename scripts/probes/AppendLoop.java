// The "8-second append loop" of docs/RESULTS.md (session of 2026-11-24 22:24): one writer appends 64-byte records
// to a fresh journal (backend segment) for SECONDS seconds and prints the appends per second of each second.
//   javac -d /tmp/probes -cp iolab-core/target/classes scripts/probes/AppendLoop.java
//   java --enable-native-access=ALL-UNNAMED -cp iolab-core/target/classes:/tmp/probes AppendLoop NONE 8 FALLOCATE DIR
// (DURABILITY: NONE, BATCH or ALWAYS; PREALLOCATION: NONE, ZERO_FILL or FALLOCATE). Under perf:
//   perf record -g -- java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer ...
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.iolab.catalogue.Preallocation;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;

public class AppendLoop {
    public static void main(String[] a) throws Exception {
        Path dir = Files.createTempDirectory(Path.of(a[3]), "append-loop");
        JournalOptions o = JournalOptions.defaults().withBackend(Backend.SEGMENT)
                .withDurability(Durability.valueOf(a[0])).withPreallocation(Preallocation.valueOf(a[2]));
        try (Journal j = Journal.open(dir, o)) {
            ByteBuffer p = ByteBuffer.allocate(64);
            long end = System.nanoTime() + (long) (Double.parseDouble(a[1]) * 1e9);
            long n = 0;
            long last = System.nanoTime();
            for (long now = last; now < end; ) {
                for (int i = 0; i < 100_000; i++) {
                    p.clear();
                    j.append(p);
                }
                n += 100_000;
                now = System.nanoTime();
                if (now - last > 1_000_000_000L) {
                    System.out.printf("%.2f M/s%n", n / ((now - last) / 1e3));
                    n = 0;
                    last = now;
                }
            }
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
            }
        }
    }
}
