package org.iolab.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.iolab.IolabException;

/**
 * A power-loss simulator around a real {@link StorageFile} (the "disk"), after H2's
 * {@code FilePathReorderWrites}.
 *
 * <p>Writes and truncations since the last {@link #force} are kept in memory only (the volatile page cache);
 * {@link #force} applies them in order to the disk file and syncs it. Until power goes, reads see every write
 * (page-cache semantics). {@link #powerOff(Random)} then applies a random part of the unsynced operations to the
 * disk, in a possibly different order: each may be dropped, applied whole, or torn (only a prefix, or with some
 * 512-byte sectors missing), and marks this file dead: every later call throws. {@link #armPowerOff} makes power
 * fail on its own after a number of operations, inside a write, truncate or force.
 *
 * <p>What it guarantees, and what a crash-safe format may rely on: everything synced survives; an unsynced byte
 * on disk is either its value at the last sync (zero beyond the synced size) or a value some unsynced write put at
 * that very offset. {@link #close()} without a power failure is a clean shutdown: the unsynced operations reach
 * the disk as a running OS would write them back.
 *
 * <p>Thread-safe (every method is synchronized), so readers may tail it while a writer appends.
 */
public final class FaultyStorage implements StorageFile {
    private static final int SECTOR = 512;

    private sealed interface Op permits Write, Truncate {
    }

    private record Write(long position, byte[] bytes) implements Op {
    }

    private record Truncate(long size) implements Op {
    }

    private final StorageFile disk;
    private final List<Op> unsynced = new ArrayList<>();
    private long size;
    private boolean dead;
    private long countdown = -1;
    private Random countdownRandom;
    private boolean processCrash;

    /** @param disk the real file the synced state lives in; this object owns and closes it */
    public FaultyStorage(StorageFile disk) {
        this.disk = disk;
        this.size = disk.size();
    }

    /**
     * @param backend how to open the disk file
     * @param file the file, created if missing
     * @return a simulator over {@code backend.open(file, true)}
     */
    public static FaultyStorage open(Backend backend, Path file) {
        return new FaultyStorage(backend.open(file, true));
    }

    @Override
    public synchronized Path path() {
        return disk.path();
    }

    @Override
    public synchronized long size() {
        alive();
        return size;
    }

    @Override
    public synchronized void read(long position, ByteBuffer dst) {
        alive();
        int length = dst.remaining();
        Problems.checkPosition(path(), position, length);
        if (position > size - length) {
            throw Problems.pastEnd(path(), position, length, size);
        }
        byte[] view = new byte[length];
        long fromDisk = Math.clamp(disk.size() - position, 0, length);
        if (fromDisk > 0) {
            disk.read(position, ByteBuffer.wrap(view, 0, (int) fromDisk));
        }
        for (Op op : unsynced) {
            switch (op) {
                case Write w -> {
                    long from = Math.max(position, w.position());
                    long to = Math.min(position + length, w.position() + w.bytes().length);
                    if (from < to) {
                        System.arraycopy(w.bytes(), (int) (from - w.position()), view, (int) (from - position),
                                (int) (to - from));
                    }
                }
                case Truncate t -> {
                    if (t.size() < position + length) {
                        Arrays.fill(view, (int) Math.max(0, t.size() - position), length, (byte) 0);
                    }
                }
            }
        }
        dst.put(view);
    }

    @Override
    public synchronized void write(long position, ByteBuffer src) {
        alive();
        Problems.checkPosition(path(), position, src.remaining());
        byte[] bytes = new byte[src.remaining()];
        src.get(bytes);
        unsynced.add(new Write(position, bytes));
        size = Math.max(size, position + bytes.length);
        tick("write of " + bytes.length + " bytes at offset " + position);
    }

    @Override
    public synchronized void truncate(long newSize) {
        alive();
        Problems.checkSize(path(), newSize);
        unsynced.add(new Truncate(newSize));
        size = newSize;
        tick("truncate to " + newSize);
    }

    @Override
    public synchronized void force(boolean metadata) {
        alive();
        tick("force");
        for (Op op : unsynced) {
            apply(op);
        }
        unsynced.clear();
        disk.force(metadata);
    }

    /**
     * Makes durable only the unsynced writes' bytes inside {@code [position, position + length)}: the rest stays
     * pending, in order, for a later sync or a power cut to keep or lose (stricter than a kernel, which writes the
     * whole pages the range touches). With a pending truncate it syncs everything ({@link #force}), since applying
     * writes past a truncate that was made before them would reorder the file's history.
     */
    @Override
    public synchronized void forceRange(long position, long length) {
        alive();
        Problems.checkPosition(path(), position, length);
        if (unsynced.stream().anyMatch(op -> op instanceof Truncate)) {
            force(false);
            return;
        }
        tick("force");
        long end = position + length;
        List<Op> rest = new ArrayList<>();
        for (Op op : unsynced) {
            Write w = (Write) op;
            long from = w.position();
            long to = from + w.bytes().length;
            long in0 = Math.max(from, position);
            long in1 = Math.min(to, end);
            if (in0 >= in1) {
                rest.add(w);
                continue;
            }
            disk.write(in0, ByteBuffer.wrap(w.bytes(), (int) (in0 - from), (int) (in1 - in0)));
            if (from < in0) {
                rest.add(new Write(from, Arrays.copyOfRange(w.bytes(), 0, (int) (in0 - from))));
            }
            if (in1 < to) {
                rest.add(new Write(in1, Arrays.copyOfRange(w.bytes(), (int) (in1 - from), w.bytes().length)));
            }
        }
        unsynced.clear();
        unsynced.addAll(rest);
        disk.force(false);
    }

    /**
     * Makes power fail by itself: the {@code operations}-th write, truncate or force from now applies a random
     * part of the unsynced operations (that write included), marks the file dead and throws.
     *
     * @param operations how many operations to allow, 1 or more (the last one fails)
     * @param rnd the randomness for {@link #powerOff(Random)}
     */
    public synchronized void armPowerOff(long operations, Random rnd) {
        if (operations < 1) {
            throw new IllegalArgumentException("operations must be 1 or more: " + operations);
        }
        countdown = operations;
        countdownRandom = rnd;
    }

    /**
     * Cuts the power: applies a random subset of the unsynced operations to the disk (dropped, reordered or
     * torn), closes the disk file without syncing, and makes every later call throw.
     *
     * @param rnd the randomness
     * @return how many unsynced operations did not reach the disk whole (dropped or torn)
     */
    public synchronized int powerOff(Random rnd) {
        alive();
        List<Op> ops = new ArrayList<>(unsynced);
        unsynced.clear();
        for (int i = 0; i < ops.size(); i++) {
            if (rnd.nextInt(3) == 0) {
                int j = i + rnd.nextInt(ops.size() - i);
                Op tmp = ops.get(i);
                ops.set(i, ops.get(j));
                ops.set(j, tmp);
            }
        }
        int lost = 0;
        for (Op op : ops) {
            int fate = rnd.nextInt(4);
            if (fate == 0) {
                lost++;
            } else if (fate == 1 && op instanceof Write w && w.bytes().length > 0) {
                lost++;
                tear(w, rnd);
            } else {
                apply(op);
            }
        }
        dead = true;
        disk.close();
        return lost;
    }

    /**
     * Makes the process die by itself (kill -9) instead of the power: the {@code operations}-th write, truncate or
     * force from now ends the process. Every earlier operation reaches the disk in order (the page cache survives
     * a process), the dying write only as a prefix of whole 8-byte words (a process can die inside a copy, not
     * inside an aligned 8-byte store), and the file is dead from then on.
     *
     * @param operations how many operations to allow, 1 or more (the last one is cut)
     * @param rnd the randomness for the cut
     */
    public synchronized void armProcessCrash(long operations, Random rnd) {
        armPowerOff(operations, rnd);
        processCrash = true;
    }

    private void crashProcess(boolean cutLast) {
        Op last = !cutLast || unsynced.isEmpty() ? null : unsynced.removeLast();
        for (Op op : unsynced) {
            apply(op);
        }
        unsynced.clear();
        if (last instanceof Write w) {
            int prefix = countdownRandom.nextInt(w.bytes().length / 8 + 1) * 8;
            disk.write(w.position(), ByteBuffer.wrap(w.bytes(), 0, Math.min(prefix, w.bytes().length)));
        } else if (last != null) {
            apply(last);
        }
        dead = true;
        disk.close();
    }

    /** @return whether power has gone */
    public synchronized boolean isDead() {
        return dead;
    }

    private void tear(Write w, Random rnd) {
        byte[] b = w.bytes();
        if (rnd.nextBoolean()) {
            int prefix = rnd.nextInt(b.length);
            disk.write(w.position(), ByteBuffer.wrap(b, 0, prefix));
            return;
        }
        // sectors are aligned to the file, not to the write
        int at = 0;
        while (at < b.length) {
            long sectorEnd = (w.position() + at) / SECTOR * SECTOR + SECTOR;
            int n = (int) Math.min(b.length - at, sectorEnd - (w.position() + at));
            if (rnd.nextBoolean()) {
                disk.write(w.position() + at, ByteBuffer.wrap(b, at, n));
            }
            at += n;
        }
    }

    private void apply(Op op) {
        switch (op) {
            case Write w -> disk.write(w.position(), ByteBuffer.wrap(w.bytes()));
            case Truncate t -> disk.truncate(t.size());
        }
    }

    private void tick(String what) {
        if (countdown > 0 && --countdown == 0) {
            if (processCrash) {
                crashProcess(!what.equals("force"));
                throw new IolabException("process killed during " + what + " on " + path() + " (simulated)");
            }
            powerOff(countdownRandom);
            throw new IolabException("power lost during " + what + " on " + path() + " (simulated)");
        }
    }

    private void alive() {
        if (dead) {
            throw new IolabException("cannot use " + disk.path() + ": power is off (simulated); reopen the file");
        }
    }

    /** The disk file's close does what the shipped file's would (it dropped this, and the tests ran the old cut). */
    @Override
    public void keepLengthOnClose(long atLeast) {
        disk.keepLengthOnClose(atLeast);
    }

    /** Clean shutdown: the unsynced operations reach the disk (not synced), then the disk file closes. */
    @Override
    public synchronized void close() {
        if (dead) {
            return;
        }
        dead = true;
        for (Op op : unsynced) {
            apply(op);
        }
        unsynced.clear();
        disk.close();
    }

    @Override
    public String toString() {
        return "faulty " + disk;
    }
}
