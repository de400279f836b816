package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** a "warm" read of a file the page cache cannot hold is planned, measured and published as warm. */
class PlannerWarmSizeTest {
    @Test
    void noWarmReadIsPlannedOnAFileLargerThanRam() {
        long ram = 4L << 30; // a 4 GiB laptop or CI runner
        List<Point> warmTooBig = Planner.plan(Profile.seeds(), Planner.Request.defaults(), ram).stream()
                .filter(p -> p.bench() == Bench.READ && p.cache() == Cache.WARM && p.fileSize() > ram).toList();
        assertEquals(List.of(), warmTooBig, "warm read points on a file larger than RAM");
    }
}
