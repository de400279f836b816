package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Bruno's employee record (the article's test data): the last name is the key.
 *
 * @param last the key
 * @param first first name
 * @param id employee id
 * @param zip zip code
 * @param employed employed or not
 * @param comments free text
 */
record Employee(String last, String first, int id, int zip, boolean employed, String comments) {
    /**
     * The value codec, in the article's field order: first name, id, zip, employed, comments. The last name is the
     * key and is not repeated in the value: {@code decode} leaves it null ({@link #withLast} adds it).
     */
    static final Codec<Employee> VALUE = new Codec<>() {
        @Override
        public byte[] encode(Employee e) {
            byte[] first = e.first.getBytes(StandardCharsets.UTF_8);
            byte[] comments = e.comments.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(4 + first.length + 9 + 4 + comments.length);
            b.putInt(first.length).put(first).putInt(e.id).putInt(e.zip).put((byte) (e.employed ? 1 : 0))
                    .putInt(comments.length).put(comments);
            return b.array();
        }

        @Override
        public Employee decode(ByteBuffer b) {
            String first = string(b);
            need(b, 9);
            int id = b.getInt();
            int zip = b.getInt();
            boolean employed = b.get() != 0;
            return new Employee(null, first, id, zip, employed, string(b));
        }

        /** A short record gets a message, not a BufferUnderflowException from the fixed-width reads. */
        private static void need(ByteBuffer b, int n) {
            if (b.remaining() < n) {
                throw new IllegalArgumentException("employee record too short: " + n + " more bytes needed at"
                        + " position " + b.position() + ", " + b.remaining() + " left");
            }
        }

        private String string(ByteBuffer b) {
            need(b, 4);
            int n = b.getInt();
            if (n < 0 || n > b.remaining()) {
                throw new IllegalArgumentException("bad string length " + n + " in an employee record");
            }
            byte[] s = new byte[n];
            b.get(s);
            return new String(s, StandardCharsets.UTF_8);
        }
    };

    /**
     * @param key the last name (the record's key)
     * @return this employee with that last name
     */
    Employee withLast(String key) {
        return new Employee(key, first, id, zip, employed, comments);
    }

    /** @return Bruno's employee number {@code i}: "Doe" + i, John, 2000 + i, 11900 + i, even ones employed */
    static Employee of(int i) {
        return new Employee("Doe" + i, "John", 2000 + i, 11900 + i, i % 2 == 0, "This is employee number " + i);
    }
}
