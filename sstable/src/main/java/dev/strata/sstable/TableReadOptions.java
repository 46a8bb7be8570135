package dev.strata.sstable;

/**
 * How a {@link TableReader} reads its file (where {@link TableOptions} say how a table is laid out):
 * chosen per open, not recorded in the table.
 *
 * @param directReads read the file with {@code O_DIRECT}, past the OS page cache (RocksDB's {@code
 *     use_direct_reads}): a read takes from the device the aligned file-system blocks that cover
 *     it, without the kernel's read-ahead, but nothing is cached by the OS either, so every
 *     block-cache miss is a device read. A file system that refuses {@code O_DIRECT} is read through
 *     the page cache instead (logged once); see {@link TableReader#readsDirect()}
 * @param compactionReadaheadBytes the read-ahead window of a bulk pass ({@link
 *     TableReader#bulkIterator}; RocksDB's {@code compaction_readahead_size}): one read of this many
 *     bytes serves the data blocks that follow; 0 reads each block on its own. In [0, {@value
 *     #MAX_COMPACTION_READAHEAD_BYTES}]
 */
public record TableReadOptions(boolean directReads, int compactionReadaheadBytes) {
  /** The default read-ahead of a bulk pass: 2 MiB, as RocksDB's {@code compaction_readahead_size}. */
  public static final int DEFAULT_COMPACTION_READAHEAD_BYTES = 2 << 20;

  /** The largest read-ahead window of a bulk pass (64 MiB); each pass holds one on the heap. */
  public static final int MAX_COMPACTION_READAHEAD_BYTES = 64 << 20;

  private static final TableReadOptions DEFAULTS =
      new TableReadOptions(false, DEFAULT_COMPACTION_READAHEAD_BYTES);

  /** Validates the read-ahead; {@link IllegalArgumentException} says why. */
  public TableReadOptions {
    if (compactionReadaheadBytes < 0 || compactionReadaheadBytes > MAX_COMPACTION_READAHEAD_BYTES) {
      throw new IllegalArgumentException("compactionReadaheadBytes must be in [0, "
          + MAX_COMPACTION_READAHEAD_BYTES + "]: " + compactionReadaheadBytes);
    }
  }

  /** Reads through the page cache, bulk passes with a 2 MiB read-ahead. */
  public static TableReadOptions defaults() {
    return DEFAULTS;
  }
}
