package dev.strata.sstable;

import java.io.IOException;

/**
 * The index and data block part of {@link TableReader#getAll}, in phases over the whole batch
 * rather than one key after another (RocksDB's MultiGet does the same with its batch):
 *
 * <ol>
 *   <li><b>Locate</b>: one forward pass through the index, in key order, finds each key's data block
 *       (keys in one index partition search it from where the previous key's search ended) and takes
 *       it from the cache; consecutive keys in one block share it.
 *   <li><b>Search</b>: each key is sought in its block. A key whose search runs off the block's end
 *       (its entries continue in the next block, or it sorts after the block's last key), and any
 *       key that must also look for a row tombstone, takes the general path instead ({@code
 *       fallback}): a table cursor walking forward, as before.
 * </ol>
 *
 * <p>Locating every block before searching any was meant to let the block reads overlap (a pass
 * that touches each located block so the processor overlaps their cache misses gave no measurable
 * gain on a 2-core machine and was dropped); it also keeps each key's block search a separate
 * step, the place for an in-place block search.
 *
 * <p>Belongs to one batch on one thread.
 */
final class BatchedLookups {
  /** The general path for one key: the caller's cursor-based lookup. */
  interface Fallback {
    GetResult lookup(FilterProbe probe, int admitted, long snapshot) throws IOException;
  }

  private BatchedLookups() {}

  /**
   * Fills {@code out}: {@link GetResult#ABSENT} where {@code admitted[i] <= 0} (out of range or
   * skipped by the filter), the block search where it is exactly {@code cellBit} (the cell may be
   * present, no row tombstone need be sought), else {@code fallback}, called in key order.
   */
  static void run(TableReader reader, IndexCursor index, FilterProbe[] probes, int[] admitted,
      int cellBit, long snapshot, GetResult[] out, Fallback fallback, Counts counts)
      throws IOException {
    int n = probes.length;
    InternalKey[] targets = new InternalKey[n];
    Block[] blocks = new Block[n];
    long lastPosition = -1;
    Block last = null;
    for (int i = 0; i < n; i++) { // locate
      if (admitted[i] != cellBit) {
        continue;
      }
      FilterProbe p = probes[i];
      InternalKey target = new InternalKey(p.row(), p.column(), snapshot, ValueKind.PUT);
      targets[i] = target;
      index.seekForward(target);
      if (!index.isValid()) {
        continue; // after the table's last block: the general path answers it
      }
      long position = index.position();
      if (last == null || position != lastPosition) {
        last = reader.dataBlock(index.block(), index.valueOffset());
        lastPosition = position;
      }
      blocks[i] = last;
    }
    BlockCursor cursor = new BlockCursor();
    for (int i = 0; i < n; i++) { // search
      if (admitted[i] <= 0) {
        out[i] = GetResult.ABSENT; // outside the table's rows, or skipped by its filter
        continue;
      }
      Block b = blocks[i];
      FilterProbe p = probes[i];
      if (b != null) {
        cursor.reset(b);
        cursor.seek(targets[i]);
        if (cursor.isValid()) {
          if (KeyCodec.sameCell(p.row(), p.column(), cursor.keyBytes(), 0, cursor.keyLength())) {
            out[i] = new GetResult(KeyCodec.decodeInternalKey(cursor.keyBytes(), 0, cursor.keyLength()),
                cursor.value(), GetResult.NO_ROW_TOMBSTONE);
          } else {
            counts.falsePositives++;
            out[i] = GetResult.ABSENT;
          }
          continue;
        }
      }
      out[i] = fallback.lookup(p, admitted[i], snapshot);
    }
  }

  /** What a batch counts, added to the reader's counters once. */
  static final class Counts {
    int falsePositives;
  }
}
