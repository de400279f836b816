package org.iolab.report.limits;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.iolab.IolabException;
import org.iolab.Sizes;
import org.iolab.content.Content;
import org.iolab.os.FileSpace;
import org.iolab.os.PageCache;
import org.iolab.report.model.Limit;

/**
 * The fio baseline: sequential whole-file reads and writes with {@code fio --ioengine=psync}, buffered
 * and with {@code O_DIRECT}, over a file in the benchmark folder.
 *
 * <p>Operations ({@link Limit#operation()}):
 * <ul>
 *   <li>{@code write-buffered}, {@code write-direct}: {@code --rw=write --end_fsync=1 --fallocate=none} into
 *       a new file (deleted before each pass), cache null;</li>
 *   <li>{@code read-buffered}, cache {@code cold}: before each pass iolab evicts the file with
 *       {@code posix_fadvise(DONTNEED)} and checks with {@code mincore} ({@link PageCache#evict}), and fio
 *       runs with {@code --invalidate=1} (its default), which drops the file's pages again at job start;</li>
 *   <li>{@code read-buffered}, cache {@code warm}: the file is read once first ({@link PageCache#warm}) and
 *       fio runs with {@code --invalidate=0};</li>
 *   <li>{@code read-direct}, cache {@code cold}: {@code O_DIRECT} bypasses the page cache. Direct I/O needs
 *       block sizes that are multiples of the device's logical block; sizes that are not a multiple of
 *       {@value #DIRECT_ALIGNMENT} bytes are left out of the direct jobs.</li>
 * </ul>
 * Block sizes larger than the file are left out. fio moves a whole number of blocks (the file size rounded
 * down to a multiple of the block size). fio's own figure {@code bw_bytes} is used: bytes moved over the
 * job's run time in milliseconds, so very short jobs are coarse.
 *
 * <p>Cost: per block size, {@code runs} passes of each of five jobs (two writes, three reads) over the whole
 * file.
 */
public final class Fio {
    /** {@link Limit#tool()} of every fio limit. */
    public static final String TOOL = "fio";
    /** Operation: buffered sequential read. */
    public static final String READ_BUFFERED = "read-buffered";
    /** Operation: O_DIRECT sequential read. */
    public static final String READ_DIRECT = "read-direct";
    /** Operation: buffered sequential write, fsynced at the end. */
    public static final String WRITE_BUFFERED = "write-buffered";
    /** Operation: O_DIRECT sequential write, fsynced at the end. */
    public static final String WRITE_DIRECT = "write-direct";
    /**
     * Operation: the journal's comparator at durability NONE, buffered sequential write with the block size
     * equal to the journal's record size, fsynced at the end.
     */
    public static final String JOURNAL_WRITE = "journal-write";
    /**
     * Operation: the journal's comparator at durability BATCH, the same write with {@code --fdatasync=N}, N
     * blocks being the journal's group-commit byte threshold ({@code JournalOptions.defaults().batchBytes()}).
     */
    public static final String JOURNAL_WRITE_FDATASYNC = "journal-write-fdatasync";
    /**
     * Operation: the device's synced write rate, the store's comparator at durability ALWAYS: buffered 4 KiB
     * sequential writes with {@code --fdatasync=1} (one fdatasync after every write), for a few seconds.
     * Writes per second are {@code bw_bytes / 4096}.
     */
    public static final String STORE_WRITE_FDATASYNC = "store-write-fdatasync";
    /** Block size of {@link #STORE_WRITE_FDATASYNC}: 4 KiB, a page. */
    public static final long STORE_BLOCK = 4096;
    /** Direct jobs only run for block sizes that are multiples of this. */
    public static final long DIRECT_ALIGNMENT = 4096;
    /** Note of cold buffered reads. */
    public static final String COLD_NOTE = "posix_fadvise(DONTNEED) by iolab, checked with mincore, and fio"
            + " --invalidate=1";
    /** Note of warm buffered reads. */
    public static final String WARM_NOTE = "file read once before, fio --invalidate=0";
    /** Note of direct reads. */
    public static final String DIRECT_NOTE = "O_DIRECT: bypasses the page cache";
    /** Note of writes. */
    public static final String WRITE_NOTE = "new file, --end_fsync=1, --fallocate=none";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Fio() {
    }

    /** @return whether {@code fio} is on the PATH */
    public static boolean available() {
        return Processes.onPath("fio").isPresent();
    }

    /**
     * Runs the fio jobs: per block size, {@code runs} passes each of buffered and direct writes, then
     * buffered reads cold and warm, then direct reads. The file {@code iolab-fio-<size>.dat} in {@code dir}
     * is deleted at the end.
     *
     * @param dir the folder to measure (the benchmark folder)
     * @param fileSize bytes per pass
     * @param blockSizes block sizes in bytes
     * @param runs passes per job, at least 1
     * @return one limit per operation, block size and cache state
     * @throws IolabException when fio is missing or a job fails (with fio's output)
     */
    public static List<Limit> measure(Path dir, long fileSize, List<Long> blockSizes, int runs) {
        return measure(dir, fileSize, blockSizes, runs, note -> {
            throw new IolabException(note);
        });
    }

    /**
     * Like {@link #measure(Path, long, List, int)}, but a failing job (e.g. a filesystem without
     * {@code O_DIRECT}) is reported to {@code failures} and the other jobs go on.
     *
     * @param dir the folder to measure
     * @param fileSize bytes per pass
     * @param blockSizes block sizes in bytes
     * @param runs passes per job, at least 1
     * @param failures receives one message per failed job or skipped block size
     * @return the limits of the jobs that worked
     */
    static List<Limit> measure(Path dir, long fileSize, List<Long> blockSizes, int runs, Consumer<String> failures) {
        if (runs < 1) {
            throw new IolabException("bad runs " + runs + " for fio: must be at least 1");
        }
        if (fileSize < 1) {
            throw new IolabException("bad file size " + fileSize + " for fio: must be at least 1 byte");
        }
        Path fio = Processes.onPath("fio").orElseThrow(() -> new IolabException(
                "fio is not on the PATH: install it (apt-get install fio) to measure the fio baseline"));
        FileSpace.requireFree(dir, fileSize, "the fio baseline");
        Path file = dir.resolve("iolab-fio-" + fileSize + ".dat");
        List<Limit> limits = new ArrayList<>();
        try {
            for (long bs : blockSizes) {
                if (bs < 1 || bs > fileSize) {
                    failures.accept("fio: block size " + bs + " left out: it must be 1 byte to the file size "
                            + fileSize);
                    continue;
                }
                boolean direct = bs % DIRECT_ALIGNMENT == 0;
                // direct first: the buffered write then leaves a complete file for the reads (when all writes
                // fail, fio lays the file out itself before reading)
                if (direct) {
                    job(fio, file, fileSize, bs, WRITE_DIRECT, null, WRITE_NOTE, runs, failures)
                            .ifPresent(limits::add);
                }
                job(fio, file, fileSize, bs, WRITE_BUFFERED, null, WRITE_NOTE, runs, failures).ifPresent(limits::add);
                job(fio, file, fileSize, bs, READ_BUFFERED, "cold", COLD_NOTE, runs, failures).ifPresent(limits::add);
                job(fio, file, fileSize, bs, READ_BUFFERED, "warm", WARM_NOTE, runs, failures).ifPresent(limits::add);
                if (direct) {
                    job(fio, file, fileSize, bs, READ_DIRECT, "cold", DIRECT_NOTE, runs, failures)
                            .ifPresent(limits::add);
                } else {
                    failures.accept("fio: no O_DIRECT jobs for block size " + bs + ": direct I/O needs a multiple"
                            + " of " + DIRECT_ALIGNMENT + " bytes");
                }
            }
        } finally {
            delete(file);
        }
        return List.copyOf(limits);
    }

    /**
     * Runs the journal's fio comparators: per record size, {@code runs} passes of a buffered sequential write
     * with that block size ({@value #JOURNAL_WRITE}, fsynced at the end) and of the same write with
     * {@code --fdatasync=batchBytes/recordSize} ({@value #JOURNAL_WRITE_FDATASYNC}), each into a new file
     * {@code iolab-fio-journal.dat} in {@code dir}, deleted afterwards.
     *
     * @param dir the folder (the benchmark folder)
     * @param fileSize bytes per pass; rounded down to whole records, at least 16 records
     * @param recordSizes the journal's record sizes (block sizes)
     * @param batchBytes the journal's group-commit byte threshold
     * @param runs passes per job, at least 1
     * @param failures receives one message per failed job
     * @return the limits of the jobs that worked
     * @throws IolabException when fio is missing or an argument is bad
     */
    public static List<Limit> measureJournal(Path dir, long fileSize, List<Long> recordSizes, long batchBytes,
                                             int runs, Consumer<String> failures) {
        if (runs < 1) {
            throw new IolabException("bad runs " + runs + " for fio: must be at least 1");
        }
        if (batchBytes < 1) {
            throw new IolabException("bad batch threshold " + batchBytes + " for fio: must be at least 1 byte");
        }
        Path fio = Processes.onPath("fio").orElseThrow(() -> new IolabException(
                "fio is not on the PATH: install it (apt-get install fio) to measure the fio comparators"));
        Path file = dir.resolve("iolab-fio-journal.dat");
        List<Limit> limits = new ArrayList<>();
        try {
            for (long bs : recordSizes) {
                if (bs < 1) {
                    failures.accept("fio: record size " + bs + " left out: it must be at least 1 byte");
                    continue;
                }
                long size = Math.max(16 * bs, fileSize / bs * bs);
                FileSpace.requireFree(dir, size, "the fio journal comparators");
                long every = Math.max(1, batchBytes / bs);
                journalJob(fio, file, size, bs, JOURNAL_WRITE, List.of(), "buffered, bs = record size,"
                        + " --end_fsync=1", runs, failures).ifPresent(limits::add);
                journalJob(fio, file, size, bs, JOURNAL_WRITE_FDATASYNC, List.of("--fdatasync=" + every),
                        "--fdatasync=" + every + " (every " + batchBytes + " bytes, the journal's BATCH"
                        + " threshold), --end_fsync=1", runs, failures).ifPresent(limits::add);
            }
        } finally {
            delete(file);
        }
        return List.copyOf(limits);
    }

    /**
     * Measures the device's 4 KiB write+fdatasync rate ({@value #STORE_WRITE_FDATASYNC}): {@code runs} passes of
     * {@code fio --rw=write --bs=4k --fdatasync=1 --runtime=SECONDS --size=maxSize}, each into a new file
     * {@code iolab-fio-store.dat} in {@code dir}, deleted afterwards. A pass ends after {@code seconds} or
     * {@code maxSize} bytes, whichever comes first.
     *
     * @param dir the folder (the benchmark folder, where the stores were)
     * @param maxSize most bytes per pass, at least 16 blocks
     * @param seconds run time per pass, at least 1
     * @param runs passes, at least 1
     * @param failures receives the message when the job fails
     * @return the limit, or empty when the job failed
     * @throws IolabException when fio is missing or an argument is bad
     */
    public static Optional<Limit> measureDeviceSync(Path dir, long maxSize, int seconds, int runs,
                                                    Consumer<String> failures) {
        if (runs < 1 || seconds < 1 || maxSize < 16 * STORE_BLOCK) {
            throw new IolabException("bad fio device sync job: runs " + runs + " and seconds " + seconds
                    + " must be at least 1, the size " + maxSize + " at least " + 16 * STORE_BLOCK + " bytes");
        }
        Path fio = Processes.onPath("fio").orElseThrow(() -> new IolabException(
                "fio is not on the PATH: install it (apt-get install fio) to measure the device's write+fdatasync"
                        + " rate"));
        long size = maxSize / STORE_BLOCK * STORE_BLOCK;
        FileSpace.requireFree(dir, size, "the fio device sync job");
        Path file = dir.resolve("iolab-fio-store.dat");
        try {
            return journalJob(fio, file, size, STORE_BLOCK, STORE_WRITE_FDATASYNC, List.of("--fdatasync=1",
                    "--runtime=" + seconds), "4 KiB writes, --fdatasync=1 (every write), --runtime=" + seconds
                    + " or " + Sizes.format(size) + ", new file", runs, failures);
        } finally {
            delete(file);
        }
    }

    private static Optional<Limit> journalJob(Path fio, Path file, long fileSize, long bs, String operation,
                                              List<String> extra, String note, int runs,
                                              Consumer<String> failures) {
        List<Double> passes = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            List<String> command = new ArrayList<>(List.of(fio.toString(), "--output-format=json",
                    "--name=iolab-" + operation, "--filename=" + file.toString().replace(":", "\\:"),
                    "--size=" + fileSize, "--bs=" + bs, "--rw=write", "--ioengine=psync", "--direct=0",
                    "--end_fsync=1", "--fallocate=none"));
            command.addAll(extra);
            try {
                delete(file);
                Processes.Output out = Processes.run(command, "fio");
                if (out.exitCode() != 0) {
                    throw new IolabException("fio " + operation + " with block size " + bs + " on " + file
                            + " failed (exit " + out.exitCode() + "): " + firstLines(out.stderr()));
                }
                passes.addAll(parse(out.stdout(), operation, bs, fileSize, null, note).passes());
            } catch (IolabException e) {
                delete(file);
                failures.accept(e.getMessage());
                return Optional.empty();
            }
        }
        return Optional.of(new Limit(TOOL, operation, bs, fileSize, null, passes, null, note));
    }

    private static Optional<Limit> job(Path fio, Path file, long fileSize, long bs, String operation, String cache,
                                       String note, int runs, Consumer<String> failures) {
        boolean write = operation.startsWith("write");
        boolean direct = operation.endsWith("direct");
        List<Double> passes = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            List<String> command = new ArrayList<>(List.of(fio.toString(), "--output-format=json",
                    "--name=iolab-" + operation, "--filename=" + file.toString().replace(":", "\\:"),
                    "--size=" + fileSize, "--bs=" + bs,
                    "--rw=" + (write ? "write" : "read"), "--ioengine=psync", "--direct=" + (direct ? 1 : 0)));
            try {
                if (write) {
                    command.addAll(List.of("--end_fsync=1", "--fallocate=none"));
                    delete(file);
                } else if (!direct && "warm".equals(cache)) {
                    command.add("--invalidate=0");
                    layOut(file, fileSize);
                    PageCache.warm(file);
                } else {
                    command.add("--invalidate=1");
                    if (!direct) {
                        layOut(file, fileSize);
                        PageCache.evict(file);
                    }
                }
                Processes.Output out = Processes.run(command, "fio");
                if (out.exitCode() != 0) {
                    throw new IolabException("fio " + operation + " with block size " + bs + " on " + file
                            + " failed (exit " + out.exitCode() + "): " + firstLines(out.stderr())
                            + (direct ? "; the filesystem may not support O_DIRECT" : ""));
                }
                passes.addAll(parse(out.stdout(), operation, bs, fileSize, cache, note).passes());
            } catch (IolabException e) {
                if (write) {
                    delete(file);
                }
                failures.accept(e.getMessage());
                return Optional.empty();
            }
        }
        return Optional.of(new Limit(TOOL, operation, bs, fileSize, cache, passes, null, note));
    }

    /**
     * Makes sure the file to read exists with its full size: the writes normally leave it so; when they
     * failed, iolab writes it ({@link Content#DEFAULT}, synced).
     */
    private static void layOut(Path file, long fileSize) {
        try {
            if (Files.exists(file) && Files.size(file) >= fileSize) {
                return;
            }
        } catch (IOException e) {
            throw IolabException.io("read the size of fio's file", file, e);
        }
        byte[] chunk = new byte[1 << 20];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long p = 0; p < fileSize; p += chunk.length) {
                int n = (int) Math.min(chunk.length, fileSize - p);
                Content.DEFAULT.fill(p, chunk, 0, n);
                ByteBuffer buf = ByteBuffer.wrap(chunk, 0, n);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
            ch.force(false);
        } catch (IOException e) {
            throw IolabException.io("write fio's read file", file, e);
        }
    }

    /**
     * Reads one fio job's bandwidth from fio's JSON output ({@code --output-format=json}): {@code
     * jobs[0].read.bw_bytes} for read operations, {@code jobs[0].write.bw_bytes} for writes.
     *
     * @param json fio's standard output (text before the first <code>&#123;</code>, such as warnings, is ignored)
     * @param operation one of {@link #READ_BUFFERED}, {@link #READ_DIRECT}, {@link #WRITE_BUFFERED},
     *     {@link #WRITE_DIRECT}
     * @param blockSize the job's block size
     * @param fileSize the job's file size
     * @param cache {@code cold}, {@code warm} or null
     * @param note the limit's note
     * @return a limit with one pass
     * @throws IolabException when the output is not fio JSON, the job reports an error, or moved no bytes
     */
    public static Limit parse(String json, String operation, long blockSize, long fileSize, String cache,
                              String note) {
        String direction = switch (operation) {
            case READ_BUFFERED, READ_DIRECT -> "read";
            case WRITE_BUFFERED, WRITE_DIRECT, JOURNAL_WRITE, JOURNAL_WRITE_FDATASYNC, STORE_WRITE_FDATASYNC -> "write";
            default -> throw new IolabException("bad fio operation '" + operation + "': use one of "
                    + List.of(READ_BUFFERED, READ_DIRECT, WRITE_BUFFERED, WRITE_DIRECT, JOURNAL_WRITE,
                    JOURNAL_WRITE_FDATASYNC, STORE_WRITE_FDATASYNC));
        };
        int start = json.indexOf('{');
        if (start < 0) {
            throw new IolabException("fio " + operation + " printed no JSON: '" + firstLines(json) + "'");
        }
        JsonNode root;
        try {
            root = JSON.readTree(json.substring(start));
        } catch (JsonProcessingException e) {
            throw new IolabException("fio " + operation + " printed unreadable JSON (" + e.getOriginalMessage()
                    + "); check the fio version (fio --version, 3.x expected)", e);
        }
        JsonNode job = root == null ? null : root.path("jobs").path(0);
        if (job == null || job.isMissingNode() || !job.isObject()) {
            throw new IolabException("fio " + operation + " JSON has no jobs[0]; check the fio version");
        }
        int error = job.path("error").asInt(0);
        if (error != 0) {
            throw new IolabException("fio " + operation + " with block size " + blockSize + " failed with error "
                    + error + " (" + job.path("job options").path("filename").asText("?") + ")"
                    + (operation.endsWith("direct") ? "; the filesystem may not support O_DIRECT at this block"
                    + " size" : ""));
        }
        JsonNode bw = job.path(direction).path("bw_bytes");
        if (!bw.isNumber() || bw.asDouble() <= 0) {
            throw new IolabException("fio " + operation + " with block size " + blockSize + " reported no "
                    + direction + " bandwidth (jobs[0]." + direction + ".bw_bytes is " + bw + ")");
        }
        return new Limit(TOOL, operation, blockSize, fileSize, cache, List.of(bw.asDouble()), null, note);
    }

    private static String firstLines(String text) {
        String t = text.strip();
        return t.length() > 600 ? t.substring(0, 600) + "..." : t;
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw IolabException.io("delete fio's file", file, e);
        }
    }
}
