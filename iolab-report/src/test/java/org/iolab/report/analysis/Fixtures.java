package org.iolab.report.analysis;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import org.iolab.report.model.Limit;
import org.iolab.report.model.ResultSet;
import org.iolab.report.model.RunData;

/** The small results files under src/test/resources/org/iolab/report. */
final class Fixtures {
    private Fixtures() {
    }

    static Path path(String name) {
        URL url = Fixtures.class.getResource("/org/iolab/report/" + name);
        if (url == null) {
            throw new AssertionError("test resource missing: " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    static RunData run(String name) {
        return run(name, List.of());
    }

    static RunData run(String name, List<Limit> limits) {
        return new RunData(ResultSet.load(path(name)), List.of(), limits, List.of());
    }
}
