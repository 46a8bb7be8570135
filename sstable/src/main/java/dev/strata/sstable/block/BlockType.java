package dev.strata.sstable.block;

/**
 * What a block holds. Persisted by {@link #id()} in the high four bits of every block trailer's type
 * byte, so a handle that points at the wrong block is caught as corruption; {@code ordinal()} never
 * reaches disk.
 *
 * <p>Immutable.
 */
public enum BlockType {
  /** Sorted cells. */
  DATA(1),
  /**
   * The index: before version 3 the last key and handle of each data block; from version 3 the
   * top level, the last key and handle of each {@link #INDEX_PARTITION}.
   */
  INDEX(2),
  /** One partition of the filter: a serialized {@code BlockedBloomFilter}. */
  FILTER_CHUNK(3),
  /** The last filter key and handle of each filter chunk. */
  FILTER_INDEX(4),
  /** The table's properties. */
  PROPERTIES(5),
  /** A {@code BlockedBloomFilter} over the rows holding a row tombstone ({@code ROWCOL} only). */
  ROW_TOMBSTONE_FILTER(6),
  /** One partition of a two-level index (version 3): a separator key and handle per data block. */
  INDEX_PARTITION(7);

  /** {@code values()} copies its array on every call; every block read looks a type up. */
  private static final BlockType[] ALL = values();

  private final int id;

  BlockType(int id) {
    this.id = id;
  }

  /** The persisted id (four bits). */
  int id() {
    return id;
  }

  /** The type with the given persisted id, or {@code null}: parsers turn that into corruption. */
  public static BlockType fromIdOrNull(int id) {
    for (BlockType t : ALL) {
      if (t.id == id) {
        return t;
      }
    }
    return null;
  }

  /**
   * The trailer type byte of a block: the type's id in the high four bits, the compression's in the
   * low four (see {@link dev.strata.sstable.format.SstableFormat}).
   */
  public static byte trailerType(BlockType type, BlockCompression compression) {
    return (byte) (type.id() << 4 | compression.id());
  }
}
