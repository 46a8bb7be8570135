package dev.strata.engine;

import dev.strata.sstable.TableReadOptions;

/**
 * How the database uses its files: whether it writes any, how many tables it keeps open, and how it
 * reads them. Each component is set by the {@link DbOptions.Builder} method of the same name; the
 * constructor rejects a value out of range with an {@link IllegalArgumentException} naming it.
 *
 * <p>Immutable.
 *
 * @param readOnly whether the database is opened read-only; default false. A read-only open
 *     writes nothing and deletes nothing, so it works on a full disk and in a read-only directory:
 *     it takes no directory lock (a writer may hold it meanwhile), creates no file, replays the logs
 *     into memory without flushing them, and runs no compaction. Every write, {@code flush()} and {@code
 *     compact()} throws {@link IllegalStateException}. It reads the files as they were at open; a
 *     writer that replaces them during the open can make it fail, and a retry then succeeds. A
 *     directory without a database is an {@link java.io.IOException}, not a new database. Beside a
 *     live writer it is a point-in-time view (RocksDB's {@code OpenForReadOnly}): the writer's
 *     compactions may delete tables it lists. A table it has open keeps answering from its file; a
 *     read that must open one that is gone throws {@link java.nio.file.NoSuchFileException} saying
 *     it was deleted since this read-only open, never a wrong or missing answer. Reopen to read the
 *     current state
 * @param maxOpenFiles tables open at once, at most: -1 (the default) for no limit, otherwise at
 *     least {@value #MIN_MAX_OPEN_FILES}. The least recently used tables are closed and reopened on
 *     demand
 * @param useDirectReads whether table files are read with {@code O_DIRECT} (RocksDB's {@code
 *     use_direct_reads}); default false. A block-cache miss then reads from the device exactly the
 *     file-system blocks that cover the block, where a buffered read lets the kernel read ahead and
 *     fills the OS page cache with table pages the block cache holds already. The price: the OS
 *     caches nothing for the tables, so with a database that fits in free memory every block-cache
 *     miss becomes a device read; size the block cache for the working set. Writes (flushes,
 *     compaction outputs, logs) stay buffered. A file system that refuses {@code O_DIRECT} (tmpfs
 *     on older kernels) is read through the page cache instead, with one log line; the open never
 *     fails for it. The "Direct reads" section of docs/OPERATING.md has the measurements behind the
 *     default
 * @param compactionReadaheadBytes bytes a compaction reads from an input table at once (RocksDB's
 *     {@code compaction_readahead_size}), in [0, 64 MiB]; default 2 MiB. A compaction reads its
 *     inputs' data blocks in file order past the block cache: one read of this many bytes serves
 *     the blocks that follow, instead of a read call per block. It matters most with {@code
 *     useDirectReads}, where nothing else reads ahead. Each input table being read holds a window
 *     this size on the heap; 0 reads block by block
 */
public record FileOptions(
    boolean readOnly, int maxOpenFiles, boolean useDirectReads, int compactionReadaheadBytes) {

  /** The smallest {@code maxOpenFiles} other than -1 (unlimited). */
  public static final int MIN_MAX_OPEN_FILES = 16;

  /** Largest compaction read-ahead (64 MiB), as the table readers accept. */
  public static final int MAX_COMPACTION_READAHEAD_BYTES =
      TableReadOptions.MAX_COMPACTION_READAHEAD_BYTES;

  /** Checks every component's range. */
  public FileOptions {
    if (maxOpenFiles != -1 && maxOpenFiles < MIN_MAX_OPEN_FILES) {
      throw OptionRanges.outOfRange(
          "maxOpenFiles", maxOpenFiles, "-1 or at least " + MIN_MAX_OPEN_FILES);
    }
    OptionRanges.check(
        "compactionReadaheadBytes", compactionReadaheadBytes, 0, MAX_COMPACTION_READAHEAD_BYTES);
  }

  /** How table readers read their files. */
  TableReadOptions tableReadOptions() {
    return new TableReadOptions(useDirectReads, compactionReadaheadBytes);
  }
}
