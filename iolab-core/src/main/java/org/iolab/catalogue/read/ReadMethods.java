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
                new FileInputStreamByte(),
                new FileInputStreamArray(),
                new BufferedInputStreamByte(),
                new BufferedInputStreamArray(),
                new RandomAccessFileByte(),
                new RandomAccessFileArray(),
                new ChannelHeapByte(),
                new ChannelHeapArray(),
                new ChannelWrapped(),
                new ChannelDirectByte(),
                new ChannelDirectArray(),
                new MappedByte(),
                new MappedArray(),
                new FileReaderArray(),
                new FileReaderChar(),
                new BufferedReaderArray(),
                new SegmentMapped(),
                new ChannelPositional(),
                new TransferTo(),
                new ODirect(),
                new FilesNewInputStream());
    }
}
