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
    /** The value codec: first name, id, zip, employed, comments (the last name is the key). */
    static final Codec<Employee> VALUE = new Codec<>() {
        @Override
        public byte[] encode(Employee e) {
            byte[] first = e.first.getBytes(StandardCharsets.UTF_8);
            byte[] comments = e.comments.getBytes(StandardCharsets.UTF_8);
            byte[] last = e.last.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(4 + last.length + 4 + first.length + 9 + 4 + comments.length);
            b.putInt(last.length).put(last).putInt(first.length).put(first).putInt(e.id).putInt(e.zip)
                    .put((byte) (e.employed ? 1 : 0)).putInt(comments.length).put(comments);
            return b.array();
        }

        @Override
        public Employee decode(ByteBuffer b) {
            String last = string(b);
            String first = string(b);
            int id = b.getInt();
            int zip = b.getInt();
            boolean employed = b.get() != 0;
            return new Employee(last, first, id, zip, employed, string(b));
        }

        private String string(ByteBuffer b) {
            byte[] s = new byte[b.getInt()];
            b.get(s);
            return new String(s, StandardCharsets.UTF_8);
        }
    };

    /** @return Bruno's employee number {@code i}: "Doe" + i, John, 2000 + i, 11900 + i, even ones employed */
    static Employee of(int i) {
        return new Employee("Doe" + i, "John", 2000 + i, 11900 + i, i % 2 == 0, "This is employee number " + i);
    }
}
