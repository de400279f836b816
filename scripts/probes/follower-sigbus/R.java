import java.nio.file.*; import java.util.*; import java.time.Duration; import java.util.concurrent.atomic.*;
import org.iolab.journal.*; import org.iolab.storage.*; import org.iolab.IolabException;
public class R {
  static AtomicLong bad = new AtomicLong(), ok = new AtomicLong(), opens = new AtomicLong();
  static void check(long seq, java.nio.ByteBuffer p) { byte[] e = W.payload(seq); 
    if (p.remaining()!=e.length || !p.equals(java.nio.ByteBuffer.wrap(e))) { bad.incrementAndGet(); System.out.println("WRONG payload "+seq);} }
  static void report(String who, Throwable t) { if (t instanceof JournalCorruptedException) { bad.incrementAndGet(); System.out.println(System.currentTimeMillis()+" "+who+" CORRUPT: "+t.getMessage()); } }
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]); long until = System.currentTimeMillis() + Long.parseLong(a[1])*1000;
    Backend b = Backend.valueOf(a[2]);
    JournalOptions o = JournalOptions.defaults().withBackend(b);
    while (!Files.exists(dir.resolve("00000000000000000000.seg"))) Thread.sleep(10);
    List<Thread> ts = new ArrayList<>();
    // shared read-only journal with tailers in two threads and a reader
    ts.add(Thread.ofPlatform().start(() -> {
      while (System.currentTimeMillis() < until) {
       try (Journal j = Journal.openReadOnly(dir, o)) {
        opens.incrementAndGet();
        Thread[] tt = new Thread[2];
        for (int k=0;k<2;k++) { final int kk=k; tt[k] = Thread.ofPlatform().start(() -> {
          long next = j.firstSequence(); long stop = System.currentTimeMillis()+3000;
          while (System.currentTimeMillis() < stop) {
            try (Tailer t = j.tailer(Math.max(next, j.firstSequence()))) {
              while (System.currentTimeMillis() < stop) { org.iolab.journal.Record rec = t.poll(Duration.ofMillis(50)); if (rec==null) continue;
                if (rec.sequence()!= t.nextSequence()-1) System.out.println("seq?");
                check(rec.sequence(), java.nio.ByteBuffer.wrap(rec.payload())); ok.incrementAndGet(); next = rec.sequence()+1; }
            } catch (JournalCorruptedException e) { report("tailer"+kk, e); try{Thread.sleep(100);}catch(Exception x){} }
              catch (IolabException e) { /* deleted/cut: restart */ }
          }}); }
        for (Thread t : tt) t.join();
       } catch (JournalCorruptedException e) { report("rojournal", e); } catch (Exception e) { }
      }}));
    ts.add(Thread.ofPlatform().start(() -> {
      while (System.currentTimeMillis() < until) {
        try (Journal j = Journal.openReadOnly(dir, o)) { opens.incrementAndGet();
          j.read(j.firstSequence(), (s, p) -> { check(s, p); ok.incrementAndGet(); return true; });
        } catch (JournalCorruptedException e) { report("fresh", e); } catch (IolabException e) { }
      }}));
    for (Thread t : ts) t.join();
    System.out.println("done ok="+ok+" bad="+bad+" opens="+opens);
  }
}
