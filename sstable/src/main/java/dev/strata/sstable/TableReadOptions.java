package dev.strata.sstable;

/**
 * How a {@link TableReader} reads its file (where {@link TableOptions} say how a table is laid out):
 * chosen per open, not recorded in the table.
 *
 * @param directReads read the file with {@code O_DIRECT}, past the OS page cache (RocksDB's {@code
 *     use_direct_reads}): a cold read takes only the aligned blocks that cover it from the device,
 *     without the kernel's read-ahead, but nothing is cached by the OS either, so every block-cache
 *     miss is a device read. A file system that refuses {@code O_DIRECT} is read through the page
 *     cache instead (logged once); see {@link TableReader#readsDirect()}
 */
public record TableReadOptions(boolean directReads) {
  private static final TableReadOptions DEFAULTS = new TableReadOptions(false);

  /** Reads through the page cache. */
  public static TableReadOptions defaults() {
    return DEFAULTS;
  }
}
