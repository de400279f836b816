package org.iolab.report.machine;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.iolab.Sizes;
import org.iolab.os.PageCache;
import org.iolab.report.model.Fact;

/**
 * Collects the facts about the machine a reader needs to judge file-access figures: CPU, memory, kernel,
 * the filesystem and block device under the benchmark folder, page-cache related settings and the JDK.
 *
 * <p>Every fact is read from {@code /proc}, {@code /sys} or the running JVM. A fact that cannot be found
 * (no such file, not Linux, a container hiding it) gets the value {@code unknown (why)}; collecting
 * never throws for a missing file.
 */
public final class MachineFacts {
    /** Fact name: CPU model. */
    public static final String CPU = "CPU";
    /** Fact name: logical processors the JVM may use, and those the machine has. */
    public static final String CORES = "CPU cores";
    /** Fact name: total RAM. */
    public static final String RAM = "RAM";
    /** Fact name: kernel release. */
    public static final String KERNEL = "Kernel";
    /** Fact name: filesystem type of the benchmark folder. */
    public static final String FILESYSTEM = "Filesystem";
    /** Fact name: mount point and mount options of the benchmark folder. */
    public static final String MOUNT_OPTIONS = "Mount options";
    /** Fact name: block device backing the benchmark folder. */
    public static final String BLOCK_DEVICE = "Block device";
    /** Fact name: model of that block device. */
    public static final String DEVICE_MODEL = "Device model";
    /** Fact name: whether the device is rotational (a spinning disk). */
    public static final String ROTATIONAL = "Rotational";
    /** Fact name: the device's readahead. */
    public static final String READAHEAD = "Readahead";
    /** Fact name: the device's I/O scheduler. */
    public static final String SCHEDULER = "I/O scheduler";
    /** Fact name: transparent huge pages mode. */
    public static final String THP = "Transparent huge pages";
    /** Fact name: the cgroup memory limit (it caps the page cache too). */
    public static final String CGROUP_MEMORY = "cgroup memory limit";
    /** Fact name: free space on the benchmark folder's filesystem. */
    public static final String FREE_SPACE = "Free space";
    /** Fact name: JDK vendor and version. */
    public static final String JDK = "JDK";
    /** Fact name: the JVM's command-line flags. */
    public static final String JVM_FLAGS = "JVM flags";
    /** Fact name: the kernel's page size. */
    public static final String PAGE_SIZE = "Page size";

    /** Every fact name {@link #collect(Path)} returns, in its order. */
    public static final List<String> NAMES = List.of(CPU, CORES, RAM, KERNEL, FILESYSTEM, MOUNT_OPTIONS,
            BLOCK_DEVICE, DEVICE_MODEL, ROTATIONAL, READAHEAD, SCHEDULER, THP, CGROUP_MEMORY, FREE_SPACE, JDK,
            JVM_FLAGS, PAGE_SIZE);

    /** cgroup limits at or above this are the kernel's "no limit" (v1 writes a huge page-rounded number). */
    private static final long NO_LIMIT = 1L << 60;

    private final Path proc;
    private final Path sys;

    private MachineFacts(Path proc, Path sys) {
        this.proc = proc;
        this.sys = sys;
    }

    /**
     * Collects the facts for benchmarks whose files live in {@code dir}.
     *
     * @param dir the benchmark folder (its filesystem, device and free space are described)
     * @return one fact per name in {@link #NAMES}, in that order
     */
    public static List<Fact> collect(Path dir) {
        return new MachineFacts(Path.of("/proc"), Path.of("/sys")).facts(dir.toAbsolutePath().normalize());
    }

    private List<Fact> facts(Path dir) {
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact(CPU, cpuModel()));
        facts.add(new Fact(CORES, cores()));
        facts.add(new Fact(RAM, ram()));
        facts.add(new Fact(KERNEL, read(proc.resolve("sys/kernel/osrelease")).orElse("unknown (no "
                + proc.resolve("sys/kernel/osrelease") + ")")));
        Optional<Mount> mount = mountOf(dir);
        facts.add(new Fact(FILESYSTEM, mount.map(Mount::type)
                .orElse("unknown (no mount of " + dir + " in /proc/self/mounts)")));
        facts.add(new Fact(MOUNT_OPTIONS, mount.map(m -> m.options() + " (mounted at " + m.point() + ")")
                .orElse("unknown (no mount of " + dir + " in /proc/self/mounts)")));
        Device device = device(dir, mount);
        facts.add(new Fact(BLOCK_DEVICE, device.description()));
        facts.add(new Fact(DEVICE_MODEL, device.model()));
        facts.add(new Fact(ROTATIONAL, device.rotational()));
        facts.add(new Fact(READAHEAD, device.readahead()));
        facts.add(new Fact(SCHEDULER, device.scheduler()));
        facts.add(new Fact(THP, thp()));
        facts.add(new Fact(CGROUP_MEMORY, cgroupMemory()));
        facts.add(new Fact(FREE_SPACE, freeSpace(dir)));
        facts.add(new Fact(JDK, jdk()));
        facts.add(new Fact(JVM_FLAGS, jvmFlags()));
        facts.add(new Fact(PAGE_SIZE, pageSize()));
        return List.copyOf(facts);
    }

    private String cpuModel() {
        Path cpuinfo = proc.resolve("cpuinfo");
        List<String> lines = lines(cpuinfo);
        if (lines.isEmpty()) {
            return "unknown (cannot read " + cpuinfo + ")";
        }
        for (String key : List.of("model name", "Model", "cpu model", "Hardware", "Processor", "cpu")) {
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    String value = line.substring(colon + 1).trim().replaceAll("\\s+", " ");
                    if (!value.isEmpty()) {
                        return value;
                    }
                }
            }
        }
        return "unknown (no model name in " + cpuinfo + ")";
    }

    private String cores() {
        int jvm = Runtime.getRuntime().availableProcessors();
        long online = lines(proc.resolve("cpuinfo")).stream().filter(l -> l.startsWith("processor")).count();
        if (online > 0 && online != jvm) {
            return jvm + " available to the JVM (" + online + " on the machine)";
        }
        return Integer.toString(jvm);
    }

    private String ram() {
        Path meminfo = proc.resolve("meminfo");
        for (String line : lines(meminfo)) {
            if (line.startsWith("MemTotal:")) {
                String[] parts = line.substring("MemTotal:".length()).trim().split("\\s+");
                try {
                    long kib = Long.parseLong(parts[0]);
                    return Sizes.format(kib * 1024);
                } catch (NumberFormatException e) {
                    return "unknown (unreadable MemTotal line in " + meminfo + ": " + line + ")";
                }
            }
        }
        return "unknown (no MemTotal in " + meminfo + ")";
    }

    /** A line of /proc/self/mounts. */
    private record Mount(String source, String point, String type, String options) {
    }

    private Optional<Mount> mountOf(Path dir) {
        Path real = dir;
        try {
            real = dir.toRealPath();
        } catch (IOException e) {
            // a missing folder: match its path as given
        }
        Mount best = null;
        for (String line : lines(proc.resolve("self/mounts"))) {
            String[] f = line.split(" ");
            if (f.length < 4) {
                continue;
            }
            String point = unescape(f[1]);
            if (isUnder(real.toString(), point) && (best == null || point.length() >= best.point().length())) {
                best = new Mount(unescape(f[0]), point, f[2], f[3]);
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean isUnder(String path, String point) {
        return point.equals("/") || path.equals(point) || path.startsWith(point + "/");
    }

    /** /proc/self/mounts writes space, tab, newline and backslash as octal escapes. */
    private static String unescape(String s) {
        return s.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    /** The block device under a folder, as far as /sys tells. */
    private record Device(String description, String model, String rotational, String readahead,
                          String scheduler) {
        static Device unknown(String why) {
            String u = "unknown (" + why + ")";
            return new Device(u, u, u, u, u);
        }
    }

    private Device device(Path dir, Optional<Mount> mount) {
        Optional<String> name = Optional.empty();
        if (mount.isPresent() && mount.get().source().startsWith("/dev/")) {
            Path source = Path.of(mount.get().source());
            try {
                source = source.toRealPath(); // /dev/mapper/x -> /dev/dm-0, /dev/root -> ...
            } catch (IOException e) {
                // keep the name as mounted
            }
            String n = source.getFileName().toString();
            if (Files.isDirectory(sys.resolve("class/block").resolve(n))) {
                name = Optional.of(n);
            }
        }
        if (name.isEmpty()) {
            name = deviceByNumber(dir);
        }
        if (name.isEmpty()) {
            String source = mount.map(Mount::source).orElse("no mount found");
            return Device.unknown("no block device for " + dir + " (mounted from '" + source + "')");
        }
        String dev = name.get();
        Path block = sys.resolve("class/block").resolve(dev);
        // a partition's queue and model live on its disk: /sys/class/block/vda1 -> .../block/vda/vda1
        String disk = dev;
        if (Files.exists(block.resolve("partition"))) {
            try {
                Path parent = block.toRealPath().getParent();
                if (parent != null && parent.getFileName() != null) {
                    disk = parent.getFileName().toString();
                }
            } catch (IOException e) {
                // keep the partition's name
            }
        }
        Path diskDir = sys.resolve("class/block").resolve(disk);
        String description = "/dev/" + dev + (disk.equals(dev) ? "" : " (partition of /dev/" + disk + ")");
        Optional<String> size = read(diskDir.resolve("size"));
        if (size.isPresent()) {
            try {
                description += ", " + Sizes.format(Long.parseLong(size.get()) * 512);
            } catch (NumberFormatException e) {
                // leave the size out
            }
        }
        return new Device(description, model(diskDir, disk), rotational(diskDir, dev, disk),
                queueValue(dev, disk, "read_ahead_kb").map(kb -> kb + " KiB")
                        .orElse("unknown (no queue/read_ahead_kb for " + disk + ")"),
                queueValue(dev, disk, "scheduler").map(MachineFacts::bracketed)
                        .orElse("unknown (no queue/scheduler for " + disk + ")"));
    }

    private Optional<String> deviceByNumber(Path dir) {
        try {
            Object attr = Files.getAttribute(dir, "unix:dev");
            if (!(attr instanceof Long dev)) {
                return Optional.empty();
            }
            long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
            long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
            Path link = sys.resolve("dev/block").resolve(major + ":" + minor);
            if (!Files.exists(link)) {
                return Optional.empty();
            }
            return Optional.of(link.toRealPath().getFileName().toString());
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return Optional.empty();
        }
    }

    private String model(Path diskDir, String disk) {
        Path device = diskDir.resolve("device");
        List<String> parts = new ArrayList<>();
        read(device.resolve("vendor")).filter(v -> !v.startsWith("0x")).ifPresent(parts::add);
        read(device.resolve("model")).ifPresent(parts::add);
        if (!parts.isEmpty()) {
            return String.join(" ", parts);
        }
        String driver = driver(device);
        if (driver.equals("virtio_blk") || disk.startsWith("vd")) {
            return "virtio disk of a virtual machine (the host's real device is hidden)";
        }
        if (disk.startsWith("dm-")) {
            return read(diskDir.resolve("dm/name")).map(n -> "device-mapper volume " + n)
                    .orElse("device-mapper volume");
        }
        if (disk.startsWith("loop")) {
            return read(diskDir.resolve("loop/backing_file")).map(f -> "loop device over " + f)
                    .orElse("loop device");
        }
        if (disk.startsWith("zram") || disk.startsWith("ram")) {
            return "RAM disk";
        }
        return "unknown (no " + device.resolve("model") + ")";
    }

    private static String driver(Path device) {
        try {
            return Files.readSymbolicLink(device.resolve("driver")).getFileName().toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "";
        }
    }

    private String rotational(Path diskDir, String dev, String disk) {
        return queueValue(dev, disk, "rotational").map(r -> switch (r) {
            case "0" -> "no (SSD, NVMe or virtual)";
            case "1" -> "yes (spinning disk, or a virtual disk that does not say)";
            default -> r;
        }).orElse("unknown (no " + diskDir.resolve("queue/rotational") + ")");
    }

    private Optional<String> queueValue(String dev, String disk, String name) {
        for (Path p : List.of(sys.resolve("class/block").resolve(dev).resolve("queue").resolve(name),
                sys.resolve("class/block").resolve(disk).resolve("queue").resolve(name),
                sys.resolve("block").resolve(disk).resolve("queue").resolve(name))) {
            Optional<String> v = read(p);
            if (v.isPresent()) {
                return v;
            }
        }
        return Optional.empty();
    }

    /** {@code always [madvise] never} gives {@code madvise}; a value without brackets is kept. */
    static String bracketed(String line) {
        int open = line.indexOf('[');
        int close = line.indexOf(']', open + 1);
        return open >= 0 && close > open ? line.substring(open + 1, close) : line.trim();
    }

    private String thp() {
        Path p = sys.resolve("kernel/mm/transparent_hugepage/enabled");
        return read(p).map(MachineFacts::bracketed).orElse("unknown (no " + p + ")");
    }

    private String cgroupMemory() {
        Path cg = sys.resolve("fs/cgroup");
        Set<Path> candidates = new LinkedHashSet<>();
        String v1 = null;
        String v2 = null;
        for (String line : lines(proc.resolve("self/cgroup"))) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && f[0].equals("0") && f[1].isEmpty()) {
                v2 = f[2];
            } else if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
                v1 = f[2];
            }
        }
        if (v2 != null) {
            candidates.add(cg.resolve(relative(v2)).resolve("memory.max"));
        }
        candidates.add(cg.resolve("memory.max"));
        if (v1 != null) {
            candidates.add(cg.resolve("memory").resolve(relative(v1)).resolve("memory.limit_in_bytes"));
        }
        candidates.add(cg.resolve("memory/memory.limit_in_bytes"));
        for (Path p : candidates) {
            Optional<String> v = read(p);
            if (v.isPresent()) {
                String value = v.get();
                if (value.equals("max")) {
                    return "none";
                }
                try {
                    long bytes = Long.parseLong(value);
                    return bytes >= NO_LIMIT ? "none" : Sizes.format(bytes);
                } catch (NumberFormatException e) {
                    return value;
                }
            }
        }
        return "unknown (no memory.max or memory.limit_in_bytes under " + cg + ")";
    }

    private static String relative(String cgroupPath) {
        String p = cgroupPath;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        return p;
    }

    private static String freeSpace(Path dir) {
        try {
            var store = Files.getFileStore(dir);
            return Sizes.format(store.getUsableSpace()) + " of " + Sizes.format(store.getTotalSpace());
        } catch (IOException | SecurityException e) {
            return "unknown (cannot read the free space of " + dir + ": " + e.getMessage() + ")";
        }
    }

    private static String jdk() {
        String vendor = System.getProperty("java.vendor", "unknown vendor");
        String version = System.getProperty("java.runtime.version", System.getProperty("java.version", "?"));
        String vm = System.getProperty("java.vm.name");
        return vendor + " " + version + (vm == null ? "" : " (" + vm + ")");
    }

    private static String jvmFlags() {
        try {
            List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
            return args.isEmpty() ? "none" : String.join(" ", args);
        } catch (SecurityException | UnsupportedOperationException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static String pageSize() {
        try {
            return Sizes.format(PageCache.pageSize());
        } catch (RuntimeException | LinkageError e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static Optional<String> read(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8).trim();
            return s.isEmpty() ? Optional.empty() : Optional.of(s);
        } catch (IOException | SecurityException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException | java.io.UncheckedIOException e) {
            return List.of();
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "MachineFacts[%s, %s]", proc, sys);
    }
}
