package org.iolab.bench.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.TreeMap;
import org.iolab.IolabException;
import org.iolab.storage.Durability;

/**
 * The baseline: Eric Bruno's MappedByteBuffer code path from "Java File IO Comparison" (2010), rewritten
 * from the article for byte-array keys and values, so the "10× Bruno" target is measured on this machine.
 *
 * <p>As in the article: one file ({@code employees.ejb}) opened with {@code RandomAccessFile}, mapped
 * whole with {@code FileChannel.map}; it starts at one 1 MiB page and, when a record would not fit, is
 * forced, grown by one page with {@code setLength} and re-mapped whole. A record is a 5-byte header
 * (active byte 1/0, int data length) and its data, written field by field with {@code mbb.put/putInt}; the
 * index is a {@code HashMap<String, Long>} key → offset, the free space a
 * {@code TreeMap<Integer, LinkedList<Long>>} size → offsets; a put reuses a free record of exactly its size,
 * or splits one at least 10 bytes larger (writing a header for the rest); delete writes the inactive byte
 * through the channel, as the article does; the scan is the article's front-to-back loop.
 *
 * <p>Data of a record here: {@code int keyLength, key, value} (the article wrote the employee's fields).
 * Changes needed to run the workload at all, none of which makes it faster: the free-space map drops empty
 * lists (the article's exact-fit path threw on them), a split's remainder is placed after the new record's
 * header (the article forgot the header), appends use the end of the data rather than the buffer's
 * position, a put of an existing key deletes the old record first, and a reopen rebuilds the index by the
 * same scan (the article had no reopen). Like the article it cannot pass 2 GiB and is not crash-safe.
 *
 * <p>Durability: NONE forces the mapping only when growing the file and at close; BATCH forces it every
 * 1 MiB or 2 ms; ALWAYS after every put and delete.
 */
public final class BrunoMbbEngine implements KvEngine {
    /** The article's page: the file grows by this much. */
    static final int PAGE_SIZE = 1024 * 1024;
    /** Active byte and int length. */
    static final int HEADER_SIZE = 5;

    private RandomAccessFile journal;
    private FileChannel channel;
    private MappedByteBuffer mbb;
    private final ByteBuffer header = ByteBuffer.allocateDirect(HEADER_SIZE);
    private HashMap<String, Long> employeeIdx;
    private TreeMap<Integer, LinkedList<Long>> emptyIdx;
    private int currentEnd;
    private int newEmptyRecordSize;
    private GroupCommit syncs;
    private Path dir;
    private Path file;

    /** Creates a closed engine. */
    public BrunoMbbEngine() {
    }

    @Override
    public String name() {
        return "bruno-mbb";
    }

    @Override
    public void open(Path dir, Durability durability, Sizing sizing) {
        this.dir = dir;
        this.file = dir.resolve("employees.ejb");
        syncs = GroupCommit.of(durability);
        employeeIdx = new HashMap<>();
        emptyIdx = new TreeMap<>();
        try {
            journal = new RandomAccessFile(file.toFile(), "rw");
            channel = journal.getChannel();
            if (journal.length() == 0) {
                journal.setLength(PAGE_SIZE);
            }
            if (journal.length() > Integer.MAX_VALUE) {
                throw new IolabException(file + ": " + journal.length() + " bytes; Bruno's format cannot pass 2 GiB");
            }
            mbb = channel.map(FileChannel.MapMode.READ_WRITE, 0, journal.length());
            rebuild();
        } catch (IOException e) {
            release();
            throw IolabException.io("open", file, e);
        } catch (RuntimeException e) {
            release();
            throw e;
        }
    }

    /** The article's read loop, used on open to find the records, the free ones and the end. */
    private void rebuild() {
        int pos = 0;
        int limit = mbb.capacity();
        while (pos + HEADER_SIZE <= limit) {
            byte active = mbb.get(pos);
            int size = mbb.getInt(pos + 1);
            if (active == 0 && size == 0) {
                break; // the zeroed rest of the last page
            }
            if (size < 0 || pos + HEADER_SIZE + (long) size > limit) {
                throw new IolabException(file + ": bad record length " + size + " at offset " + pos
                        + "; Bruno's format has no way to recover");
            }
            if (active == 1) {
                int keyLen = mbb.getInt(pos + HEADER_SIZE);
                byte[] key = new byte[keyLen];
                mbb.get(pos + HEADER_SIZE + 4, key);
                employeeIdx.put(new String(key, StandardCharsets.ISO_8859_1), (long) pos);
            } else {
                storeEmptyRecord(pos, size);
            }
            pos += HEADER_SIZE + size;
        }
        currentEnd = pos;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        String k = new String(key, StandardCharsets.ISO_8859_1);
        if (employeeIdx.containsKey(k)) {
            delete(key);
        }
        int datalen = 4 + key.length + value.length;
        int length = HEADER_SIZE + datalen;
        long offset = getStorageLocation(datalen);
        try {
            if (offset == -1) {
                long journalLen = channel.size();
                if (currentEnd + (long) length >= journalLen) {
                    mbb.force();
                    long grown = journalLen;
                    while (currentEnd + (long) length >= grown) {
                        grown += PAGE_SIZE;
                    }
                    if (grown > Integer.MAX_VALUE) {
                        throw new IolabException(file + ": would grow to " + grown
                                + " bytes; Bruno's format cannot pass 2 GiB");
                    }
                    journal.setLength(grown);
                    channel = journal.getChannel();
                    mbb = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
                }
                mbb.position(currentEnd);
                offset = currentEnd;
                currentEnd += length;
            } else {
                mbb.position((int) offset);
            }
        } catch (IOException e) {
            throw IolabException.io("grow", file, e);
        }
        mbb.put((byte) 1); // 1=active record
        mbb.putInt(datalen);
        mbb.putInt(key.length);
        mbb.put(key);
        mbb.put(value);
        if (newEmptyRecordSize != -1) {
            mbb.put((byte) 0);
            mbb.putInt(newEmptyRecordSize);
        }
        employeeIdx.put(k, offset);
        written(length);
    }

    private long getStorageLocation(int recordLength) {
        newEmptyRecordSize = -1;
        LinkedList<Long> records = emptyIdx.get(recordLength);
        if (records != null) {
            long offset = records.remove();
            if (records.isEmpty()) {
                emptyIdx.remove(recordLength);
            }
            return offset;
        }
        for (Integer size : emptyIdx.keySet()) {
            if (size >= recordLength + (HEADER_SIZE * 2)) {
                records = emptyIdx.get(size);
                long offset = records.remove();
                if (records.isEmpty()) {
                    emptyIdx.remove(size);
                }
                newEmptyRecordSize = (size - recordLength) - HEADER_SIZE;
                storeEmptyRecord(offset + HEADER_SIZE + recordLength, newEmptyRecordSize);
                return offset;
            }
        }
        return -1;
    }

    private void storeEmptyRecord(long offset, int length) {
        emptyIdx.computeIfAbsent(length, l -> new LinkedList<>()).add(offset);
    }

    @Override
    public byte[] get(byte[] key) {
        Long offset = employeeIdx.get(new String(key, StandardCharsets.ISO_8859_1));
        if (offset == null) {
            return null;
        }
        int pos = (int) (long) offset;
        int datalen = mbb.getInt(pos + 1);
        int keyLen = mbb.getInt(pos + HEADER_SIZE);
        byte[] value = new byte[datalen - 4 - keyLen];
        mbb.get(pos + HEADER_SIZE + 4 + keyLen, value);
        return value;
    }

    @Override
    public void delete(byte[] key) {
        String k = new String(key, StandardCharsets.ISO_8859_1);
        Long offset = employeeIdx.get(k);
        if (offset == null) {
            return;
        }
        try {
            channel.position(offset);
            header.clear();
            header.put((byte) 0); // 0=inactive record
            header.flip();
            channel.write(header);
            header.clear().limit(4);
            channel.read(header);
            header.flip();
            storeEmptyRecord(offset, header.getInt());
        } catch (IOException e) {
            throw IolabException.io("delete a record at offset " + offset + " of", file, e);
        }
        employeeIdx.remove(k);
        written(HEADER_SIZE);
    }

    @Override
    public long scan(Visitor visitor) {
        long n = 0;
        ByteBuffer view = mbb.duplicate();
        int pos = 0;
        while (pos < currentEnd) {
            boolean active = view.get(pos) == 1;
            int size = view.getInt(pos + 1);
            if (active) {
                n++;
                int keyLen = view.getInt(pos + HEADER_SIZE);
                int keyAt = pos + HEADER_SIZE + 4;
                int valueAt = keyAt + keyLen;
                if (!visitor.visit(view.slice(keyAt, keyLen), view.slice(valueAt, size - 4 - keyLen))) {
                    break;
                }
            }
            pos += HEADER_SIZE + size;
        }
        return n;
    }

    @Override
    public void sync() {
        mbb.force();
        syncs.done();
    }

    @Override
    public void close() {
        if (journal == null) {
            return;
        }
        try {
            sync();
        } finally {
            release();
        }
    }

    @Override
    public long sizeOnDisk() {
        return Folders.size(dir);
    }

    private void written(int bytes) {
        if (syncs.add(bytes)) {
            sync();
        }
    }

    private void release() {
        try {
            if (journal != null) {
                journal.close(); // the mapping stays until it is collected: Java cannot unmap it safely
            }
        } catch (IOException e) {
            throw IolabException.io("close", file, e);
        } finally {
            journal = null;
            channel = null;
            mbb = null;
            employeeIdx = null;
            emptyIdx = null;
        }
    }
}
