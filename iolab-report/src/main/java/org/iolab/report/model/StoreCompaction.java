package org.iolab.report.model;

/**
 * iolab's store size on Bruno's employee workload before and after a compaction, plain and with compression
 * ({@code org.iolab.bench.store.CompactedSize}, run by the store workload): the record store's size targets.
 *
 * @param records employees put first
 * @param liveBytes key and value bytes live after the workload
 * @param before the store's folder after the workload, closed (bytes)
 * @param after the folder after a plain compaction, closed (bytes)
 * @param compressed the folder after a compaction with compression, closed (bytes)
 * @param symbols the symbols of that compaction's table (0: the values did not compress)
 */
public record StoreCompaction(int records, long liveBytes, long before, long after, long compressed, int symbols) {
    /** @return what is wrong with these figures (a file from elsewhere, edited by hand), or null */
    public String invalid() {
        if (records <= 0 || liveBytes <= 0) {
            return "records and liveBytes above 0";
        }
        if (before < liveBytes || after <= 0 || compressed <= 0 || symbols < 0) {
            return "sizes that hold the live data";
        }
        return null;
    }
}
