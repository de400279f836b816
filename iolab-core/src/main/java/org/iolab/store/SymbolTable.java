package org.iolab.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.iolab.IolabException;

/**
 * A static symbol table compressor for short values, in the style of FSST (Boncz, Neumann, Leis: "FSST: Fast Random
 * Access String Compression", VLDB 2020). Each value is compressed on its own, so any record decodes without its
 * neighbours.
 *
 * <p>A compressed value is a sequence of code bytes: code {@code 0..symbols()-1} stands for that symbol (1 to 8
 * bytes); code {@link #ESCAPE} is followed by one literal byte. Nothing else is valid.
 *
 * <p>The serialized table ({@link #write}, {@link #read}), all integers little-endian:
 *
 * <pre>
 *  0  u32  magic "FST1"
 *  4  u16  symbol count c (1..255)
 *  6  u16  total symbol bytes t (the sum of the lengths)
 *  8  u8[c]  each symbol's length (1..8), in code order
 *  8+c  u8[t]  the symbols' bytes, in code order
 *  8+c+t  u32  CRC32C of bytes 0 .. 8+c+t
 * </pre>
 *
 * <p>Immutable after construction; {@link #encode}, {@link #decode} and {@link #decodedLength} keep no shared scratch
 * state, so any number of threads may use one table.
 */
final class SymbolTable {
    /** The most symbols a table holds (codes 0..254; 255 is {@link #ESCAPE}). */
    static final int MAX_SYMBOLS = 255;
    /** The code that is followed by one literal byte. */
    static final int ESCAPE = 255;
    /** The longest symbol, in bytes. */
    static final int MAX_SYMBOL_LENGTH = 8;
    /** Bytes before the lengths: magic, count, total symbol bytes. */
    private static final int FIXED_HEADER = 8;
    /** Bytes of the trailing CRC32C. */
    private static final int CRC_BYTES = 4;
    /** The most bytes write() writes. */
    static final int MAX_SERIALIZED = FIXED_HEADER + MAX_SYMBOLS * (1 + MAX_SYMBOL_LENGTH) + CRC_BYTES;
    /** The magic at the start of a serialized table: the bytes "FST1". */
    static final int MAGIC = 'F' | 'S' << 8 | 'T' << 16 | '1' << 24;
    /** The most sample bytes training looks at (values are picked evenly over the sample up to this). */
    static final int TRAIN_CAP = 128 << 10;
    /** Training rounds (each builds a table from the counts of compressing the sample with the previous one). */
    static final int ROUNDS = 5;

    /** Reads and writes 8 bytes of a {@code byte[]} at any index, little-endian. */
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    /** MASK[l]: the low l bytes of a long set (MASK[8] is all ones). */
    private static final long[] MASK = new long[MAX_SYMBOL_LENGTH + 1];

    static {
        for (int l = 1; l < MAX_SYMBOL_LENGTH; l++) {
            MASK[l] = (1L << (8 * l)) - 1;
        }
        MASK[MAX_SYMBOL_LENGTH] = -1L;
    }

    /** Symbol i's bytes, little-endian (byte k in bits 8k..8k+7), zero above its length. */
    private final long[] symbol;
    /** Symbol i's length, 1..8. */
    private final byte[] length;
    /** The candidates for first byte b are {@code byFirst[firstStart[b] .. firstStart[b + 1])}. */
    private final int[] firstStart;
    /** Codes grouped by first byte, the longest symbol first within a group (then the lower code). */
    private final byte[] byFirst;

    /**
     * Builds a table; the arrays are kept (callers pass fresh ones).
     *
     * @param symbol each symbol's bytes, little-endian, zero above its length
     * @param length each symbol's length, 1..8
     */
    private SymbolTable(long[] symbol, byte[] length) {
        this.symbol = symbol;
        this.length = length;
        int n = symbol.length;
        // codes sorted by (first byte, length descending, code): insertion sort, n <= 255
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            int j = i;
            while (j > 0 && before(i, order[j - 1])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
        this.byFirst = new byte[n];
        this.firstStart = new int[257];
        for (int i = 0; i < n; i++) {
            byFirst[i] = (byte) order[i];
            firstStart[((int) symbol[order[i]] & 0xFF) + 1]++;
        }
        for (int b = 0; b < 256; b++) {
            firstStart[b + 1] += firstStart[b];
        }
    }

    /** @return whether code a comes before code b among the match candidates (first byte, longer, lower code) */
    private boolean before(int a, int b) {
        int fa = (int) symbol[a] & 0xFF;
        int fb = (int) symbol[b] & 0xFF;
        if (fa != fb) {
            return fa < fb;
        }
        return length[a] != length[b] ? length[a] > length[b] : a < b;
    }

    /** @return the number of symbols */
    int symbols() {
        return symbol.length;
    }

    /**
     * @param n input bytes
     * @return the most bytes {@link #encode} can write for {@code n} input bytes (2 * n: every byte escaped)
     */
    static int maxEncoded(int n) {
        if (n < 0 || n > Integer.MAX_VALUE / 2) {
            throw new IolabException("cannot compress " + n + " bytes: the length must be 0.." + Integer.MAX_VALUE / 2);
        }
        return 2 * n;
    }

    /**
     * @param code a code 0..symbols()-1
     * @return that symbol's bytes (a copy)
     */
    byte[] symbol(int code) {
        byte[] b = new byte[length[code]];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (symbol[code] >>> (8 * k));
        }
        return b;
    }

    // ---------------------------------------------------------------------------------------------------- encode

    /**
     * The longest symbol that {@code w} starts with.
     *
     * @param w up to 8 input bytes, little-endian, zero above {@code r}
     * @param r how many input bytes are left (only the first min(r, 8) are in {@code w})
     * @return its code, or -1 when no symbol matches (escape the byte)
     */
    private int match(long w, int r) {
        int b = (int) w & 0xFF;
        for (int k = firstStart[b], to = firstStart[b + 1]; k < to; k++) {
            int c = byFirst[k] & 0xFF;
            int l = length[c];
            if (l <= r && ((w ^ symbol[c]) & MASK[l]) == 0) {
                return c;
            }
        }
        return -1;
    }

    /**
     * @return up to 8 bytes of {@code a} from {@code i}, little-endian, zero above {@code r} (the bytes left)
     */
    private static long load(byte[] a, int i, int r) {
        if (r >= 8) {
            return (long) LONG_LE.get(a, i);
        }
        long w = 0;
        for (int k = 0; k < r; k++) {
            w |= (a[i + k] & 0xFFL) << (8 * k);
        }
        return w;
    }

    /**
     * @return up to 8 bytes of {@code b} from absolute index {@code i}, little-endian whatever b's order, zero above
     *         {@code r} (the bytes left)
     */
    private static long load(ByteBuffer b, int i, int r) {
        if (r >= 8) {
            long w = b.getLong(i);
            return b.order() == ByteOrder.LITTLE_ENDIAN ? w : Long.reverseBytes(w);
        }
        long w = 0;
        for (int k = 0; k < r; k++) {
            w |= (b.get(i + k) & 0xFFL) << (8 * k);
        }
        return w;
    }

    /**
     * Compresses {@code src} (position to limit, not changed) into {@code dst} at index {@code dstAt}: at each
     * position the longest symbol, else an escaped byte. Absolute puts: dst's position and limit are not changed.
     *
     * @param src the value
     * @param dst where to write; must have {@link #maxEncoded maxEncoded(src.remaining())} bytes of room from
     *        {@code dstAt} up to its capacity, and not be read-only
     * @param dstAt where in dst to start
     * @return the bytes written
     * @throws IolabException when dst has too little room or is read-only
     */
    int encode(ByteBuffer src, ByteBuffer dst, int dstAt) {
        int pos = src.position();
        int end = src.limit();
        int need = maxEncoded(end - pos);
        if (dstAt < 0 || (long) dstAt + need > dst.capacity()) {
            throw new IolabException("cannot compress " + (end - pos) + " bytes into a buffer of capacity "
                    + dst.capacity() + " at index " + dstAt + ": it needs " + need + " bytes of room");
        }
        if (dst.isReadOnly()) {
            throw new IolabException("cannot compress into a read-only buffer");
        }
        byte[] in = src.hasArray() ? src.array() : null;
        int inOff = in == null ? 0 : src.arrayOffset();
        byte[] out = dst.hasArray() ? dst.array() : null;
        int o = out == null ? dstAt : dst.arrayOffset() + dstAt;
        int start = o;
        ByteBuffer put = out != null || dst.limit() == dst.capacity() ? dst : dst.duplicate().clear();
        for (int p = pos; p < end;) {
            int r = end - p;
            long w = in != null ? load(in, inOff + p, r) : load(src, p, r);
            int c = match(w, r);
            if (c >= 0) {
                if (out != null) {
                    out[o] = (byte) c;
                } else {
                    put.put(o, (byte) c);
                }
                o++;
                p += length[c];
            } else {
                if (out != null) {
                    out[o] = (byte) ESCAPE;
                    out[o + 1] = (byte) w;
                } else {
                    put.put(o, (byte) ESCAPE);
                    put.put(o + 1, (byte) w);
                }
                o += 2;
                p++;
            }
        }
        return o - start;
    }

    // ---------------------------------------------------------------------------------------------------- decode

    /**
     * @param src compressed bytes
     * @param at where they start (absolute index)
     * @param n how many code bytes
     * @return the decoded length of the {@code n} code bytes of src at absolute index {@code at}, or -1 when they are
     *         malformed (an ESCAPE as the last byte, a code >= symbols() that is not ESCAPE) or out of src's limit.
     *         Never throws.
     */
    int decodedLength(ByteBuffer src, int at, int n) {
        if (src == null || at < 0 || n < 0 || (long) at + n > src.limit()) {
            return -1;
        }
        int count = symbol.length;
        long total = 0;
        int i = at;
        int end = at + n;
        while (i < end) {
            int c = src.get(i++) & 0xFF;
            if (c < count) {
                total += length[c];
            } else if (c == ESCAPE && i < end) {
                total++;
                i++;
            } else {
                return -1;
            }
        }
        return total > Integer.MAX_VALUE ? -1 : (int) total;
    }

    /**
     * Decodes the {@code n} code bytes of src at absolute index {@code at} into dst from {@code dstAt}. Writes only
     * {@code dst[dstAt .. dstAt + result)}.
     *
     * @param src compressed bytes (not changed)
     * @param at where they start (absolute index)
     * @param n how many code bytes
     * @param dst where to write
     * @param dstAt where in dst to start
     * @return the bytes written
     * @throws IolabException when the codes are malformed, out of src's limit, or dst has too little room (the
     *         caller is expected to have checked {@link #decodedLength} and the room)
     */
    int decode(ByteBuffer src, int at, int n, byte[] dst, int dstAt) {
        if (at < 0 || n < 0 || (long) at + n > src.limit() || dstAt < 0 || dstAt > dst.length) {
            throw new IolabException("cannot decode " + n + " code bytes at index " + at + " of a buffer of limit "
                    + src.limit() + " into " + dst.length + " bytes at " + dstAt);
        }
        final long[] sym = symbol;
        final byte[] len = length;
        final int count = sym.length;
        final int dlen = dst.length;
        final int end = at + n;
        int i = at;
        int d = dstAt;
        while (i < end) {
            int c = src.get(i++) & 0xFF;
            if (c < count) {
                long s = sym[c];
                int l = len[c];
                // an 8-byte store is safe when it stays inside dst and inside this value's output: the codes left
                // decode to at least ceil(left / 2) bytes, which the store's extra bytes then land on
                if (d + 8 <= dlen && l + ((end - i + 1) >> 1) >= 8) {
                    LONG_LE.set(dst, d, s);
                } else {
                    if (d + l > dlen) {
                        throw noRoom(dst, dstAt);
                    }
                    for (int k = 0; k < l; k++) {
                        dst[d + k] = (byte) (s >>> (k << 3));
                    }
                }
                d += l;
            } else if (c == ESCAPE && i < end) {
                if (d >= dlen) {
                    throw noRoom(dst, dstAt);
                }
                dst[d++] = src.get(i++);
            } else {
                throw malformed(c);
            }
        }
        return d - dstAt;
    }

    /**
     * @param n code bytes
     * @return the room {@link #decodeLoose} needs in its destination for them
     */
    static long looseRoom(int n) {
        return 8L * n + 8;
    }

    /**
     * Decodes like {@link #decode} into {@code dst} from index 0, faster: every symbol is stored as 8 bytes, so up to 7
     * bytes past the value's end are overwritten. {@code dst} must hold {@link #looseRoom looseRoom(n)} bytes.
     *
     * @return the decoded length, or -1 when the codes are malformed or out of src's limit (never throws for them)
     * @throws IolabException when dst is shorter than {@link #looseRoom}
     */
    int decodeLoose(ByteBuffer src, int at, int n, byte[] dst) {
        if (dst.length < looseRoom(n)) {
            throw new IolabException("cannot decode " + n + " code bytes loosely into " + dst.length + " bytes: need "
                    + looseRoom(n));
        }
        if (at < 0 || n < 0 || (long) at + n > src.limit()) {
            return -1;
        }
        final long[] sym = symbol;
        final byte[] len = length;
        final int count = sym.length;
        int d = 0;
        int i = at;
        final int end = at + n;
        while (i < end) {
            int c = src.get(i++) & 0xFF;
            if (c < count) {
                LONG_LE.set(dst, d, sym[c]);
                d += len[c];
            } else if (c == ESCAPE && i < end) {
                dst[d++] = src.get(i++);
            } else {
                return -1;
            }
        }
        return d;
    }

    /** @return the exception for a destination too small for the decoded value */
    private static IolabException noRoom(byte[] dst, int dstAt) {
        return new IolabException("cannot decode into " + dst.length + " bytes at index " + dstAt
                + ": the decoded value is longer; check decodedLength first");
    }

    /** @return the exception for a code that is not a symbol, or an ESCAPE without its byte */
    private IolabException malformed(int code) {
        return new IolabException("malformed compressed value: code " + code + " with " + symbol.length
                + " symbols" + (code == ESCAPE ? " (an escape without its byte)" : "") + "; check decodedLength first");
    }

    // ---------------------------------------------------------------------------------------------------- serialize

    /** @return the bytes {@link #write} writes for this table */
    int serializedSize() {
        int total = 0;
        for (byte l : length) {
            total += l;
        }
        return FIXED_HEADER + length.length + total + CRC_BYTES;
    }

    /**
     * Writes the table at absolute index {@code at} of page (see the class comment for the layout); the page's
     * position, limit and order are not changed.
     *
     * @param page where to write; needs {@link #serializedSize} bytes from {@code at} up to its limit
     * @param at where to start
     * @return the bytes written
     * @throws IolabException when the page has too little room or is read-only
     */
    int write(ByteBuffer page, int at) {
        int size = serializedSize();
        if (at < 0 || (long) at + size > page.limit() || page.isReadOnly()) {
            throw new IolabException("cannot write a symbol table of " + size + " bytes at index " + at
                    + " of a " + (page.isReadOnly() ? "read-only " : "") + "buffer of limit " + page.limit());
        }
        byte[] b = new byte[size];
        int n = symbol.length;
        putIntLE(b, 0, MAGIC);
        b[4] = (byte) n;
        b[5] = (byte) (n >>> 8);
        int total = size - FIXED_HEADER - n - CRC_BYTES;
        b[6] = (byte) total;
        b[7] = (byte) (total >>> 8);
        int p = FIXED_HEADER + n;
        for (int i = 0; i < n; i++) {
            b[FIXED_HEADER + i] = length[i];
            for (int k = 0; k < length[i]; k++) {
                b[p++] = (byte) (symbol[i] >>> (8 * k));
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(b, 0, p);
        putIntLE(b, p, (int) crc.getValue());
        page.put(at, b);
        return size;
    }

    /**
     * Reads a table that {@link #write} wrote. Never throws for garbage and never allocates more than about
     * {@link #MAX_SERIALIZED} bytes.
     *
     * @param page the page (position, limit and order not used or changed; bytes up to its limit are read)
     * @param at where the table starts
     * @return the table, or null when there is no valid table there (bad magic, count, lengths, CRC, or it runs
     *         past the limit)
     */
    static SymbolTable read(ByteBuffer page, int at) {
        if (page == null || at < 0 || (long) at + FIXED_HEADER > page.limit()) {
            return null;
        }
        int magic = (page.get(at) & 0xFF) | (page.get(at + 1) & 0xFF) << 8 | (page.get(at + 2) & 0xFF) << 16
                | (page.get(at + 3) & 0xFF) << 24;
        int n = (page.get(at + 4) & 0xFF) | (page.get(at + 5) & 0xFF) << 8;
        int total = (page.get(at + 6) & 0xFF) | (page.get(at + 7) & 0xFF) << 8;
        if (magic != MAGIC || n < 1 || n > MAX_SYMBOLS || total < n || total > n * MAX_SYMBOL_LENGTH) {
            return null;
        }
        int size = FIXED_HEADER + n + total + CRC_BYTES;
        if ((long) at + size > page.limit()) {
            return null;
        }
        byte[] b = new byte[size];
        page.get(at, b);
        int sum = 0;
        for (int i = 0; i < n; i++) {
            int l = b[FIXED_HEADER + i];
            if (l < 1 || l > MAX_SYMBOL_LENGTH) {
                return null;
            }
            sum += l;
        }
        if (sum != total) {
            return null;
        }
        int crcAt = size - CRC_BYTES;
        CRC32C crc = new CRC32C();
        crc.update(b, 0, crcAt);
        if ((int) crc.getValue() != intLE(b, crcAt)) {
            return null;
        }
        long[] sym = new long[n];
        byte[] len = new byte[n];
        int p = FIXED_HEADER + n;
        for (int i = 0; i < n; i++) {
            len[i] = b[FIXED_HEADER + i];
            long s = 0;
            for (int k = 0; k < len[i]; k++) {
                s |= (b[p++] & 0xFFL) << (8 * k);
            }
            sym[i] = s;
        }
        return new SymbolTable(sym, len);
    }

    /** @return the little-endian int at {@code i} of {@code b} */
    private static int intLE(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
    }

    /** Puts {@code v} little-endian at {@code i} of {@code b}. */
    private static void putIntLE(byte[] b, int i, int v) {
        b[i] = (byte) v;
        b[i + 1] = (byte) (v >>> 8);
        b[i + 2] = (byte) (v >>> 16);
        b[i + 3] = (byte) (v >>> 24);
    }

    // ---------------------------------------------------------------------------------------------------- train

    /**
     * Trains a table on sample values (FSST's idea, simplified): start with no symbols; in {@link #ROUNDS} rounds,
     * compress the sample with the current table counting each symbol and literal byte used and each pair of
     * consecutive codes, then keep the {@link #MAX_SYMBOLS} candidates (used symbols, literal bytes, concatenations
     * of pairs up to 8 bytes) with the highest gain (count * length) as the next table. The table that compresses
     * the sample best wins. At most {@link #TRAIN_CAP} bytes are looked at, from values picked evenly over the
     * sample. Deterministic: the same sample gives the same table.
     *
     * @param sample values, each from its position to its limit (not changed; heap or direct)
     * @return the table, or null when the sample is empty or no table would make it shorter
     */
    static SymbolTable train(List<ByteBuffer> sample) {
        Objects.requireNonNull(sample, "sample");
        long all = 0;
        for (ByteBuffer b : sample) {
            all += b.remaining();
        }
        if (all == 0) {
            return null;
        }
        // each value is kept with probability about TRAIN_CAP / all, by a fixed hash of its index: evenly spread,
        // deterministic, and not in step with any period in the sample (a plain stride could be)
        long keep = all <= TRAIN_CAP ? 1L << 32 : (((long) TRAIN_CAP << 32) / all) * 5 / 4;
        byte[] data = new byte[(int) Math.min(all, TRAIN_CAP)];
        int[] ends = new int[Math.min(sample.size(), data.length) + 1];
        int values = 0;
        int used = 0;
        for (int v = 0; v < sample.size() && used < data.length; v++) {
            long h = (v + 1) * 0x9E3779B97F4A7C15L;
            h = (h ^ (h >>> 31)) * 0xBF58476D1CE4E5B9L;
            if (((h ^ (h >>> 29)) >>> 32) >= keep) {
                continue;
            }
            ByteBuffer b = sample.get(v);
            int len = Math.min(b.remaining(), data.length - used);
            if (len == 0) {
                continue;
            }
            b.get(b.position(), data, used, len);
            used += len;
            if (values == ends.length) {
                ends = Arrays.copyOf(ends, ends.length * 2);
            }
            ends[values++] = used;
        }
        if (used == 0) {
            return null;
        }
        int[] count1 = new int[512];
        int[] count2 = new int[512 * 512];
        SymbolTable current = new SymbolTable(new long[0], new byte[0]);
        SymbolTable best = null;
        long bestSize = used; // a table must beat the raw bytes
        for (int round = 0; round <= ROUNDS; round++) {
            Arrays.fill(count1, 0);
            Arrays.fill(count2, 0);
            long size = current.count(data, ends, values, round < ROUNDS ? count1 : null, count2);
            if (current.symbols() > 0 && size < bestSize) {
                best = current;
                bestSize = size;
            }
            if (round == ROUNDS) {
                break;
            }
            current = current.next(count1, count2, round == ROUNDS - 1);
            if (current == null) {
                break;
            }
        }
        return best;
    }

    /**
     * Compresses the training data with this table, counting codes (id i &lt; 256: symbol i; 256 + b: literal b).
     *
     * @param count1 how often each code id is used (null: only measure)
     * @param count2 how often each pair of consecutive ids (prev * 512 + next) occurs within a value
     * @return the size of the data as a store keeps it: each value compressed, or plain when that is not shorter
     */
    private long count(byte[] data, int[] ends, int values, int[] count1, int[] count2) {
        long size = 0;
        int start = 0;
        for (int v = 0; v < values; v++) {
            int end = ends[v];
            int prev = -1;
            long packed = 0;
            for (int p = start; p < end;) {
                int r = end - p;
                long w = load(data, p, r);
                int c = match(w, r);
                int id;
                if (c >= 0) {
                    id = c;
                    p += length[c];
                    packed++;
                } else {
                    id = 256 + ((int) w & 0xFF);
                    p++;
                    packed += 2;
                }
                if (count1 != null) {
                    count1[id]++;
                    if (id < 256 && length[id] > 1) {
                        count1[256 + ((int) w & 0xFF)]++; // keep the single bytes' frequencies known (as FSST does)
                    }
                    if (prev >= 0) {
                        count2[prev * 512 + id]++;
                    }
                }
                prev = id;
            }
            size += Math.min(packed, end - start);
            start = end;
        }
        return size;
    }

    /** @return the bytes of code id (symbol or 256 + literal) */
    private long idBytes(int id) {
        return id < 256 ? symbol[id] : id - 256;
    }

    /** @return the length of code id (symbol or 256 + literal) */
    private int idLength(int id) {
        return id < 256 ? length[id] : 1;
    }

    /**
     * @param last whether this is the final table (single bytes are no longer favoured)
     * @return the next table from the counts of compressing with this one, or null when there are no candidates
     */
    private SymbolTable next(int[] count1, int[] count2, boolean last) {
        int[] ids = new int[512];
        int nIds = 0;
        for (int id = 0; id < 512; id++) {
            if (count1[id] > 0) {
                ids[nIds++] = id;
            }
        }
        int pairs = 0;
        for (int x = 0; x < nIds; x++) {
            for (int y = 0; y < nIds; y++) {
                if (count2[ids[x] * 512 + ids[y]] != 0) {
                    pairs++;
                }
            }
        }
        if (nIds == 0) {
            return null;
        }
        Candidates c = new Candidates(nIds + pairs);
        for (int x = 0; x < nIds; x++) {
            int id = ids[x];
            int l = idLength(id);
            // single bytes are the building blocks of longer symbols: favour them until the last round
            c.add(idBytes(id), l, (long) count1[id] * l * (l == 1 && !last ? 8 : 1));
        }
        for (int x = 0; x < nIds; x++) {
            int a = ids[x];
            int la = idLength(a);
            if (la == MAX_SYMBOL_LENGTH) {
                continue;
            }
            long ba = idBytes(a);
            for (int y = 0; y < nIds; y++) {
                int b = ids[y];
                int cnt = count2[a * 512 + b];
                if (cnt != 0) {
                    int l = Math.min(MAX_SYMBOL_LENGTH, la + idLength(b));
                    c.add((ba | idBytes(b) << (8 * la)) & MASK[l], l, (long) cnt * l);
                }
            }
        }
        return c.best();
    }

    /**
     * Candidate symbols while training, with their summed gains: an open-addressing hash table over (bytes,
     * length). Iteration and ties are deterministic (fixed hash, fixed insertion order).
     */
    private static final class Candidates {
        /** Each slot's symbol bytes. */
        private final long[] bytes;
        /** Each slot's symbol length (0: empty slot). */
        private final byte[] length;
        /** Each slot's summed gain. */
        private final long[] gain;
        /** Slots - 1 (a power of two minus one). */
        private final int mask;
        /** Used slots. */
        private int size;

        /** @param most the most distinct candidates that will be added */
        Candidates(int most) {
            int cap = Integer.highestOneBit(Math.max(16, most) * 2 - 1) << 1;
            bytes = new long[cap];
            length = new byte[cap];
            gain = new long[cap];
            mask = cap - 1;
        }

        /** Adds {@code g} to the gain of the symbol ({@code b}, {@code l}). */
        void add(long b, int l, long g) {
            long h = (b ^ l) * 0x9E3779B97F4A7C15L;
            int i = (int) (h ^ (h >>> 29)) & mask;
            while (length[i] != 0 && (length[i] != l || bytes[i] != b)) {
                i = (i + 1) & mask;
            }
            if (length[i] == 0) {
                length[i] = (byte) l;
                bytes[i] = b;
                size++;
            }
            gain[i] += g;
        }

        /**
         * @return a table of the {@link #MAX_SYMBOLS} candidates with the highest gain (ties: longer first, then by
         *         slot), in canonical code order (longest first, then by bytes)
         */
        SymbolTable best() {
            long[] ranked = new long[size];
            int k = 0;
            for (int i = 0; i <= mask; i++) {
                if (length[i] != 0) {
                    // gain < 2^35 (counts < 2^19 times at most 8 * 8 * a few merges), length 4 bits, slot < 2^24
                    ranked[k++] = gain[i] << 28 | (long) length[i] << 24 | (mask - i);
                }
            }
            Arrays.sort(ranked);
            int n = Math.min(MAX_SYMBOLS, size);
            long[] sym = new long[n];
            byte[] len = new byte[n];
            for (int j = 0; j < n; j++) {
                int slot = mask - (int) (ranked[size - 1 - j] & 0xFF_FFFF);
                // insertion into canonical order: longer first, then by bytes (lexicographic)
                int at = j;
                while (at > 0 && (len[at - 1] < length[slot] || len[at - 1] == length[slot]
                        && Long.compareUnsigned(Long.reverseBytes(sym[at - 1]), Long.reverseBytes(bytes[slot])) > 0)) {
                    sym[at] = sym[at - 1];
                    len[at] = len[at - 1];
                    at--;
                }
                sym[at] = bytes[slot];
                len[at] = length[slot];
            }
            return new SymbolTable(sym, len);
        }
    }
}
