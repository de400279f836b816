package org.iolab.catalogue.write;

import java.util.List;
import org.iolab.catalogue.WriteMethod;

/** The whole-file write methods, in the order the catalogue lists them. */
public final class WriteMethods {
    private WriteMethods() {
    }

    /** @return one instance of every write method */
    public static List<WriteMethod> all() {
        return List.of(
                new RandomAccessFileWrite(),
                new BufferedOutputStreamByteWrite(),
                new ChannelHeapWrite(),
                new ChannelDirectWrite(),
                new MappedWrite(),
                new SegmentMappedWrite(),
                new DirectIoWrite(),
                new FileOutputStreamArrayWrite());
    }
}
