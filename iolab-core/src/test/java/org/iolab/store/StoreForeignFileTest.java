package org.iolab.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iolab.IolabException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a file that is not a store refuses it and leaves it as it was. A file shorter than a header page and a
 * slot, or with zeros where the first slot goes, was taken for an interrupted creation and recreated as an empty
 * store, so {@code iolab store get /etc/passwd x} wiped the file (found by a review of the CLI's bad input).
 */
class StoreForeignFileTest {
    @TempDir
    Path tmp;

    private void refusedAndUnchanged(String name, byte[] content, boolean foreign) throws IOException {
        Path file = tmp.resolve(name);
        Files.write(file, content);
        StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                () -> Store.open(file, StoreOptions.defaults()).close(), name);
        assertTrue(e.getMessage().contains("not an iolab store"), e.getMessage());
        assertTrue(e.getMessage().contains("the file is unchanged"), e.getMessage());
        assertArrayEquals(content, Files.readAllBytes(file), name + " was changed");
        assertFalse(Files.exists(IndexFile.of(file)), name + ": a checkpoint was written");
        Path lock = file.resolveSibling(name + ".lock");
        assertFalse(foreign && Files.exists(lock), name + ": the refused open left " + lock + " behind");
        assertThrows(StoreCorruptedException.class, () -> Store.openReadOnly(file, StoreOptions.defaults()));
        assertFalse(foreign && Files.exists(lock), name + ": the refused read-only open left " + lock + " behind");
        assertFalse(Store.verify(file).ok(), name + ": verify called it a store");
        assertFalse(foreign && Files.exists(lock), name + ": verify left " + lock + " behind");
        assertArrayEquals(content, Files.readAllBytes(file), name + " was changed by verify");
        // repair rewrites any file: the command line asks this first (a 26 KB text file was cut to 4096 bytes)
        assertEquals(!foreign, Store.beginsAsStore(file), name);
    }

    /**
     * A FIFO (or a device) is refused by what it is before a lock file is made beside it: {@code /dev/null} got a
     * {@code /dev/null.lock}, then an fallocate error (found by a review of the README's commands).
     */
    @Test
    void aPathThatIsNotARegularFileIsRefusedWithoutALockFile() throws Exception {
        Path fifo = tmp.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(), "mkfifo");
        for (Executable call : List.<Executable>of(() -> Store.open(fifo, StoreOptions.defaults()).close(),
                () -> Store.openReadOnly(fifo, StoreOptions.defaults()).close(),
                () -> Store.verify(fifo), () -> Store.repair(fifo))) {
            IolabException e = assertThrows(IolabException.class, call);
            assertTrue(e.getMessage().contains(fifo + " is not a regular file"), e.getMessage());
        }
        try (var files = Files.list(tmp)) {
            assertEquals(List.of(fifo), files.toList(), "no lock file, no checkpoint, no redo log");
        }
    }

    @Test
    void filesThatAreNotStoresAreRefusedAndLeftAsTheyWere() throws IOException {
        byte[] passwd = "root:x:0:0:root:/root:/bin/bash\n".repeat(3).getBytes(StandardCharsets.US_ASCII);
        refusedAndUnchanged("passwd", passwd, true);
        refusedAndUnchanged("one-byte", new byte[] {1}, true);
        byte[] text = new byte[64 * 1024];
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) ('a' + i % 26);
        }
        refusedAndUnchanged("text", text, true);
        // zeros over the header page and where the first slot goes, then records: what a store whose first 8 KiB
        // were lost looks like, so it begins as a store
        Path source = tmp.resolve("source");
        try (Store s = Store.open(source, StoreOptions.defaults())) {
            for (int i = 0; i < 200; i++) {
                s.put(("key" + i).getBytes(StandardCharsets.US_ASCII), new byte[40]);
            }
        }
        byte[] late = Files.readAllBytes(source);
        java.util.Arrays.fill(late, 0, 8192, (byte) 0);
        refusedAndUnchanged("late", late, false);
        // a zero first page and then no record at all is another kind of file (a review's: 4 KiB of zeros, then text;
        // repair cut it to 4 KiB)
        byte[] zeroPageThenText = new byte[4096 + text.length];
        System.arraycopy(text, 0, zeroPageThenText, 4096, text.length);
        refusedAndUnchanged("zero-page-then-text", zeroPageThenText, true);
        byte[] zerosThenOneByte = new byte[6000];
        zerosThenOneByte[5000] = 42;
        refusedAndUnchanged("zeros-then-one-byte", zerosThenOneByte, true);
    }

    /**
     * A file of another kind whose first 4 KiB are zeros (an ISO image's system area), then 16 MiB of other bytes: the
     * search for a record after the zero page is bounded. A review found it reading and checking every candidate slot
     * of the whole file (random words pass the shape check often): over 20 s for 16 MiB, in verify, a refused open and
     * the command line's error paths. Not a timing test: the bound is far above the milliseconds it takes.
     */
    @Test
    void aZeroPageBeforeManyMegabytesOfOtherBytesIsAnsweredWithoutReadingThemAll() throws IOException {
        Path f = tmp.resolve("image.iso");
        byte[] b = new byte[4096 + (16 << 20)];
        new java.util.Random(1).nextBytes(b);
        java.util.Arrays.fill(b, 0, 4096, (byte) 0);
        Files.write(f, b);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> assertFalse(Store.beginsAsStore(f)));
    }

    @Test
    void zerosAndATornHeaderAreAnInterruptedCreation() throws IOException {
        Path zeros = tmp.resolve("zeros");
        Files.write(zeros, new byte[8192]);
        try (Store s = Store.open(zeros, StoreOptions.defaults())) {
            assertEquals(0, s.size());
            s.put("k".getBytes(StandardCharsets.US_ASCII), new byte[3]);
        }
        Path torn = tmp.resolve("torn");
        ByteBuffer page = ByteBuffer.allocate(Header.PAGE).order(ByteOrder.LITTLE_ENDIAN);
        page.putLong(Header.COPY_A, Header.MAGIC).putInt(Header.COPY_A + 8, 12345).putLong(Header.COPY_A + 20, -1);
        Files.write(torn, page.array());
        try (Store s = Store.open(torn, StoreOptions.defaults())) {
            assertEquals(0, s.size());
        }
        // the same bytes past the header copy are not a torn header
        page.put(Header.COPY_A + Header.SIZE + 1, (byte) 7);
        Path notTorn = tmp.resolve("not-torn");
        Files.write(notTorn, page.array());
        assertThrows(StoreCorruptedException.class, () -> Store.open(notTorn, StoreOptions.defaults()).close());
    }
}
