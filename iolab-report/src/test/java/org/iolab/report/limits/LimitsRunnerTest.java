package org.iolab.report.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.IolabException;
import org.iolab.content.Content;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LimitsRunnerTest {
    @Test
    void measuresWhatIsInstalledAndNotesTheRest(@TempDir Path dir) throws IOException {
        int size = 1 << 20;
        byte[] bytes = new byte[size];
        Content.DEFAULT.fill(0, bytes, 0, size);
        Path data = Files.write(dir.resolve("read-" + size + ".dat"), bytes);

        LimitsRunner.Result r = LimitsRunner.measure(dir, data, size, List.of(65_536L), 1);

        boolean cc = NativeBaseline.compiler().isPresent();
        assertEquals(cc, r.limits().stream().anyMatch(l -> l.tool().equals("c")), r::toString);
        assertEquals(!cc, r.notes().contains(LimitsRunner.NO_COMPILER), r::toString);
        assertEquals(Fio.available(), r.limits().stream().anyMatch(l -> l.tool().equals("fio")), r::toString);
        assertEquals(!Fio.available(), r.notes().contains(LimitsRunner.NO_FIO), r::toString);
        if (cc) {
            // read and fread warm and cold, mmap warm and cold, write with and without fdatasync
            assertEquals(8, r.limits().stream().filter(l -> l.tool().equals("c")).count(), r::toString);
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(data), files.toList(), "only the data file is left");
        }
    }

    @Test
    void aMissingDataFileIsANoteNotACrash(@TempDir Path dir) {
        org.junit.jupiter.api.Assumptions.assumeTrue(NativeBaseline.compiler().isPresent());
        Path missing = dir.resolve("read-4096.dat");
        LimitsRunner.Result r = LimitsRunner.measure(dir, missing, 4096, List.of(4096L), 1);
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("C baseline read passes skipped")
                && n.contains(missing.toString())), r::toString);
        assertTrue(r.limits().stream().anyMatch(l -> l.tool().equals("c") && l.operation().equals("write")),
                r::toString);
    }

    @Test
    void aDamagedDataFileIsAnError(@TempDir Path dir) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(NativeBaseline.compiler().isPresent());
        Path data = Files.write(dir.resolve("read-4096.dat"), new byte[4096]);
        IolabException e = assertThrows(NativeBaseline.WrongChecksumException.class,
                () -> LimitsRunner.measure(dir, data, 4096, List.of(4096L), 1));
        assertTrue(e.getMessage().contains(data.toString()), e::getMessage);
    }
}
