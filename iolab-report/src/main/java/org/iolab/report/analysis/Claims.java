package org.iolab.report.analysis;

import java.util.ArrayList;
import java.util.List;
import org.iolab.report.model.ClaimCheck;
import org.iolab.report.model.RunData;

/** Checks the seed articles' claims against a run. */
public final class Claims {
    private Claims() {
    }

    /**
     * @param run a run
     * @return one check per claim, in article order
     */
    public static List<ClaimCheck> check(RunData run) {
        List<ClaimCheck> out = new ArrayList<>();
        return out;
    }
}
