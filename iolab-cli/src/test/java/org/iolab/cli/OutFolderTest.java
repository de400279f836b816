package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench}'s results folder is claimed before the run (found by a review: two runs in the same second wrote
 * into one default folder and the first run's results were lost; a user's files in an existing --out were
 * overwritten; a full disk left a cut-off results.json after the run).
 */
class OutFolderTest {
    @TempDir
    Path tmp;

    @Test
    void twoRunsInTheSameSecondGetTwoDefaultFolders() {
        Path fallback = tmp.resolve("iolab-results/20261124-231531");
        OutFolder a = OutFolder.claim(null, fallback);
        OutFolder b = OutFolder.claim(null, fallback);
        assertEquals(fallback, a.path());
        assertEquals(tmp.resolve("iolab-results/20261124-231531-2"), b.path());
    }

    @Test
    void aFolderHoldingAnythingIsRefusedUntouched() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(out.resolve("notes.json"), "my notes");
        IolabException e = assertThrows(IolabException.class, () -> OutFolder.claim(out, tmp.resolve("x")));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        assertEquals("my notes", Files.readString(out.resolve("notes.json")));
        assertFalse(Files.exists(out.resolve(OutFolder.MARKER)));
    }

    @Test
    void aFolderAnotherRunHoldsIsRefused() {
        Path out = tmp.resolve("shared");
        OutFolder first = OutFolder.claim(out, tmp.resolve("x"));
        IolabException e = assertThrows(IolabException.class, () -> OutFolder.claim(out, tmp.resolve("x")));
        assertTrue(e.getMessage().contains("another iolab bench"), e.getMessage());
        first.release();
        assertFalse(Files.exists(out), "the empty folder the first run created is gone with it");
    }

    @Test
    void anEmptyFolderOfTheUsersIsUsedAndKept() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("empty"));
        OutFolder o = OutFolder.claim(out, tmp.resolve("x"));
        Path json = OutFolder.writeResults(o.path(), "[]\n");
        o.release();
        assertEquals("[]\n", Files.readString(json));
        try (var in = Files.list(out)) {
            assertEquals(1, in.count(), "results.json only: no marker, no temporary file");
        }
    }

    @Test
    void aDanglingLinkOrAFileIsRefused() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("nothing"));
        assertThrows(IolabException.class, () -> OutFolder.claim(link, tmp.resolve("x")));
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThrows(IolabException.class, () -> OutFolder.claim(file, tmp.resolve("x")));
    }

    @Test
    void resultsThatCannotBeWrittenThereGoToAFolderOfTheirOwn() throws IOException {
        Path out = tmp.resolve("out");
        OutFolder o = OutFolder.claim(out, tmp.resolve("x"));
        Files.createDirectories(out.resolve("results.json/in-the-way")); // the rename fails, as on a full disk
        Path json = OutFolder.writeResults(o.path(), "[1]\n");
        try {
            assertFalse(json.startsWith(out), json.toString());
            assertEquals("[1]\n", Files.readString(json));
            try (var in = Files.list(json.getParent())) {
                assertEquals(1, in.count(), "a folder of its own: report reads no stranger's sibling files");
            }
        } finally {
            Files.delete(json);
            Files.delete(json.getParent());
        }
        try (var in = Files.list(out)) {
            assertEquals(List.of("results.json", OutFolder.MARKER), in.map(p -> p.getFileName().toString())
                    .sorted().toList().reversed(), "no temporary file left");
        }
        o.release();
    }

    @Test
    void aMarkerAKilledRunLeftIsTakenOver() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("left"));
        Files.writeString(out.resolve(OutFolder.MARKER), ""); // no process holds its lock
        OutFolder o = OutFolder.claim(out, tmp.resolve("x"));
        assertEquals(out, o.path());
        o.release();
        try (var in = Files.list(out)) {
            assertEquals(0, in.count(), "the marker is gone with the run");
        }
    }

    @Test
    void aDotDotAfterALinkMeansWhatTheFileSystemMeans() throws IOException {
        // L/../new with L a link to x/y is x/new, not ./new: taken as text, a non-empty x/new was not looked into and
        // its results.json was overwritten
        Path x = Files.createDirectories(tmp.resolve("x/y")).getParent();
        Files.writeString(Files.createDirectories(x.resolve("new")).resolve("results.json"), "precious");
        Path cwd = Files.createDirectories(tmp.resolve("cwd"));
        Files.createSymbolicLink(cwd.resolve("L"), x.resolve("y"));
        IolabException e = assertThrows(IolabException.class,
                () -> OutFolder.claim(cwd.resolve("L/../new"), tmp.resolve("d")));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        assertEquals("precious", Files.readString(x.resolve("new/results.json")));

        OutFolder o = OutFolder.claim(cwd.resolve("L/../fresh"), tmp.resolve("d"));
        assertEquals(x.toRealPath().resolve("fresh"), o.path());
        o.release();
        assertFalse(Files.exists(x.resolve("fresh")), "the folder created is the one removed");
        assertThrows(IolabException.class, () -> OutFolder.claim(cwd.resolve("none/../z"), tmp.resolve("d")),
                "'..' after a folder that does not exist has no meaning to take");
    }

    @Test
    void theFoldersAClaimCreatedGoWhenTheRunWroteNothing() {
        OutFolder given = OutFolder.claim(tmp.resolve("a/b/c"), tmp.resolve("x"));
        given.release();
        assertFalse(Files.exists(tmp.resolve("a")), "every folder the claim created, not only the last");
        OutFolder dflt = OutFolder.claim(null, tmp.resolve("iolab-results/20261124-231531"));
        dflt.release();
        assertFalse(Files.exists(tmp.resolve("iolab-results")));
    }
}
