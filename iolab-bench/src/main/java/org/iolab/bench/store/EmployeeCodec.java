package org.iolab.bench.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.iolab.IolabException;

/**
 * The one compact binary encoding every engine stores, so all of them move the same bytes.
 *
 * <p>Key: the last name in UTF-8. Value, little-endian:
 * <pre>
 *   0  int32   id
 *   4  int32   zip
 *   8  uint8   employed (0 or 1)
 *   9  uint8   n = length of first (UTF-8 bytes, at most 255)
 *  10  n bytes first
 *      uint16  m = length of comments (UTF-8 bytes, at most 65535)
 *      m bytes comments
 * </pre>
 * Bruno's employee 0 takes 4 key bytes and 41 value bytes.
 */
public final class EmployeeCodec {
    private EmployeeCodec() {
    }

    /**
     * @param e the employee
     * @return its key: the last name in UTF-8
     */
    public static byte[] key(Employee e) {
        return e.last().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param e the employee
     * @return its value (every field but the last name)
     * @throws IolabException when the first name or the comments are too long for the format
     */
    public static byte[] value(Employee e) {
        byte[] first = e.first().getBytes(StandardCharsets.UTF_8);
        byte[] comments = e.comments().getBytes(StandardCharsets.UTF_8);
        if (first.length > 0xFF || comments.length > 0xFFFF) {
            throw new IolabException("employee " + e.last() + ": first name (" + first.length
                    + " bytes, max 255) or comments (" + comments.length + " bytes, max 65535) too long");
        }
        ByteBuffer b = ByteBuffer.allocate(12 + first.length + comments.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(e.id()).putInt(e.zip()).put((byte) (e.employed() ? 1 : 0)).put((byte) first.length).put(first)
                .putShort((short) comments.length).put(comments);
        return b.array();
    }

    /**
     * Decodes one record; neither buffer's position changes.
     *
     * @param key the key bytes, position to limit
     * @param value the value bytes, position to limit
     * @return the employee
     * @throws IolabException when the value is too short for its own lengths or has bytes left over
     */
    public static Employee decode(ByteBuffer key, ByteBuffer value) {
        ByteBuffer v = value.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int start = v.position();
        try {
            int id = v.getInt();
            int zip = v.getInt();
            boolean employed = v.get() != 0;
            String first = string(v, v.get() & 0xFF);
            String comments = string(v, v.getShort() & 0xFFFF);
            if (v.hasRemaining()) {
                throw new IolabException("bad employee value: " + v.remaining() + " bytes left over after "
                        + (v.position() - start) + " bytes");
            }
            return new Employee(string(key.duplicate(), key.remaining()), first, id, zip, employed, comments);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IolabException("bad employee value: " + (value.remaining())
                    + " bytes is shorter than its own lengths say", e);
        }
    }

    /**
     * @param key the key bytes
     * @param value the value bytes
     * @return the employee
     */
    public static Employee decode(byte[] key, byte[] value) {
        return decode(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
    }

    private static String string(ByteBuffer b, int length) {
        if (length > b.remaining()) {
            throw new java.nio.BufferUnderflowException();
        }
        if (b.hasArray()) {
            int at = b.position();
            b.position(at + length);
            return new String(b.array(), b.arrayOffset() + at, length, StandardCharsets.UTF_8);
        }
        byte[] bytes = new byte[length];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
