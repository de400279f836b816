package org.iolab.cli;

/** One step of a bench run that the progress line and the plan show: a file point or a journal point. */
interface Task {
    /** @return what it measures, in a few words */
    String describe();

    /** @return estimated seconds for the whole step, forks and set-up included */
    double wallSeconds();
}
