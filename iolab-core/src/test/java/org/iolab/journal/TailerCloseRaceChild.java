package org.iolab.journal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.iolab.storage.Durability;

/**
 * Run in a child JVM under a debugger ({@link JournalTailerCloseRaceTest}): a tailer thread polls with a long timeout
 * while the main thread, once told to, appends one record and closes the journal. Prints what the poll returned.
 */
public final class TailerCloseRaceChild {
    private TailerCloseRaceChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Journal j = Journal.open(dir, JournalOptions.defaults().withDurability(Durability.NONE));
        Tailer t = j.tailer(0);
        String[] result = new String[1];
        Thread tailer = new Thread(() -> {
            Record r = t.poll(Duration.ofSeconds(30));
            result[0] = r == null ? "null" : "record " + r.sequence();
        }, "tailer");
        tailer.start();
        Path go = dir.resolve("go");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(go)) {
            if (System.nanoTime() > deadline) {
                System.exit(2); // the debugger never let it go: not left running
            }
            Thread.sleep(1);
        }
        long seq = j.append(new byte[] {42}); // acknowledged before the close
        j.close();
        Files.createFile(dir.resolve("closed"));
        tailer.join();
        t.close();
        System.out.println("appended " + seq + ", poll returned " + result[0]);
    }
}
