package org.iolab.bench.store;

/**
 * Bruno's employee record ("Java File IO Comparison", 2010): the last name is the key.
 *
 * @param last the last name, the key
 * @param first the first name
 * @param id the employee number
 * @param zip the zip code
 * @param employed whether employed
 * @param comments free text
 */
public record Employee(String last, String first, int id, int zip, boolean employed, String comments) {
    /**
     * The article's {@code i}-th employee: last {@code "Doe" + i}, first {@code "John"}, id {@code 2000 + i},
     * zip {@code 11900 + i}, employed when {@code i} is even, comments {@code "This is employee number " + i}.
     *
     * @param i the employee's number, at least 0
     * @return the employee
     */
    public static Employee number(int i) {
        return new Employee("Doe" + i, "John", 2000 + i, 11900 + i, i % 2 == 0, "This is employee number " + i);
    }

    /**
     * @return whether this record is exactly {@link #number(int) number(id - 2000)}, i.e. every field agrees
     *     with the formula (a store that returns another record's bytes or garbage fails this)
     */
    public boolean isConsistent() {
        int i = id - 2000;
        return i >= 0 && last.equals("Doe" + i) && first.equals("John") && zip == 11900 + i
                && employed == (i % 2 == 0) && comments.equals("This is employee number " + i);
    }
}
