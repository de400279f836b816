package org.iolab.catalogue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.iolab.IolabException;
import org.iolab.catalogue.random.RandomAccessMethods;
import org.iolab.catalogue.read.ReadMethods;
import org.iolab.catalogue.write.WriteMethods;

/** Every file-access method iolab knows, by id. */
public final class Catalogue {
    private static final List<ReadMethod> READS = List.copyOf(ReadMethods.all());
    private static final List<WriteMethod> WRITES = List.copyOf(WriteMethods.all());
    private static final List<RandomAccessMethod> RANDOM = List.copyOf(RandomAccessMethods.all());
    private static final Map<String, MethodInfo> INFOS = index();

    private Catalogue() {
    }

    private static Map<String, MethodInfo> index() {
        Map<String, MethodInfo> map = new LinkedHashMap<>();
        List<MethodInfo> all = new ArrayList<>();
        READS.forEach(m -> all.add(m.info()));
        WRITES.forEach(m -> all.add(m.info()));
        RANDOM.forEach(m -> all.add(m.info()));
        for (MethodInfo info : all) {
            if (map.put(info.id(), info) != null) {
                throw new IllegalStateException("two catalogue methods share the id " + info.id());
            }
        }
        return Collections.unmodifiableMap(map);
    }

    /** @return the whole-file read methods (bytes and chars), in catalogue order */
    public static List<ReadMethod> reads() {
        return READS;
    }

    /** @return the whole-file write methods, in catalogue order */
    public static List<WriteMethod> writes() {
        return WRITES;
    }

    /** @return the random-access methods, in catalogue order */
    public static List<RandomAccessMethod> randomAccess() {
        return RANDOM;
    }

    /** @return every method's description, reads then writes then random access */
    public static List<MethodInfo> infos() {
        return List.copyOf(INFOS.values());
    }

    /**
     * @param id a method id
     * @return its description, if the catalogue has it
     */
    public static Optional<MethodInfo> find(String id) {
        return Optional.ofNullable(INFOS.get(id.toLowerCase(Locale.ROOT)));
    }

    /**
     * @param id a method id
     * @return the read method with that id
     * @throws IolabException listing the valid ids when there is none
     */
    public static ReadMethod read(String id) {
        return READS.stream().filter(m -> m.info().id().equalsIgnoreCase(id.strip())).findFirst()
                .orElseThrow(() -> unknown(id));
    }

    /**
     * @param id a method id
     * @return the write method with that id
     * @throws IolabException listing the valid ids when there is none
     */
    public static WriteMethod write(String id) {
        return WRITES.stream().filter(m -> m.info().id().equalsIgnoreCase(id.strip())).findFirst()
                .orElseThrow(() -> unknown(id));
    }

    /**
     * @param id a method id
     * @return the random-access method with that id
     * @throws IolabException listing the valid ids when there is none
     */
    public static RandomAccessMethod randomAccess(String id) {
        return RANDOM.stream().filter(m -> m.info().id().equalsIgnoreCase(id.strip())).findFirst()
                .orElseThrow(() -> unknown(id));
    }

    /**
     * @param id an id that is not in the catalogue
     * @return an exception naming it and listing the valid ids
     */
    public static IolabException unknown(String id) {
        return new IolabException("unknown method '" + id + "'; run './iolab methods' for the list: "
                + String.join(", ", INFOS.keySet()));
    }
}
