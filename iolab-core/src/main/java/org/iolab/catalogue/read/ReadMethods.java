package org.iolab.catalogue.read;

import java.util.List;
import org.iolab.catalogue.ReadMethod;

/** The whole-file read methods, in the order the catalogue lists them. */
public final class ReadMethods {
    private ReadMethods() {
    }

    /** @return one instance of every read method */
    public static List<ReadMethod> all() {
        return List.of(
                new FileInputStreamArray());
    }
}
