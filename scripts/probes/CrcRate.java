// CRC32C's rate over a 64 MiB direct buffer in calls of 64 B to 64 KiB (the best of 30 passes), docs/RESULTS.md
// (session of 2026-11-24 22:24; JMH's ChecksumRateBenchmark is the repository's benchmark of the same).
//   java scripts/probes/CrcRate.java
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

public class CrcRate {
    public static void main(String[] a) {
        int n = 64 << 20;
        ByteBuffer b = ByteBuffer.allocateDirect(n);
        for (int i = 0; i < n; i += 8) {
            b.putLong(i, i * 0x9E3779B97F4A7C15L);
        }
        long sum = 0;
        for (int size : new int[] {64, 1024, 4096, 65536}) {
            long best = Long.MAX_VALUE;
            for (int r = 0; r < 30; r++) {
                long t = System.nanoTime();
                CRC32C c = new CRC32C();
                for (int off = 0; off + size <= n; off += size) {
                    c.reset();
                    c.update(b.slice(off, size));
                    sum += c.getValue();
                }
                best = Math.min(best, System.nanoTime() - t);
            }
            System.out.printf("crc32c in %6d B calls: %.2f GB/s%n", size, n / (double) best);
        }
        System.out.println("checksum byte " + (sum & 0xff) + " (printed so the passes are not optimized away)");
    }
}
