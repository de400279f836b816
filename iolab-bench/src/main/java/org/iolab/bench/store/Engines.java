package org.iolab.bench.store;

import java.util.List;
import org.iolab.IolabException;
import org.iolab.storage.Backend;

/** The engines of the employee benchmark, by name. */
public final class Engines {
    /** The peers and the baseline, in the order the report lists them. */
    public static final List<String> PEERS = List.of("bruno-mbb", "mvstore", "mapdb", "rocksdb", "lmdb", "sqlite",
            "chronicle-map");
    /**
     * The floor, not a peer: a heap {@code HashMap} written to a file only at close ({@link HeapMapEngine}), at
     * NONE only.
     */
    public static final String FLOOR = HeapMapEngine.NAME;

    private Engines() {
    }

    /**
     * @return every engine name: {@code iolab} and {@code iolab-<backend>} for each backend, then {@link #PEERS},
     *     then {@link #FLOOR}
     */
    public static List<String> names() {
        java.util.ArrayList<String> names = new java.util.ArrayList<>();
        names.add("iolab");
        for (Backend b : Backend.values()) {
            names.add("iolab-" + b.label());
        }
        names.addAll(PEERS);
        names.add(FLOOR);
        return List.copyOf(names);
    }

    /**
     * @param name an engine name, see {@link #names()}
     * @return a new, closed engine
     * @throws IolabException for an unknown name, listing the known ones
     */
    public static KvEngine create(String name) {
        String n = name == null ? "" : name.trim();
        return switch (n) {
            case "bruno-mbb" -> new BrunoMbbEngine();
            case "mvstore", "h2" -> new MvStoreEngine();
            case "mapdb" -> new MapDbEngine();
            case "rocksdb" -> new RocksDbEngine();
            case "lmdb" -> new LmdbEngine();
            case "sqlite" -> new SqliteEngine();
            case "chronicle-map" -> new ChronicleMapEngine();
            case FLOOR -> new HeapMapEngine();
            default -> {
                if (n.equals("iolab") || n.startsWith("iolab-")) {
                    yield iolab(n.equals("iolab") ? Backend.DEFAULT : backend(n, n.substring("iolab-".length())));
                }
                throw new IolabException("bad engine '" + name + "': expected one of " + String.join(", ", names()));
            }
        };
    }

    private static Backend backend(String name, String label) {
        try {
            return Backend.parse(label);
        } catch (IolabException e) {
            throw new IolabException("bad engine '" + name + "': " + e.getMessage());
        }
    }

    private static KvEngine iolab(Backend backend) {
        return new IolabStoreEngine(backend);
    }
}
