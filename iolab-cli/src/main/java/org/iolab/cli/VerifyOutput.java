package org.iolab.cli;

import java.util.List;

/** How {@code journal verify} and {@code store verify} print their report, the same way for both. */
final class VerifyOutput {
    private VerifyOutput() {
    }

    /**
     * Prints {@code ok: COUNTS} and the notes, or {@code damaged: N problems (COUNTS readable); ADVICE} and every
     * problem.
     *
     * @param ok whether nothing unrecoverable was found
     * @param counts what was read, e.g. "12 records in 1 segments"
     * @param problems every problem found, recoverable ones included
     * @param bad how many of them are not recoverable
     * @param advice what to run next when damaged
     * @return the exit code: 0 when ok, {@link Main#FAILED} when damaged
     */
    static int print(boolean ok, String counts, List<?> problems, long bad, String advice) {
        if (ok) {
            System.out.println("ok: " + counts);
            for (Object p : problems) {
                System.out.println("note: " + p);
            }
            return 0;
        }
        System.out.println("damaged: " + bad + (bad == 1 ? " problem" : " problems") + " (" + counts + " readable); "
                + advice);
        for (Object p : problems) {
            System.out.println(p);
        }
        return Main.FAILED;
    }
}
