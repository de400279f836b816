package org.iolab.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import org.iolab.IolabException;

/**
 * A typed view of a {@link Store}: keys and values go through a {@link Codec} each. Closing it closes the store.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class TypedStore<K, V> implements AutoCloseable {
    private final Store store;
    private final Codec<K> keys;
    private final Codec<V> values;

    /**
     * @param store the store
     * @param keys the key codec
     * @param values the value codec
     */
    public TypedStore(Store store, Codec<K> keys, Codec<V> values) {
        if (store == null || keys == null || values == null) {
            throw new IolabException("a typed store needs a store, a key codec and a value codec; "
                    + (store == null ? "the store" : keys == null ? "the key codec" : "the value codec") + " is null");
        }
        this.store = store;
        this.keys = keys;
        this.values = values;
    }

    /** @return a codec of strings as UTF-8 bytes */
    public static Codec<String> utf8() {
        return new Codec<>() {
            @Override
            public byte[] encode(String value) {
                return value.getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public String decode(ByteBuffer bytes) {
                return StandardCharsets.UTF_8.decode(bytes).toString();
            }
        };
    }

    /**
     * @param key the key
     * @param value the value
     * @return the operation's sequence
     */
    public long put(K key, V value) {
        return store.put(keys.encode(key), values.encode(value));
    }

    /**
     * @param key the key
     * @return the decoded value, or null when absent
     */
    public V get(K key) {
        Object[] out = new Object[1];
        byte[] k = keys.encode(key);
        // a null from the codec reaches the store's own check ("null key"), as in put
        store.get(k == null ? null : ByteBuffer.wrap(k), v -> out[0] = values.decode(v));
        @SuppressWarnings("unchecked")
        V v = (V) out[0];
        return v;
    }

    /**
     * @param key the key
     * @return the operation's sequence, or -1 when the key was absent
     */
    public long delete(K key) {
        return store.delete(keys.encode(key));
    }

    /**
     * @param key the key
     * @return whether the store holds it
     */
    public boolean contains(K key) {
        return store.contains(keys.encode(key));
    }

    /**
     * @param visitor receives every live record, decoded
     * @return the number of records
     */
    public long scan(BiConsumer<K, V> visitor) {
        return store.scan((k, v) -> visitor.accept(keys.decode(k), values.decode(v)));
    }

    /** @return the underlying store */
    public Store store() {
        return store;
    }

    /** Closes the store. */
    @Override
    public void close() {
        store.close();
    }
}
