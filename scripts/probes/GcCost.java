// What a full collection costs the next few calls (docs/RESULTS.md, session of 2026-11-25 03:04): 20 rounds of a stat,
// a second stat, an open, a lock and a close of one file, with ("gc") or without a System.gc() before each round,
// 300,000 small arrays kept live so that the collection has a heap to walk; the last 7 rounds are printed, in ms.
//   java scripts/probes/GcCost.java DIR [gc]     (also with -Xint, -XX:+UseParallelGC, -XX:+UseSerialGC)
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.nio.file.attribute.BasicFileAttributes;
public class GcCost {
    public static void main(String[] a) throws Exception {
        Path p = Path.of(a[0]).resolve("gccost.lock");
        Files.deleteIfExists(p); Files.createFile(p);
        byte[][] junk = new byte[300000][];
        for (int i = 0; i < junk.length; i++) junk[i] = new byte[60];
        for (int r = 0; r < 20; r++) {
            if (a.length > 1) System.gc();
            long t0 = System.nanoTime();
            Object k = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
            long t1 = System.nanoTime();
            Object k2 = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
            long t2 = System.nanoTime();
            FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE);
            long t3 = System.nanoTime();
            var l = ch.tryLock(0, Long.MAX_VALUE, false);
            long t4 = System.nanoTime();
            l.release(); ch.close();
            long t5 = System.nanoTime();
            if (r > 12) System.out.printf("stat %.3f stat2 %.3f open %.3f lock %.3f close %.3f%n", (t1-t0)/1e6, (t2-t1)/1e6, (t3-t2)/1e6, (t4-t3)/1e6, (t5-t4)/1e6);
        }
        Files.delete(p);
        System.out.println(junk.length + " arrays kept");
    }
}
