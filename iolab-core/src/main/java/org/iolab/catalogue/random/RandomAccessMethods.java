package org.iolab.catalogue.random;

import java.util.List;
import org.iolab.catalogue.RandomAccessMethod;

/** The random-access methods, in the order the catalogue lists them. */
public final class RandomAccessMethods {
    private RandomAccessMethods() {
    }

    /** @return one instance of every random-access method */
    public static List<RandomAccessMethod> all() {
        return List.of(
                new RandomAccessFileSeek(),
                new BufferedInputStreamSkip(),
                new FileInputStreamSkip(),
                new ChannelPositionalRandom(),
                new MappedRandom(),
                new SegmentRandom());
    }
}
