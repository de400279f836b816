package org.iolab.bench.store;

import java.util.Random;
import org.iolab.IolabException;

/**
 * Bruno's employees, encoded once with {@link EmployeeCodec}, and what each state of the workload must hold.
 * Immutable; {@link WorkloadRun} drives one engine through it.
 *
 * <p>Employees {@code 0 .. records-1} are put; every odd one is deleted; {@code records / 2} new ones
 * ({@code records ..}) are inserted. The get order is a permutation of {@code 0 .. records-1} shuffled
 * with a fixed seed, the same for every engine.
 */
public final class EmployeeWorkload {
    /** The seed of the shuffled get order. */
    public static final long SEED = 20100430L;
    /** Largest {@code records} accepted (the arrays must fit a benchmark heap). */
    public static final int MAX_RECORDS = 10_000_000;

    private final int records;
    private final int reinserted;
    private final byte[][] keys;
    private final byte[][] values;
    private final int[] order;
    private final KvEngine.Sizing sizing;

    /**
     * @param records the employees put first, at least 2
     * @throws IolabException naming {@code records} when out of range
     */
    public EmployeeWorkload(int records) {
        if (records < 2 || records > MAX_RECORDS) {
            throw new IolabException("bad records " + records + ": must be between 2 and " + MAX_RECORDS);
        }
        this.records = records;
        this.reinserted = records / 2;
        int total = records + reinserted;
        keys = new byte[total][];
        values = new byte[total][];
        for (int i = 0; i < total; i++) {
            Employee e = Employee.number(i);
            keys[i] = EmployeeCodec.key(e);
            values[i] = EmployeeCodec.value(e);
        }
        order = new int[records];
        for (int i = 0; i < records; i++) {
            order[i] = i;
        }
        Random r = new Random(SEED);
        for (int i = records - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        long k = 0;
        long v = 0;
        for (int i = 0; i < total; i++) {
            k += keys[i].length;
            v += values[i].length;
        }
        sizing = new KvEngine.Sizing(records, (int) Math.ceil((double) k / total), (int) Math.ceil((double) v / total));
    }

    /** @return employees put in the first phase */
    public int records() {
        return records;
    }

    /** @return employees inserted after the delete ({@code records / 2}) */
    public int reinserted() {
        return reinserted;
    }

    /**
     * @param i an employee number, {@code 0 .. records + records/2 - 1}
     * @return its key (shared: do not modify)
     */
    byte[] key(int i) {
        return keys[i];
    }

    /**
     * @param i an employee number
     * @return its encoded value (shared: do not modify)
     */
    byte[] value(int i) {
        return values[i];
    }

    /**
     * @param k {@code 0 .. records-1}
     * @return the employee number of the {@code k}-th get
     */
    int getOrder(int k) {
        return order[k];
    }

    /**
     * @return sizing hints for the engines: the most live records and the average key and value size. Computed once,
     *     with the employees: an engine's open is measured (the reopen phase), and summing 150,000 keys and values
     *     there, with the caches cold after the setup's {@code System.gc()}, took about 1.7 ms of every engine's
     *     reopen
     */
    public KvEngine.Sizing sizing() {
        return sizing;
    }

    /**
     * @param after the last phase run
     * @param i an employee number
     * @return whether employee {@code i} is live after that phase
     */
    boolean live(Phase after, int i) {
        boolean first = i < records;
        return switch (after) {
            case PUT, SCAN, GET -> first;
            case DELETE -> first && i % 2 == 0;
            case REINSERT, REOPEN -> first ? i % 2 == 0 : i < records + reinserted;
        };
    }

    /**
     * @param after the last phase run
     * @return the key and value bytes of the employees live after it (the yardstick of a store's size)
     */
    public long liveBytes(Phase after) {
        long bytes = 0;
        for (int i = 0; i < keys.length; i++) {
            if (live(after, i)) {
                bytes += keys[i].length + values[i].length;
            }
        }
        return bytes;
    }

    /**
     * @param after the last phase run
     * @return the number of live employees after it
     */
    long liveCount(Phase after) {
        long count = 0;
        for (int i = 0; i < keys.length; i++) {
            if (live(after, i)) {
                count++;
            }
        }
        return count;
    }

    /**
     * @param after the last phase run
     * @return the sum of the ids of the live employees after it
     */
    long liveIdSum(Phase after) {
        long sum = 0;
        for (int i = 0; i < keys.length; i++) {
            if (live(after, i)) {
                sum += 2000 + i;
            }
        }
        return sum;
    }
}
