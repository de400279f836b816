package org.iolab.journal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock that serializes appends: one compare-and-set to take it and a release store to give it back, so an
 * uncontended append pays one atomic instruction instead of a {@code ReentrantLock}'s two. A thread that finds it
 * taken spins briefly, then yields, then parks for 20 µs at a time (the holder may be inside an fsync).
 * Not reentrant.
 */
final class AppendLock {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AppendLock.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    void lock() {
        if (!STATE.compareAndSet(this, 0, 1)) {
            contended();
        }
    }

    private void contended() {
        for (int i = 0; ; i++) {
            if ((int) STATE.getOpaque(this) == 0 && STATE.compareAndSet(this, 0, 1)) {
                return;
            }
            if (i < 64) {
                Thread.onSpinWait();
            } else if (i < 256) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
    }

    void unlock() {
        STATE.setRelease(this, 0);
    }
}
