package org.iolab.storage;

/**
 * How far an acknowledged write has travelled when iolab's journal or store says it is done.
 *
 * <table>
 *   <caption>What survives</caption>
 *   <tr><th>level</th><th>process crash (kill -9)</th><th>OS crash / kernel panic</th><th>power loss</th></tr>
 *   <tr><td>{@link #NONE}</td><td>yes: the data is in the page cache</td><td>no guarantee</td><td>no guarantee</td></tr>
 *   <tr><td>{@link #BATCH}</td><td>yes</td><td>everything acknowledged as durable (synced by a group commit)</td>
 *       <td>the same, if the device honours flushes</td></tr>
 *   <tr><td>{@link #ALWAYS}</td><td>yes</td><td>every acknowledged write</td>
 *       <td>every acknowledged write, if the device honours flushes</td></tr>
 * </table>
 * At every level, what a crash leaves is checked when the file is opened again: a record is either there whole or
 * not at all, never read with wrong bytes, and what was synced (a {@code sync()}, a close, a checkpoint) stays; with
 * {@link #NONE} the writes since the last sync may be lost, in any mix.
 * <p>A sync that fails with an I/O error fails the journal or store; writes it did not cover were never
 * acknowledged, and the next open of a journal (a store's redo log included) drops them even in the same boot,
 * where the page cache still shows them: Linux marks pages whose write-back failed clean, so they would read back
 * without being on the device (see {@code Journal}'s javadoc).
 */
public enum Durability {
    /** Written to the page cache only; synced when the file is closed or {@code sync()} is called. */
    NONE,
    /**
     * Group commit: a sync runs when a time or byte threshold is reached; writers learn when their data is
     * durable (their sequence is at or below the durable sequence).
     */
    BATCH,
    /** Every write is synced before it is acknowledged. */
    ALWAYS;

    /**
     * @param text {@code none}, {@code batch} or {@code always}
     * @return the level
     */
    public static Durability parse(String text) {
        if (text == null) {
            throw new org.iolab.IolabException("null durability: give none, batch or always");
        }
        return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> NONE;
            case "batch" -> BATCH;
            case "always" -> ALWAYS;
            default -> throw new org.iolab.IolabException("bad durability '" + text
                    + "': expected none, batch or always");
        };
    }
}
