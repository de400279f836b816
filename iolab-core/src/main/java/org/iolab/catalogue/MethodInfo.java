package org.iolab.catalogue;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a user needs to recognise a catalogue method.
 *
 * @param id stable identifier used on the command line and in results, e.g. {@code fis-array}
 * @param kind read, char read, write or random access
 * @param title the technique in Java terms, e.g. {@code FileInputStream.read(byte[])}
 * @param description one line on what the method does per pass
 * @param article where the method comes from
 * @param usesBuffer whether the buffer-size parameter changes what the method does (false for, e.g.,
 *     {@code FileInputStream.read()} one byte at a time); methods that ignore it run at one buffer size only
 */
public record MethodInfo(String id, Kind kind, String title, String description, Article article,
                         boolean usesBuffer) {
    private static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    /** Checks the fields. */
    public MethodInfo {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(article, "article");
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("method id must be lower-case words joined by '-': " + id);
        }
    }
}
