package dev.strata.bench.cache;

import dev.strata.sstable.cache.BlockKind;

/**
 * The blocks a Get touches in a leveled tree, without the tree: a model of {@code dbbench}'s
 * {@code readrandom} after {@code fillrandom}, for replaying block-cache traces in seconds.
 *
 * <p>The tree holds {@code keys} keys, ranked in key order. Level 0 has {@code l0Tables} tables
 * that each span the whole key range; levels 1 to 3 hold 1 %, 9 % and 90 % of the rest, each cut
 * into tables of {@code keysPerTable} keys over disjoint ranges; every key lives in exactly one
 * level (chosen by its hash). A Get of a present key consults every level-0 table and then one
 * table per level down to the key's: one filter chunk for each (the filter skips all but the last),
 * and the index (the whole index block, or one partition of it) and one data block of the table
 * that holds the key. A Get of an absent key consults one filter chunk per table on its path and
 * nothing else. False positives are left out: they add the same data reads under every policy.
 *
 * <p>Immutable; {@link #get} is a pure function of its arguments.
 */
final class TreeModel {
  /** What a Get asks the cache for. */
  interface Requests {
    void request(long fileNumber, long offset, BlockKind kind, int bytes);
  }

  private static final double[] LEVEL_SHARE = {0.01, 0.09, 0.90};
  private static final int INDEX_ENTRY_BYTES = 32;
  private static final long FILTER_OFFSET = 1L << 40;
  private static final long INDEX_OFFSET = 1L << 41;

  final long keys;
  final int l0Tables;
  final long l0Keys;
  final long keysPerTable;
  final int keysPerDataBlock;
  final int dataBlockBytes;
  final int chunkBytes;
  final int indexPartitionBytes;
  final double bitsPerKey;
  private final long[] tablesPerLevel = new long[LEVEL_SHARE.length];

  /**
   * @param indexPartitionBytes the size of an index partition; 0 for one index block per table
   */
  TreeModel(long keys, int l0Tables, long keysPerTable, int keysPerDataBlock, int dataBlockBytes,
      int chunkBytes, int indexPartitionBytes, double bitsPerKey) {
    this.keys = keys;
    this.l0Tables = l0Tables;
    this.keysPerTable = keysPerTable;
    this.l0Keys = keysPerTable;
    this.keysPerDataBlock = keysPerDataBlock;
    this.dataBlockBytes = dataBlockBytes;
    this.chunkBytes = chunkBytes;
    this.indexPartitionBytes = indexPartitionBytes;
    this.bitsPerKey = bitsPerKey;
    long rest = Math.max(0, keys - l0Tables * l0Keys);
    for (int l = 0; l < LEVEL_SHARE.length; l++) {
      tablesPerLevel[l] = Math.max(1, (long) Math.ceil(rest * LEVEL_SHARE[l] / keysPerTable));
    }
  }

  /** The bytes of all filter chunks and index blocks of the tree: the metadata working set. */
  long metadataBytes() {
    long tables = l0Tables;
    for (long t : tablesPerLevel) {
      tables += t;
    }
    long filter = (long) Math.ceil(keysPerTable * bitsPerKey / 8);
    long index = keysPerTable / keysPerDataBlock * INDEX_ENTRY_BYTES;
    return tables * (filter + index);
  }

  /** The bytes of all data blocks. */
  long dataBytes() {
    return keys / keysPerDataBlock * dataBlockBytes;
  }

  /** Issues the requests of a Get of the key of rank {@code rank}, present or absent. */
  void get(long rank, boolean present, Requests out) {
    int home = present ? levelOf(rank) : Integer.MAX_VALUE; // -1 for level 0
    for (int t = 0; t < l0Tables; t++) {
      long file = t + 1;
      double position = (double) rank / keys;
      filter(file, position, out);
      if (home == -1 && t == Math.floorMod(rank * 31, l0Tables)) {
        indexAndData(file, position, out);
        return;
      }
    }
    for (int l = 0; l < LEVEL_SHARE.length; l++) {
      double scaled = (double) rank * tablesPerLevel[l] / keys;
      long table = (long) scaled;
      long file = fileNumber(l, table);
      double position = scaled - table;
      filter(file, position, out);
      if (l == home) {
        indexAndData(file, position, out);
        return;
      }
    }
  }

  /** Issues the requests of a scan of {@code blocks} data blocks of the last level from {@code rank}. */
  void scan(long rank, int blocks, Requests out) {
    int last = LEVEL_SHARE.length - 1;
    long blocksPerTable = Math.max(1, keysPerTable / keysPerDataBlock);
    double scaled = (double) rank * tablesPerLevel[last] / keys;
    long table = (long) scaled;
    long block = (long) ((scaled - table) * blocksPerTable);
    for (int i = 0; i < blocks; i++) {
      if (block == blocksPerTable) {
        block = 0;
        table = (table + 1) % tablesPerLevel[last];
      }
      out.request(fileNumber(last, table), block * dataBlockBytes, BlockKind.DATA, dataBlockBytes);
      block++;
    }
  }

  private int levelOf(long rank) {
    long h = rank * 0x9E3779B97F4A7C15L;
    double u = (double) ((h ^ (h >>> 29)) >>> 11) / (1L << 53);
    double l0Share = (double) l0Tables * l0Keys / keys;
    if (u < l0Share) {
      return -1;
    }
    double acc = l0Share;
    for (int l = 0; l < LEVEL_SHARE.length; l++) {
      acc += (1 - l0Share) * LEVEL_SHARE[l];
      if (u < acc) {
        return l;
      }
    }
    return LEVEL_SHARE.length - 1;
  }

  private long fileNumber(int level, long table) {
    return 1_000L * (level + 1) * 1_000_000L + table;
  }

  private void filter(long file, double position, Requests out) {
    long filterBytes = (long) Math.ceil(keysPerTable * bitsPerKey / 8);
    long chunks = Math.max(1, (filterBytes + chunkBytes - 1) / chunkBytes);
    long chunk = Math.min(chunks - 1, (long) (position * chunks));
    out.request(file, FILTER_OFFSET + chunk, BlockKind.FILTER, (int) Math.min(chunkBytes, filterBytes));
  }

  private void indexAndData(long file, double position, Requests out) {
    long blocks = Math.max(1, keysPerTable / keysPerDataBlock);
    long indexBytes = blocks * INDEX_ENTRY_BYTES;
    if (indexPartitionBytes == 0) {
      out.request(file, INDEX_OFFSET, BlockKind.INDEX, (int) indexBytes);
    } else {
      long partitions = Math.max(1, (indexBytes + indexPartitionBytes - 1) / indexPartitionBytes);
      long p = Math.min(partitions - 1, (long) (position * partitions));
      out.request(file, INDEX_OFFSET + p, BlockKind.INDEX, (int) Math.min(indexPartitionBytes, indexBytes));
    }
    long block = Math.min(blocks - 1, (long) (position * blocks));
    out.request(file, block * dataBlockBytes, BlockKind.DATA, dataBlockBytes);
  }
}
