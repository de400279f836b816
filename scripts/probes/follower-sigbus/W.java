import java.nio.file.*; import java.util.*;
import org.iolab.journal.*; import org.iolab.storage.*; import org.iolab.catalogue.Preallocation;
public class W {
  static byte[] payload(long seq) {
    int len = (int)(8 + (seq * 2654435761L >>> 7) % 700); if (seq % 97 == 0) len = 20000;
    byte[] b = new byte[len]; for (int i=0;i<len;i++) b[i]=(byte)(seq+i); 
    for (int i=0;i<8;i++) b[i]=(byte)(seq>>>(8*i)); return b; }
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]); long until = System.currentTimeMillis() + Long.parseLong(a[1])*1000;
    Random r = new Random(Long.parseLong(a[2]));
    Backend[] bs = Backend.values(); Durability[] ds = {Durability.NONE, Durability.BATCH, Durability.ALWAYS};
    Preallocation[] ps = {Preallocation.NONE, Preallocation.FALLOCATE, Preallocation.ZERO_FILL};
    while (System.currentTimeMillis() < until) {
      JournalOptions o = JournalOptions.defaults().withBackend(bs[r.nextInt(bs.length)]).withDurability(ds[r.nextInt(3)])
        .withSegmentSize(64<<10).withPreallocation(ps[r.nextInt(3)]);
      try (Journal j = Journal.open(dir, o)) {
        int n = 200 + r.nextInt(3000);
        for (int i=0;i<n && System.currentTimeMillis() < until;i++) {
          long s = j.nextSequence(); j.append(payload(s));
          if (r.nextInt(50)==0) j.sync();
          if (r.nextInt(400)==0 && s > 3000) j.deleteBefore(s - 3000);
          if (r.nextInt(200)==0) Thread.sleep(1);
        }
      }
    }
  }
}
