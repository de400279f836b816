package org.iolab.os;

/** Waiting for a thread that must be finished before its owner goes on (it holds a mapping, a file). */
public final class Joins {
    private Joins() {
    }

    /**
     * Waits for {@code t} to end, whatever interrupts arrive meanwhile; the caller's interrupt status is kept (set
     * again on return when an interrupt came).
     *
     * @param t the thread
     */
    public static void uninterruptibly(Thread t) {
        boolean interrupted = false;
        for (;;) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
