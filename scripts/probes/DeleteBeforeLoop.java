// Journal.deleteBefore one segment at a time, docs/RESULTS.md (session of 2026-11-25 00:33): SEGMENTS segments of
// 64 KiB (records of 1 KiB, NONE, synced once), then deleteBefore(the next segment's first sequence) in a loop, each
// call timed: the start marker's write and sync, the file's deletion and the folder's sync. Prints the median and
// the 10th and 90th percentiles of the calls, and the same for a plain fdatasync of a 4 KiB write, in the same run.
//   javac -d /tmp/probes -cp iolab-core/target/classes scripts/probes/DeleteBeforeLoop.java
//   java --enable-native-access=ALL-UNNAMED -cp iolab-core/target/classes:/tmp/probes DeleteBeforeLoop 200 DIR
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import org.iolab.catalogue.Preallocation;
import org.iolab.journal.Journal;
import org.iolab.journal.JournalOptions;
import org.iolab.storage.Durability;

public class DeleteBeforeLoop {
    public static void main(String[] args) throws Exception {
        int segments = Integer.parseInt(args[0]);
        Path dir = Files.createTempDirectory(Path.of(args[1]), "delete-before-");
        try {
            JournalOptions o = JournalOptions.defaults().withSegmentSize(64 << 10).withDurability(Durability.NONE)
                    .withPreallocation(Preallocation.FALLOCATE);
            double[] ms = new double[segments - 1];
            try (Journal j = Journal.open(dir.resolve("j"), o)) {
                byte[] record = new byte[1024];
                long perSegment = 62; // 62 frames of 1040 bytes fit in 64 KiB after the header
                for (long i = 0; i < segments * perSegment; i++) {
                    j.append(record);
                }
                j.sync();
                long[] starts = Files.list(dir.resolve("j")).map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".seg")).sorted()
                        .mapToLong(n -> Long.parseLong(n.substring(0, 20))).toArray();
                for (int i = 1; i < Math.min(starts.length - 1, segments); i++) {
                    long t0 = System.nanoTime();
                    j.deleteBefore(starts[i]);
                    ms[i - 1] = (System.nanoTime() - t0) / 1e6;
                }
            }
            print("deleteBefore, one segment", ms);
            double[] sync = new double[segments - 1];
            try (FileChannel ch = FileChannel.open(dir.resolve("sync"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.allocate(4096);
                for (int i = 0; i < sync.length; i++) {
                    long t0 = System.nanoTime();
                    ch.write(b.clear(), (i % 16) * 4096L);
                    ch.force(false);
                    sync[i] = (System.nanoTime() - t0) / 1e6;
                }
            }
            print("4 KiB write + fdatasync", sync);
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static void print(String what, double[] ms) {
        double[] s = Arrays.stream(ms).filter(v -> v > 0).sorted().toArray();
        System.out.printf("%-28s n=%d  median %.3f ms  p10 %.3f  p90 %.3f%n", what, s.length, s[s.length / 2],
                s[s.length / 10], s[s.length * 9 / 10]);
    }
}
