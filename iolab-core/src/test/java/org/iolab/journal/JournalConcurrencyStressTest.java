package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.storage.Backend;
import org.iolab.storage.Durability;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Several appenders, sync callers, tailers and readers at once, across many rolls: no gap, duplicate or corrupt
 * record.
 */
@Timeout(120)
class JournalConcurrencyStressTest {
    @TempDir
    Path tmp;

    private static byte[] payload(long id, int size) {
        byte[] b = Payloads.of(id, size);
        ByteBuffer.wrap(b).putLong(0, id);
        return b;
    }

    private static String check(Record r, long expectedSeq, ConcurrentHashMap<Long, Long> idOf) {
        if (r.sequence() != expectedSeq) {
            return "sequence " + r.sequence() + " where " + expectedSeq + " was expected";
        }
        byte[] p = r.payload();
        if (p.length < 8) {
            return "short payload at " + r.sequence();
        }
        long id = ByteBuffer.wrap(p).getLong(0);
        if (!Arrays.equals(p, payload(id, p.length))) {
            return "bad payload at " + r.sequence();
        }
        Long known = idOf.get(r.sequence());
        if (known != null && known != id) {
            return "record " + r.sequence() + " holds id " + id + " but append returned it for " + known;
        }
        return null;
    }

    @ParameterizedTest
    @CsvSource({"SEGMENT,BATCH,131072", "SEGMENT,ALWAYS,131072", "SEGMENT,NONE,131072", "CHANNEL_HEAP,BATCH,131072",
            "MAPPED,BATCH,131072", "CHANNEL_DIRECT,ALWAYS,131072", "RANDOM_ACCESS_FILE,BATCH,131072",
            "SEGMENT,BATCH,40968", "SEGMENT,NONE,69640", "MAPPED,NONE,40968"})
    void manyThreads(Backend backend, Durability level, long segmentSize) throws Exception {
        JournalOptions o = JournalOptions.defaults().withBackend(backend).withDurability(level)
                .withSegmentSize(segmentSize).withBatch(Duration.ofMillis(1), 64 << 10);
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        ConcurrentHashMap<Long, Long> idOf = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        long total;
        try (Journal j = Journal.open(tmp.resolve("j"), o)) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int tid = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    SplittableRandom r = new SplittableRandom(tid);
                    try {
                        for (long i = 0; !stop.get(); i++) {
                            long id = ((long) tid << 40) | i;
                            int size = r.nextInt(10) == 0 ? (16 << 10) + r.nextInt(8 << 10) : 8 + r.nextInt(600);
                            long seq = j.append(payload(id, size));
                            idOf.put(seq, id);
                            if (level == Durability.ALWAYS && j.durableSequence() < seq) {
                                problems.add("ALWAYS append " + seq + " returned with durable " + j.durableSequence());
                            }
                            if (r.nextInt(5) == 0) {
                                j.awaitDurable(seq);
                                if (j.durableSequence() < seq) {
                                    problems.add("awaitDurable(" + seq + ") returned at " + j.durableSequence());
                                }
                            }
                        }
                    } catch (RuntimeException e) {
                        problems.add("appender: " + e);
                    }
                }));
            }
            threads.add(Thread.ofPlatform().start(() -> {
                long last = -1;
                try {
                    while (!stop.get()) {
                        long d = j.durableSequence();
                        long next = j.nextSequence();
                        if (d < last) {
                            problems.add("durable went back from " + last + " to " + d);
                        }
                        if (d > next - 1) {
                            problems.add("durable " + d + " ahead of the last appended " + (next - 1));
                        }
                        last = d;
                        if (next % 7 == 0) {
                            j.sync();
                        }
                    }
                } catch (RuntimeException e) {
                    problems.add("watcher: " + e);
                }
            }));
            for (int t = 0; t < 2; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    long expected = 0;
                    try (Tailer tailer = j.tailer(0)) {
                        while (!stop.get() || expected < j.nextSequence()) {
                            Record r = tailer.poll(Duration.ofMillis(20));
                            if (r == null) {
                                continue;
                            }
                            String p = check(r, expected, idOf);
                            if (p != null) {
                                problems.add("tailer: " + p);
                                return;
                            }
                            expected++;
                        }
                    } catch (RuntimeException e) {
                        problems.add("tailer at " + expected + ": " + e);
                    }
                }));
            }
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        long[] n = {0};
                        j.read(0, (seq, p) -> {
                            if (seq != n[0]) {
                                problems.add("read: " + seq + " where " + n[0]);
                                return false;
                            }
                            byte[] b = new byte[p.remaining()];
                            p.get(b);
                            String e = check(new Record(seq, b), seq, idOf);
                            if (e != null) {
                                problems.add("read: " + e);
                                return false;
                            }
                            n[0]++;
                            return true;
                        });
                    }
                } catch (RuntimeException e) {
                    problems.add("reader: " + e);
                }
            }));
            Thread.sleep(1200);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            total = j.nextSequence();
        }
        try (Journal j = Journal.open(tmp.resolve("j"), o); JournalReader r = j.reader(0)) {
            long n = 0;
            while (r.hasNext()) {
                String p = check(r.next(), n, idOf);
                if (p != null) {
                    problems.add("after reopen: " + p);
                    break;
                }
                n++;
            }
            if (n != total) {
                problems.add("after reopen " + n + " records of " + total);
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problems: "
                + problems.subList(0, Math.min(10, problems.size())));
    }
}
