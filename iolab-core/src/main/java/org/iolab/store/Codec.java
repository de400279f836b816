package org.iolab.store;

import java.nio.ByteBuffer;

/**
 * Turns values of type {@code T} into bytes and back, for {@link TypedStore}.
 *
 * @param <T> the type
 */
public interface Codec<T> {
    /**
     * @param value the value (not null)
     * @return its bytes
     */
    byte[] encode(T value);

    /**
     * @param bytes the bytes {@link #encode} produced, from their position to their limit (a view valid only
     *        during the call)
     * @return the value
     */
    T decode(ByteBuffer bytes);
}
