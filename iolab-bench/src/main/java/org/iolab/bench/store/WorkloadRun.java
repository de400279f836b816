package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.iolab.IolabException;
import org.iolab.storage.Durability;

/**
 * One engine driven through the {@link EmployeeWorkload}: {@link #prepare(Phase)} opens the engine and runs
 * (and checks) the phases before the one to measure, {@link #run(Phase)} is the measured part, and
 * {@link #check(Phase, long)} verifies its result and the state it left, so a broken engine fails the run. At
 * {@code batch} and {@code always} a writing phase (put, delete, reinsert) ends with the engine's {@code sync()}, in
 * the measured part: each phase's operations are durable when its time stops.
 *
 * <p>The checks after a phase: the phase's own result (puts made, ids summed by the scan or the gets,
 * every get found, every record decoded consistent), then a full scan of the store (the number of live
 * records and the sum of their ids), and gets of up to {@value #SAMPLE} live keys (must be found, with
 * the right value) and {@value #SAMPLE} deleted keys (must be absent).
 */
public final class WorkloadRun implements AutoCloseable {
    /** Live and deleted keys probed by the state check. */
    static final int SAMPLE = 1000;

    private final EmployeeWorkload workload;
    private final KvEngine engine;
    private final Path dir;
    private final Durability durability;
    private boolean open;
    private Phase done;
    private long lastCount;
    private long lastMissing;
    private long lastBad;

    /**
     * @param workload the workload
     * @param engine a closed engine
     * @param dir the engine's folder (existing, empty before the first open)
     * @param durability the durability level
     */
    public WorkloadRun(EmployeeWorkload workload, KvEngine engine, Path dir, Durability durability) {
        this.workload = workload;
        this.engine = engine;
        this.dir = dir;
        this.durability = durability;
    }

    /** @return the engine */
    public KvEngine engine() {
        return engine;
    }

    /**
     * Opens the engine and runs and checks every phase before {@code phase}; for {@link Phase#REOPEN} it
     * then closes the engine, so the measured part is the open.
     *
     * @param phase the phase to be measured next
     */
    public void prepare(Phase phase) {
        open();
        for (Phase p : Phase.values()) {
            if (p == phase) {
                break;
            }
            check(p, run(p));
        }
        if (phase == Phase.REOPEN) {
            closeEngine();
        }
    }

    /**
     * Runs every phase in order, checking each.
     *
     * @return each phase's result
     */
    public Map<Phase, Long> runAll() {
        Map<Phase, Long> results = new EnumMap<>(Phase.class);
        open();
        for (Phase p : Phase.values()) {
            if (p == Phase.REOPEN) {
                closeEngine();
            }
            long r = run(p);
            check(p, r);
            results.put(p, r);
        }
        return results;
    }

    /**
     * Runs one phase (the measured part); the phases before it must have run.
     *
     * @param phase the phase
     * @return its result, for {@link #check(Phase, long)}: puts or deletes made, or the sum of the ids read
     */
    public long run(Phase phase) {
        long result = switch (phase) {
            case PUT -> putRange(0, workload.records());
            case SCAN -> scan();
            case GET -> getAll();
            case DELETE -> deleteOdd();
            case REINSERT -> putRange(workload.records(), workload.records() + workload.reinserted());
            case REOPEN -> reopen();
        };
        if (durability != Durability.NONE && (phase == Phase.PUT || phase == Phase.DELETE
                || phase == Phase.REINSERT)) {
            // a synced phase ends with its operations durable, for every engine alike: the peers sync in the writer's
            // thread, iolab's redo log in the background, and the close that syncs the rest is not timed
            engine.sync();
        }
        return result;
    }

    /**
     * Checks a phase's result and the state the store is in.
     *
     * @param phase the phase that ran
     * @param result what {@link #run(Phase)} returned
     * @throws WorkloadCheckException naming the engine, the phase and the difference
     */
    public void check(Phase phase, long result) {
        switch (phase) {
            case PUT -> expect(phase, "puts made", workload.records(), result);
            case SCAN -> {
                expect(phase, "records scanned", workload.liveCount(phase), lastCount);
                expect(phase, "sum of the ids scanned", workload.liveIdSum(phase), result);
                expect(phase, "inconsistent records scanned", 0, lastBad);
            }
            case GET -> {
                expect(phase, "gets not found", 0, lastMissing);
                expect(phase, "inconsistent records got", 0, lastBad);
                expect(phase, "sum of the ids got", workload.liveIdSum(phase), result);
            }
            case DELETE -> expect(phase, "deletes made", workload.records() / 2, result);
            case REINSERT -> expect(phase, "puts made", workload.reinserted(), result);
            case REOPEN -> expect(phase, "first record's value length", workload.value(0).length, result);
        }
        done = phase;
        checkState(phase);
    }

    /**
     * Closes the engine (making everything durable) and measures its folder.
     *
     * @return bytes on disk
     */
    public long closeAndMeasure() {
        closeEngine();
        return engine.sizeOnDisk();
    }

    /** Closes the engine if open. */
    @Override
    public void close() {
        closeEngine();
    }

    private void open() {
        if (!open) {
            engine.open(dir, durability, workload.sizing());
            open = true;
        }
    }

    private void closeEngine() {
        if (open) {
            open = false;
            engine.close();
        }
    }

    private long putRange(int from, int to) {
        requireOpen();
        for (int i = from; i < to; i++) {
            engine.put(workload.key(i), workload.value(i));
        }
        return to - from;
    }

    private long deleteOdd() {
        requireOpen();
        long n = 0;
        for (int i = 1; i < workload.records(); i += 2) {
            engine.delete(workload.key(i));
            n++;
        }
        return n;
    }

    private long scan() {
        requireOpen();
        long[] sum = {0};
        long[] bad = {0};
        lastCount = engine.scan((ByteBuffer k, ByteBuffer v) -> {
            Employee e = decode(k, v);
            if (e == null || !e.isConsistent()) {
                bad[0]++;
            } else {
                sum[0] += e.id();
            }
            return true;
        });
        lastBad = bad[0];
        return sum[0];
    }

    private long getAll() {
        requireOpen();
        long sum = 0;
        long missing = 0;
        long bad = 0;
        for (int k = 0; k < workload.records(); k++) {
            int i = workload.getOrder(k);
            byte[] key = workload.key(i);
            byte[] value = engine.get(key);
            if (value == null) {
                missing++;
                continue;
            }
            Employee e = decode(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
            if (e == null || !e.isConsistent() || e.id() != 2000 + i) {
                bad++;
            } else {
                sum += e.id();
            }
        }
        lastMissing = missing;
        lastBad = bad;
        return sum;
    }

    private long reopen() {
        if (open) {
            throw new IllegalStateException("reopen: the engine is still open; prepare(REOPEN) closes it");
        }
        open();
        byte[] v = engine.get(workload.key(0));
        return v == null ? -1 : v.length;
    }

    private void checkState(Phase after) {
        requireOpen();
        long sum = scan();
        expect(after, "live records (full scan)", workload.liveCount(after), lastCount);
        expect(after, "inconsistent records (full scan)", 0, lastBad);
        expect(after, "sum of the live ids (full scan)", workload.liveIdSum(after), sum);
        int total = workload.records() + workload.reinserted();
        int stride = Math.max(1, total / SAMPLE);
        long wrong = 0;
        for (int i = 0; i < total; i += stride) {
            byte[] v = engine.get(workload.key(i));
            boolean live = workload.live(after, i);
            if (live ? v == null || !java.util.Arrays.equals(v, workload.value(i)) : v != null) {
                wrong++;
            }
        }
        expect(after, "sampled keys with a wrong get (found deleted, missing or wrong value)", 0, wrong);
    }

    private static Employee decode(ByteBuffer k, ByteBuffer v) {
        try {
            return EmployeeCodec.decode(k, v);
        } catch (IolabException e) {
            return null;
        }
    }

    private void expect(Phase phase, String what, long expected, long actual) {
        if (expected != actual) {
            throw new WorkloadCheckException("engine " + engine.name() + " (durability " + durability.name()
                    .toLowerCase(java.util.Locale.ROOT) + ", " + workload.records() + " records), phase "
                    + phase.label() + ": " + what + " " + actual + ", expected " + expected);
        }
    }

    private void requireOpen() {
        if (!open) {
            throw new IllegalStateException("engine " + engine.name() + " is not open");
        }
    }

    /** @return the last phase checked, or {@code null} */
    Phase lastChecked() {
        return done;
    }
}
