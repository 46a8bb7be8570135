package dev.strata.bench.dbbench;

/**
 * The shape of the leveled tree both engines are given: the same numbers go into Strata's {@code
 * DbOptions} and RocksDB's {@code Options}.
 *
 * @param memtableBytes memtable size at which it is flushed (RocksDB {@code write_buffer_size})
 * @param level0Trigger level-0 table count that starts a level-0 compaction
 * @param targetFileBytes size at which a compaction starts a new output table
 * @param level1Bytes target size of level 1 (RocksDB {@code max_bytes_for_level_base})
 * @param multiplier growth factor between levels below level 1
 *
 * <p>Immutable.
 */
public record Tree(long memtableBytes, int level0Trigger, long targetFileBytes, long level1Bytes,
    int multiplier) {
  private static final long MIB = 1L << 20;

  /** The tree of the issue and of RocksDB's defaults: 64 MiB memtables and files, 256 MiB L1. */
  public static final Tree STANDARD = new Tree(64 * MIB, 4, 64 * MIB, 256 * MIB, 10);

  /** The same tree scaled down 64 times, so the smoke's few megabytes still build several levels. */
  public static final Tree SMOKE = new Tree(MIB, 4, MIB, 4 * MIB, 10);
}
